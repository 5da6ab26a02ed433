/**
 * One customer's crafted sheets against another's one-row uploads (issue 26, finding 2): starts
 * the server on loopback (SQLite in a temp folder; PostgreSQL in a database made for the run
 * when `--pg` is given or DATABASE_URL is a postgres:// URL), times demo2's one-row storage
 * sheet and one-row batch import alone, then again while demo has three hostile storage sheets
 * and two hostile imports in line: 40,000 rows of one blank cell at XFD (the red team's file).
 * Goal: the victim's uploads finish within 5 s with the hostile files queued.
 *   npm run bench:starve -w apps/server [-- --pg] [-- --port 8123]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { openResponse, sealRequest } from '../test/aes-client.ts';
import { baseRow, fill } from '../test/batches/helpers.ts';
import { httpClient } from '../test/harness.ts';
import { sheetWorkbook } from '../test/support/zip.ts';

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
};
const port = Number(arg('--port') ?? 8123);
const pgUrl =
  process.env.DATABASE_URL?.startsWith('postgres') === true
    ? process.env.DATABASE_URL
    : process.argv.includes('--pg')
      ? 'postgres://postgres@127.0.0.1:5432/postgres'
      : undefined;
const base = `http://127.0.0.1:${port}/api`;
const http = httpClient(base);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-starve-'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const LIMIT_MS = 600_000; // every wait below ends by this, whatever the server does

let databaseUrl = path.join(dir, 'console.sqlite');
let dropDatabase = async () => {};
if (pgUrl) {
  const name = `bench_starve_${process.pid}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(pgUrl);
  u.pathname = `/${name}`;
  databaseUrl = u.toString();
  dropDatabase = async () => {
    const c = new pg.Client({ connectionString: pgUrl });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  };
}

const server = spawn(process.execPath, [path.join(import.meta.dirname, '../src/server.ts')], {
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    DATABASE_URL: databaseUrl,
    DEMO_SEED: 'true',
    // Required on PostgreSQL (issue 27): without it the start stops, and the bench with it.
    JD_SECRET_KEY: 'a'.repeat(64),
    LOG_LEVEL: 'warn',
  },
  stdio: 'ignore',
});

/** The storage-order sheet upload (its fields sealed, as the console sends them). */
async function storageSheet(token: string, data: Buffer) {
  const form = new FormData();
  const sealed = sealRequest(token, { origin: 'counter' });
  form.set('data', sealed.data);
  form.set('iv', sealed.iv);
  form.set('file', new Blob([new Uint8Array(data)]), 'w.xlsx');
  const r = await fetch(`${base}/storageOrder/createBatch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, aes: '1', 'accept-language': 'en' },
    body: form,
    signal: AbortSignal.timeout(LIMIT_MS),
  });
  const body = (await r.json()) as { data: string; iv: string };
  return { status: r.status, data: r.status === 200 ? openResponse(token, body) : body.data };
}
/** A batch import from upload to the end of its parse; its final status. */
async function batchImport(token: string, data: Buffer) {
  const up = await http.upload('order/batch/createImport', token, { name: 'o.xlsx', data }, { channel: 'JP' });
  if (up.status !== 200) return `${up.status} ${JSON.stringify(up.body.data)}`;
  for (const end = Date.now() + LIMIT_MS; Date.now() < end; await sleep(50)) {
    const p = (await http.post('order/batch/progress', { id: up.body.data.id }, token)).body.data;
    if (p.status !== 'parsing') return `${p.status}${p.errorMessage ? `: ${p.errorMessage}` : ''}`;
  }
  return 'still parsing after 600 s';
}
const timed = async <T>(f: () => Promise<T>) => {
  const t = performance.now();
  const result = await f();
  return { result, seconds: (performance.now() - t) / 1000 };
};

try {
  await http.ready();
  const [demo, demo2] = [await http.login('demo'), await http.login('demo2')];
  const rows: string[] = [];
  for (let r = 1; r <= 40_000; r++) rows.push(`<row r="${r}"><c r="XFD${r}" t="inlineStr"><is><t></t></is></c></row>`);
  const hostile = sheetWorkbook(rows.join(''));
  const one = new ExcelJS.Workbook();
  one.addWorksheet('S').addRow(['NOSUCH0001']);
  const victimSheet = Buffer.from(await one.xlsx.writeBuffer());
  const tpl = await fetch(`${base}/download/importOrder`, {
    method: 'POST',
    headers: { authorization: `Bearer ${demo2}`, 'content-type': 'application/json' },
    body: '{}',
  });
  const victimImport = await fill(Buffer.from(await tpl.arrayBuffer()), [baseRow(1)]);
  console.log(`database: ${pgUrl ? 'PostgreSQL' : 'SQLite'}; hostile file ${(hostile.length / 1024).toFixed(0)} KB`);

  const sheetAlone = await timed(() => storageSheet(demo2, victimSheet));
  const importAlone = await timed(() => batchImport(demo2, victimImport));
  console.log(
    `demo2 alone:     storage sheet ${sheetAlone.seconds.toFixed(2)} s (${sheetAlone.result.status}), ` +
      `batch import ${importAlone.seconds.toFixed(2)} s (${importAlone.result})`,
  );

  const t0 = performance.now();
  const hostileRuns = [
    ...[1, 2, 3].map(() =>
      timed(() => storageSheet(demo, hostile)).then(
        (r) => `storage ${r.result.status} ${JSON.stringify(r.result.data).slice(0, 90)} in ${r.seconds.toFixed(1)} s`,
      ),
    ),
    ...[1, 2].map(() =>
      timed(() => batchImport(demo, hostile)).then(
        (r) => `import ${r.result.slice(0, 90)} in ${r.seconds.toFixed(1)} s`,
      ),
    ),
  ];
  await sleep(300); // the hostile uploads are in line first
  const [sheet, imp] = await Promise.all([
    timed(() => storageSheet(demo2, victimSheet)),
    timed(() => batchImport(demo2, victimImport)),
  ]);
  console.log(`demo2 with demo's 3 hostile sheets and 2 hostile imports queued:`);
  console.log(
    `  storage sheet ${sheet.seconds.toFixed(2)} s (${sheet.result.status}), batch import ${imp.seconds.toFixed(2)} s (${imp.result})`,
  );
  for (const h of await Promise.all(hostileRuns)) console.log(`  demo's hostile ${h}`);
  const worst = Math.max(sheet.seconds, imp.seconds);
  console.log(
    `victim's worst: ${worst.toFixed(2)} s (goal ≤ 5 s): ${worst <= 5 ? 'met' : 'NOT met'}; all settled in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
} finally {
  server.kill('SIGTERM');
  await sleep(1000);
  await dropDatabase().catch((e: unknown) => console.error(`could not drop the bench database: ${String(e)}`));
  fs.rmSync(dir, { recursive: true, force: true });
}

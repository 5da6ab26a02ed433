/**
 * Export benchmark (issue 10, finding 4): seeds 100,000 orders of one customer, then that
 * customer downloads them all (`order/downloadOrderExcel`) through the real HTTP server
 * while a prober in another process calls `/api/health` one call after another. Prints
 * the health p99 with no export running (the bare baseline, same process, same prober),
 * the p99 and the longest answer during the export, their ratios, and the server's RSS
 * growth during the export.
 *   npm run bench:export -w apps/server
 *   BENCH_ORDERS=20000 …                                  (smaller runs)
 *   BENCH_DATABASE_URL=postgres://… …                     (PostgreSQL)
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { testConfig } from '../src/config.ts';
import { createDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { seedDemo } from '../src/seed/demo.ts';
import { listening } from '../test/harness.ts';

const N = Number(process.env.BENCH_ORDERS ?? 100_000);
const BASELINE_SECONDS = Number(process.env.BENCH_BASELINE_SECONDS ?? 5);
const pgUrl = process.env.BENCH_DATABASE_URL;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-export-'));
const log = (s: string) => process.stdout.write(`${s}\n`);

let databaseUrl = path.join(dir, 'bench.sqlite');
let dropPg: (() => Promise<void>) | undefined;
if (pgUrl) {
  const name = `bench_export_${Date.now()}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(pgUrl);
  u.pathname = `/${name}`;
  databaseUrl = u.toString();
  dropPg = async () => {
    const c = new pg.Client({ connectionString: pgUrl });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  };
}
const config = testConfig({
  DATABASE_URL: databaseUrl,
  DATA_DIR: dir,
  WEB_DIST: path.join(dir, 'no-web'),
  LOG_LEVEL: 'silent',
});
const seedDb = createDatabase(config.database);
await migrateToLatest(seedDb);
await seedDemo(seedDb, { orders: 0 });
const demoId = (await seedDb.selectFrom('customers').select('id').where('code', '=', 'DEMO').executeTakeFirstOrThrow())
  .id;
await seedDb.destroy();

// Bulk seed in one transaction: multi-row inserts (SQLite) or generate_series (PostgreSQL).
const t0 = performance.now();
const now = Date.now();
const COLS =
  'customer_id, channel_code, order_no, waybill_no, system_no, status, intercepted, released, print_count, print_flag, recipient_name, recipient_id_card, recipient_phone, recipient_province, recipient_city, recipient_district, recipient_address, currency, total_amount, created_at, updated_at';
if (!pgUrl) {
  const raw = new DatabaseSync(databaseUrl);
  raw.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF;');
  const ROWS = 500;
  const one = `(${Array(21).fill('?').join(',')})`;
  const stmt = raw.prepare(`insert into orders (${COLS}) values ${Array(ROWS).fill(one).join(',')}`);
  raw.exec('BEGIN');
  let params: (string | number)[] = [];
  for (let i = 0; i < N; i++) {
    const at = new Date(now - Math.floor((i / N) * 90 * 86_400_000)).toISOString();
    params.push(
      demoId,
      ['JP', 'EMS', 'SG'][i % 3]!,
      `EX${String(i).padStart(9, '0')}`,
      `WB${String(i).padStart(11, '0')}`,
      `S${String(i).padStart(12, '0')}`,
      i % 4 ? 'created' : 'printed',
      i % 41 === 3 ? 1 : 0,
      0,
      i % 4 ? 0 : 1,
      i % 4 ? 0 : 1,
      `王${'伟芳娜敏静丽强磊'[i % 8]}`,
      '11010519900101123X',
      `138${String(i % 1e8).padStart(8, '0')}`,
      '浙江省',
      '杭州市',
      '西湖区',
      `文三路${i % 500}号`,
      'JPY',
      1000 + (i % 9000),
      at,
      at,
    );
    if (params.length === ROWS * 21) {
      stmt.run(...params);
      params = [];
    }
  }
  if (params.length)
    raw
      .prepare(
        `insert into orders (${COLS}) values ${Array(params.length / 21)
          .fill(one)
          .join(',')}`,
      )
      .run(...params);
  raw.exec('COMMIT');
  raw.exec('ANALYZE');
  raw.close();
} else {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  await c.query(
    `insert into orders (${COLS})
     select $1, (array['JP','EMS','SG'])[i % 3 + 1], 'EX' || lpad(i::text, 9, '0'), 'WB' || lpad(i::text, 11, '0'),
       'S' || lpad(i::text, 12, '0'), case when i % 4 = 0 then 'printed' else 'created' end,
       case when i % 41 = 3 then 1 else 0 end, 0, case when i % 4 = 0 then 1 else 0 end, case when i % 4 = 0 then 1 else 0 end,
       '王伟', '11010519900101123X', '138' || lpad((i % 100000000)::text, 8, '0'), '浙江省', '杭州市', '西湖区',
       '文三路' || (i % 500) || '号', 'JPY', 1000 + i % 9000,
       now() - (i::float / $2) * interval '90 days', now() - (i::float / $2) * interval '90 days'
     from generate_series(0, $2 - 1) i`,
    [demoId, N],
  );
  await c.query('analyze orders');
  await c.end();
}
log(
  `seeded ${N.toLocaleString()} orders on ${pgUrl ? 'PostgreSQL' : 'SQLite'} in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);

const db = createDatabase(config.database);
const app = await buildApp({ config, db });
const http = await listening(app);
const token = await http.login('demo');

// The prober: its own process (its own event loop), one health call after another.
const PROBER = `
let on = false; let lat = [];
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => { for (const cmd of d.split('\\n').filter(Boolean)) {
  if (cmd === 'start') { lat = []; on = true; loop(); }
  if (cmd === 'stop') { on = false; process.stdout.write(JSON.stringify(lat) + '\\n'); }
  if (cmd === 'exit') process.exit(0);
} });
async function loop() {
  while (on) {
    const s = performance.now();
    const r = await fetch(process.argv[1]);
    await r.arrayBuffer();
    lat.push(performance.now() - s);
  }
}`;
const prober = spawn(process.execPath, ['-e', PROBER, `${http.base}/health`], { stdio: ['pipe', 'pipe', 'inherit'] });
let pending: ((lat: number[]) => void) | null = null;
let buffered = '';
prober.stdout.setEncoding('utf8');
prober.stdout.on('data', (d: string) => {
  buffered += d;
  const nl = buffered.indexOf('\n');
  if (nl >= 0) {
    const line = buffered.slice(0, nl);
    buffered = buffered.slice(nl + 1);
    pending?.(JSON.parse(line));
  }
});
const probe = {
  start: () => prober.stdin.write('start\n'),
  stop: () =>
    new Promise<number[]>((resolve) => {
      pending = resolve;
      prober.stdin.write('stop\n');
    }),
};
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const mib = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MiB`;

// 1. Baseline: health alone (after a warm-up second: the prober's first calls open the connection).
probe.start();
await new Promise((r) => setTimeout(r, 1000));
await probe.stop();
probe.start();
await new Promise((r) => setTimeout(r, BASELINE_SECONDS * 1000));
const idle = await probe.stop();

// 2. The export, with health probed throughout and the RSS sampled.
global.gc?.();
const rssBefore = process.memoryUsage().rss;
let rssPeak = rssBefore;
const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 20);
probe.start();
const s = performance.now();
const res = await fetch(`${http.base}/order/downloadOrderExcel`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'accept-language': 'en' },
  body: JSON.stringify({ sort: 'createdAt', order: 'desc' }),
});
let bytes = 0;
for await (const chunk of res.body!) bytes += (chunk as Uint8Array).length;
const exportMs = performance.now() - s;
const during = await probe.stop();
clearInterval(sampler);
prober.stdin.write('exit\n');

const idleP99 = pct(idle, 99);
const duringP99 = pct(during, 99);
log(`\n${os.cpus().length} CPUs, Node ${process.version}, ${pgUrl ? 'PostgreSQL' : 'SQLite'}`);
log(
  `export of ${N.toLocaleString()} orders: HTTP ${res.status}, ${(bytes / 1024 / 1024).toFixed(1)} MiB in ${(exportMs / 1000).toFixed(1)} s`,
);
log(
  `/api/health, no export (bare baseline): ${idle.length} calls, p50 ${pct(idle, 50).toFixed(1)} ms, p99 ${idleP99.toFixed(1)} ms, max ${Math.max(...idle).toFixed(1)} ms`,
);
log(
  `/api/health during the export:          ${during.length} calls, p50 ${pct(during, 50).toFixed(1)} ms, p99 ${duringP99.toFixed(1)} ms, max ${Math.max(...during).toFixed(1)} ms`,
);
log(
  `ratios to the baseline: p99 ${(duringP99 / idleP99).toFixed(1)}×, longest answer ${(Math.max(...during) / idleP99).toFixed(1)}× the idle p99`,
);
log(`server RSS: ${mib(rssBefore)} before, peak ${mib(rssPeak)} during the export (+${mib(rssPeak - rssBefore)})`);

await app.close();
await db.destroy();
await dropPg?.();
fs.rmSync(dir, { recursive: true, force: true });

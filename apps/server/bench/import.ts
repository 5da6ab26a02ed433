/**
 * Batch import benchmark (issue 4): generates 10,000 and 100,000-row workbooks,
 * times the bare ExcelJS streaming parse of each and the end-to-end import
 * (upload → preview → confirm → done) through the real app on SQLite, reports
 * their ratio, the peak RSS, and the p99 of another user's list call during the
 * 100,000-row import.   npm run bench:import -w apps/server  [-- 10000 100000]
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { eanCheckDigit, idCardCheckChar } from '@console/contract';
import ExcelJS from 'exceljs';
import { buildApp } from '../src/app.ts';
import { testConfig } from '../src/config.ts';
import { createDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { DEMO_PASSWORD, seedDemo } from '../src/seed/demo.ts';
import { COLUMNS, headerText, TEMPLATES } from '../src/modules/batches/templates.ts';
import { multipart } from '../test/batches/helpers.ts';

// `--generate <rows> <file>`: write one workbook and exit (run in a child process, so the
// generator's own memory does not count in the peak RSS measured below).
if (process.argv[2] === '--generate') {
  await generate(Number(process.argv[3]), process.argv[4]!);
  process.exit(0);
}
const sizes = process.argv.slice(2).map(Number).filter(Boolean);
const SIZES = sizes.length ? sizes : [10_000, 100_000];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-import-'));

async function generate(rows: number, file: string) {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: true });
  const ws = wb.addWorksheet('orders');
  const cols = TEMPLATES.import.columns;
  ws.addRow(cols.map((k) => headerText(COLUMNS[k]))).commit();
  const first17 = '11010519900101123';
  const id = first17 + idCardCheckChar(first17);
  for (let i = 0; i < rows; i++) {
    const d = `49${String(i).padStart(10, '0')}`;
    const v: Record<string, string | number> = {
      orderNo: `BN${rows}-${String(i).padStart(8, '0')}`,
      boxNo: `BOX-${Math.floor(i / 50)}`,
      recipientName: '王伟',
      recipientPhone: '13800138000',
      recipientIdCard: id,
      recipientProvince: '浙江省',
      recipientCity: '杭州市',
      recipientDistrict: '西湖区',
      recipientAddress: `文三路 ${i % 500} 号`,
      recipientPostcode: '310000',
      senderName: 'DEMO Trading',
      senderPhone: '03-1234-5678',
      jan: `${d}${eanCheckDigit(d)}`,
      itemName: '资生堂 洗面奶',
      brand: 'Shiseido',
      spec: '120g',
      quantity: 1 + (i % 3),
      unitPrice: 500 + (i % 5000),
      currency: 'JPY',
      origin: 'JP',
    };
    ws.addRow(cols.map((k) => v[k] ?? null)).commit();
  }
  ws.commit();
  await wb.commit();
}

async function bareParse(file: string) {
  const t = performance.now();
  let n = 0;
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(fs.createReadStream(file), {
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  for await (const ws of reader) {
    for await (const _row of ws) n++;
    break;
  }
  return { seconds: (performance.now() - t) / 1000, rows: n };
}

const p99 = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * 0.99))] ?? 0;
};

async function main() {
  const config = testConfig({
    DATABASE_URL: path.join(dir, 'bench.sqlite'),
    DATA_DIR: dir,
    WEB_DIST: path.join(dir, 'none'),
    UPLOAD_LIMIT_BYTES: String(100 * 1024 * 1024),
  });
  const db = createDatabase(config.database);
  await migrateToLatest(db);
  await seedDemo(db, { orders: 2000 });
  const app = await buildApp({ config, db });
  await app.ready();
  const login = async (name: string) => {
    const r = await app.inject({ method: 'POST', url: '/api/login', payload: { name, password: DEMO_PASSWORD } });
    return r.json().data.access_token as string;
  };
  const demo = await login('demo');
  const other = await login('demo2');
  const post = (url: string, body: unknown, token: string) =>
    app.inject({
      method: 'POST',
      url: `/api/${url}`,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
  const settle = async (id: number) => {
    for (;;) {
      const d = (await post('order/batch/progress', { id }, demo)).json().data;
      if (!['parsing', 'committing'].includes(d.status)) return d;
      await new Promise((r) => setTimeout(r, 10));
    }
  };

  console.log(`node ${process.version}, ${os.cpus().length} CPUs, SQLite (node:sqlite, WAL)`);
  for (const rows of SIZES) {
    const file = path.join(dir, `orders-${rows}.xlsx`);
    const g = performance.now();
    execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--generate', String(rows), file], {
      stdio: 'inherit',
    });
    const size = fs.statSync(file).size;
    console.log(
      `\n${rows} rows: generated ${(size / 1048576).toFixed(1)} MB in ${((performance.now() - g) / 1000).toFixed(1)} s`,
    );
    const bare = await bareParse(file);

    // Another user lists their batches every 50 ms during the import.
    const latencies: number[] = [];
    let listing = true;
    const lister = (async () => {
      while (listing) {
        const t = performance.now();
        await post('order/batches', { offset: 0, limit: 20 }, other);
        latencies.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();

    const t0 = performance.now();
    const { payload, contentType } = multipart({ channel: 'JP' }, { name: 'orders.xlsx', data: fs.readFileSync(file) });
    const up = await app.inject({
      method: 'POST',
      url: '/api/order/batch/createImport',
      headers: { authorization: `Bearer ${demo}`, 'content-type': contentType },
      payload,
    });
    if (up.statusCode !== 200) throw new Error(up.body);
    const preview = await settle(up.json().data.id);
    const tPreview = performance.now();
    if (preview.invalidRows) throw new Error(JSON.stringify(preview.errors.slice(0, 3)));
    await post(
      'order/batch/confirm',
      { id: preview.id, confirmations: preview.confirmations.map((c: { kind: string }) => c.kind) },
      demo,
    );
    const done = await settle(preview.id);
    const e2e = (performance.now() - t0) / 1000;
    listing = false;
    await lister;
    if (done.status !== 'done') throw new Error(done.errorMessage);
    console.log(`  bare ExcelJS streaming parse: ${bare.seconds.toFixed(2)} s (${bare.rows} rows incl. header)`);
    console.log(
      `  end-to-end import: ${e2e.toFixed(2)} s (preview ready after ${((tPreview - t0) / 1000).toFixed(2)} s, ${done.orderCount} orders committed)`,
    );
    console.log(`  ratio end-to-end / bare parse: ${(e2e / bare.seconds).toFixed(2)} (goal <= 1.3)`);
    console.log(
      `  other user's order/batches during import: n=${latencies.length}, p50 ${p99(latencies.map((x) => x)) && [...latencies].sort((a, b) => a - b)[Math.floor(latencies.length / 2)]!.toFixed(1)} ms, p99 ${p99(latencies).toFixed(1)} ms (goal < 100 ms)`,
    );
    console.log(`  peak RSS so far: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB (goal <= 1024 MiB)`);
  }
  await app.close();
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

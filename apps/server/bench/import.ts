/**
 * Batch import benchmark (issue 4, issue 10 #12 #21): generates 10,000 and 100,000-row
 * workbooks, times the bare parse of each — ExcelJS's streaming reader and the server's own
 * reader (lib/xlsx-rows.ts), each in a child process so neither counts in this process's RSS —
 * and the end-to-end import (upload → preview → confirm → done) through the real app on SQLite;
 * reports both ratios (the import alone, as the parses run alone), the peak RSS of the import,
 * then imports a second workbook while another user lists (p99 of their list call during the
 * import) and writes (login, single create: their p99 during the commit), and
 * the peak RSS of a fresh server while four zip bombs are uploaded at once.
 * Its floor (issue 29): the own reader plus a bare node:sqlite insert of the same orders, and the
 * import's ratio to it.
 * `--pg` (issue 27): instead, the import alone on the embedded default and on PostgreSQL with its
 * queue, with files in the local folder and in PostgreSQL (bench/backends.ts), in one run, and
 * what the queue and the shared store cost against the embedded default.
 *   npm run bench:import -w apps/server  [-- 10000 100000] [--alone]
 *   npm run bench:import -w apps/server -- --pg             (PostgreSQL: BENCH_DATABASE_URL, TEST_DATABASE_URL or local)
 *   BENCH_ROWS=2000 …                                        (a smoke run's size)
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { DatabaseSync } from 'node:sqlite';
import inspector from 'node:inspector/promises';
import { eanCheckDigit, idCardCheckChar } from '@console/contract';
import ExcelJS from 'exceljs';
import { buildApp } from '../src/app.ts';
import { testConfig } from '../src/config.ts';
import { createDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { DEMO_PASSWORD, seedDemo } from '../src/seed/demo.ts';
import { readFirstSheetRows } from '../src/lib/xlsx-rows.ts';
import { readZipDirectory } from '../src/lib/xlsx-guard.ts';
import { type ColumnKey, COLUMNS } from '../src/domain/order-templates/template-columns.ts';
import { headerText, matchHeader } from '../src/domain/order-templates/template-headers.ts';
import { TEMPLATES } from '../src/domain/order-templates/templates.ts';
import { multipart } from '../test/batches/helpers.ts';
import { ALL_BACKENDS, type Backend, EMBEDDED, openBackend, pgServerUrl, ratioLine } from './backends.ts';
import { bombs } from './import-bombs.ts';

// `--generate <rows> <file>`: write one workbook and exit (run in a child process, so the
// generator's own memory does not count in the peak RSS measured below).
if (process.argv[2] === '--generate') {
  await generate(Number(process.argv[3]), process.argv[4]!, process.argv[5] ?? 'BN');
  process.exit(0);
}
// `--bare exceljs|reader <file>`: one bare parse, its seconds printed as JSON (a child process:
// the baseline's memory must not count in the import's peak RSS).
if (process.argv[2] === '--bare') {
  const file = process.argv[4]!;
  const r = process.argv[3] === 'reader' ? await readerParse(file) : await bareParse(file);
  console.log(JSON.stringify(r));
  process.exit(0);
}
// `--floor <file>`: the import's floor (issue 29), its seconds printed as JSON (a child process).
if (process.argv[2] === '--floor') {
  console.log(JSON.stringify(await floorImport(process.argv[3]!)));
  process.exit(0);
}
// `--alone`: the imports alone and their ratios only (no loaded import, no zip bombs): quicker
// while working on the import's own speed.
const aloneOnly = process.argv.includes('--alone');
// `--profile <dir>`: the main thread's CPU profile of each import alone, written there (run with
// `node --cpu-prof --cpu-prof-dir <dir>` for the parse worker's and SQLite's threads too).
const profileAt = process.argv.indexOf('--profile');
const profileDir = profileAt > 0 ? process.argv[profileAt + 1] : undefined;
const sizes = process.argv
  .slice(2)
  .filter((a) => a !== profileDir)
  .map(Number)
  .filter(Boolean);
// BENCH_ROWS=2000 (or 2000,5000): smaller sizes for a smoke run, wherever the arguments are not passed.
const envSizes = (process.env.BENCH_ROWS ?? '').split(',').map(Number).filter(Boolean);
const SIZES = sizes.length ? sizes : envSizes.length ? envSizes : [10_000, 100_000];
// `--pg` (issue 27): the imports alone on the embedded default and on PostgreSQL with its queue,
// with and without its file store (bench/backends.ts), and their ratios; nothing else.
const pgRun = process.argv.includes('--pg');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-import-'));

async function generate(rows: number, file: string, prefix: string) {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: true });
  const ws = wb.addWorksheet('orders');
  const cols = TEMPLATES.import.columns;
  ws.addRow(cols.map((k) => headerText(COLUMNS[k]))).commit();
  const first17 = '11010519900101123';
  const id = first17 + idCardCheckChar(first17);
  for (let i = 0; i < rows; i++) {
    const d = `49${String(i).padStart(10, '0')}`;
    const v: Record<string, string | number> = {
      orderNo: `${prefix}${rows}-${String(i).padStart(8, '0')}`,
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

/** The server's own row reader over the same file (what the parse worker runs). */
async function readerParse(file: string) {
  const t = performance.now();
  const buf = fs.readFileSync(file);
  let n = 0;
  await readFirstSheetRows(buf, readZipDirectory(buf)!, { onRow: () => n++ });
  return { seconds: (performance.now() - t) / 1000, rows: n };
}

/**
 * The floor of an import (issue 29): no import can end before the workbook is read and its orders
 * and items are written. The server's own reader over the same file, then a bare node:sqlite
 * insert of the same orders (consecutive rows of one order number are one order) with the columns
 * the import writes, one prepared statement per row and one transaction, into a database made by
 * the same migrations (same columns, indexes, foreign keys and pragmas) and the same demo seed.
 * No validation, no preview, no waybill reservation, no events: what the import adds to this is
 * its own cost.
 */
async function floorImport(file: string) {
  const floorDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-floor-'));
  const dbFile = path.join(floorDir, 'floor.sqlite');
  const config = testConfig({ DATABASE_URL: dbFile, DATA_DIR: floorDir, WEB_DIST: path.join(floorDir, 'none') });
  const kdb = createDatabase(config.database);
  await migrateToLatest(kdb);
  await seedDemo(kdb, { orders: 2000 });
  const user = await kdb
    .selectFrom('users')
    .select(['id', 'customer_id'])
    .where('name', '=', 'demo')
    .executeTakeFirstOrThrow();
  const batch = await kdb
    .selectFrom('batches')
    .select(['id', 'customer_id'])
    .where('channel_code', '=', 'JP')
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const segment = await kdb
    .selectFrom('number_segments')
    .select('id')
    .where('channel_code', '=', 'JP')
    .executeTakeFirstOrThrow();
  await kdb.destroy();

  const s = new DatabaseSync(dbFile);
  s.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON');
  const orderCols = [
    'customer_id',
    'batch_id',
    'channel_code',
    'order_no',
    'waybill_no',
    'system_no',
    'box_no',
    'number_segment_id',
    'order_type',
    'status',
    'recipient_name',
    'recipient_id_card',
    'recipient_phone',
    'recipient_province',
    'recipient_city',
    'recipient_district',
    'recipient_address',
    'recipient_postcode',
    'sender_name',
    'sender_phone',
    'currency',
    'total_amount',
    'insured_amount',
    'tax_estimate',
    'abnormal_rule',
    'abnormal_reason',
    'abnormal_at',
    'created_by',
    'created_at',
    'updated_at',
  ];
  const itemCols = [
    'order_id',
    'line_no',
    'jan',
    'name',
    'brand',
    'spec',
    'quantity',
    'unit_price',
    'currency',
    'origin',
  ];
  const insertOf = (table: string, cols: string[]) =>
    s.prepare(`insert into ${table} (${cols.join(', ')}) values (${cols.map(() => '?').join(', ')})`);
  const insOrder = insertOf('orders', orderCols);
  const insItem = insertOf('order_items', itemCols);

  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const buf = fs.readFileSync(file);
  let keys: (ColumnKey | undefined)[] | null = null;
  const sheet: Partial<Record<ColumnKey, string>>[] = [];
  await readFirstSheetRows(buf, readZipDirectory(buf)!, {
    onRow: (row) => {
      if (!keys) {
        keys = [];
        row.cols.forEach((c, k) => (keys![c] = matchHeader(String(row.values[k]))));
        return;
      }
      const rec: Partial<Record<ColumnKey, string>> = {};
      row.cols.forEach((c, k) => {
        const key = keys![c];
        if (key) rec[key] = String(row.values[k]);
      });
      sheet.push(rec);
    },
  });
  const t1 = performance.now();
  const now = new Date().toISOString();
  let orders = 0;
  s.exec('BEGIN IMMEDIATE');
  let orderId = 0;
  let line = 0;
  let last: string | undefined;
  for (const r of sheet) {
    if (r.orderNo !== last) {
      last = r.orderNo;
      orders++;
      line = 0;
      const total = Number(r.unitPrice) * Number(r.quantity);
      orderId = Number(
        insOrder.run(
          batch.customer_id,
          batch.id,
          'JP',
          r.orderNo!,
          `EB${String(orders).padStart(8, '0')}0JP`,
          `SFLOOR${String(orders).padStart(10, '0')}`,
          r.boxNo ?? null,
          segment.id,
          'normal',
          'created',
          r.recipientName!,
          r.recipientIdCard!,
          r.recipientPhone!,
          r.recipientProvince!,
          r.recipientCity!,
          r.recipientDistrict!,
          r.recipientAddress!,
          r.recipientPostcode ?? null,
          r.senderName ?? null,
          r.senderPhone ?? null,
          r.currency ?? 'JPY',
          total,
          0,
          // What the import stores for these orders (one recipient throughout: every order from
          // the fifth on is flagged as too frequent), so the same partial indexes take them.
          `${(total / 1000).toFixed(2)}`,
          orders >= 5 ? 'sameRecipientTooOften' : null,
          orders >= 5 ? `[{"code":"abnormalReason.sameRecipientTooOften","params":{"count":${orders},"max":5}}]` : null,
          orders >= 5 ? now : null,
          user.id,
          now,
          now,
        ).lastInsertRowid,
      );
    }
    insItem.run(
      orderId,
      ++line,
      r.jan ?? null,
      r.itemName!,
      r.brand ?? null,
      r.spec ?? null,
      Number(r.quantity),
      Number(r.unitPrice),
      r.currency ?? 'JPY',
      r.origin ?? null,
    );
  }
  s.exec('COMMIT');
  const t2 = performance.now();
  const cpu = process.cpuUsage(cpu0);
  s.close();
  fs.rmSync(floorDir, { recursive: true, force: true });
  return {
    seconds: (t2 - t0) / 1000,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    readSeconds: (t1 - t0) / 1000,
    insertSeconds: (t2 - t1) / 1000,
    orders,
    rows: sheet.length,
  };
}

const generateInChild = (rows: number, file: string, prefix: string) =>
  execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--generate', String(rows), file, prefix], {
    stdio: 'inherit',
  });
const bareInChild = (kind: 'exceljs' | 'reader', file: string) =>
  JSON.parse(
    execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--bare', kind, file], { encoding: 'utf8' }),
  ) as { seconds: number; rows: number };
const floorInChild = (file: string) =>
  JSON.parse(
    execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--floor', file], { encoding: 'utf8' }),
  ) as {
    seconds: number;
    cpuSeconds: number;
    readSeconds: number;
    insertSeconds: number;
    orders: number;
    rows: number;
  };

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const p99 = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * 0.99))] ?? 0;
};

/**
 * The real app on a new database (`env`: where it is and where files go; the embedded default
 * unless told), migrated and seeded with the demo and 2,000 orders, its two users logged in.
 */
async function startApp(env: Record<string, string>) {
  const config = testConfig({ ...env, UPLOAD_LIMIT_BYTES: String(100 * 1024 * 1024) });
  const db = createDatabase(config.database);
  await migrateToLatest(db);
  await seedDemo(db, { orders: 2000 });
  const app = await buildApp({ config, db });
  await app.ready();
  await app.jobs.start();
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
  // Progress is polled every 50 ms (the console polls every second): finer, the polls themselves
  // took 0.15 s of the main thread from a 100,000-order commit.
  const settle = async (id: number) => {
    for (;;) {
      const d = (await post('order/batch/progress', { id }, demo)).json().data;
      if (!['parsing', 'committing'].includes(d.status)) return d;
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  /**
   * One import of `file`, upload to done. `load`: another user lists their batches every 50 ms
   * throughout, and logs in then creates an order every 50 ms during the commit (issue 10 #12);
   * their latencies are returned. Without it the import runs alone, as the bare parses do.
   */
  async function importOnce(file: string, rows: number, load: boolean) {
    // Another user lists their batches every 50 ms during the import.
    const latencies: number[] = [];
    let listing = load;
    const lister = (async () => {
      while (listing) {
        const t = performance.now();
        await post('order/batches', { offset: 0, limit: 20 }, other);
        latencies.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();

    // The longest the event loop was held during the import: what any other call could wait.
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
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
    const cpuPreview = process.cpuUsage(cpu0);
    if (preview.invalidRows) throw new Error(JSON.stringify(preview.errors.slice(0, 3)));
    // Another user writes during the commit: a login, then a single create, every 50 ms.
    const writes = { login: [] as number[], create: [] as number[] };
    let writing = load;
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        let t = performance.now();
        const l = await app.inject({
          method: 'POST',
          url: '/api/login',
          payload: { name: 'demo2', password: DEMO_PASSWORD },
        });
        writes.login.push(performance.now() - t);
        if (l.statusCode !== 200) throw new Error(l.body);
        t = performance.now();
        const c = await post('order/createImport', singleOrder(`W${rows}-${i}`), other);
        writes.create.push(performance.now() - t);
        if (c.statusCode !== 200) throw new Error(c.body);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    await post(
      'order/batch/confirm',
      { id: preview.id, confirmations: preview.confirmations.map((c: { kind: string }) => c.kind) },
      demo,
    );
    const done = await settle(preview.id);
    const e2e = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    loop.disable();
    const commitSeconds = (performance.now() - tPreview) / 1000;
    writing = false;
    await writer;
    listing = false;
    await lister;
    if (done.status !== 'done') throw new Error(done.errorMessage);
    return {
      e2e,
      previewSeconds: (tPreview - t0) / 1000,
      commitSeconds,
      // CPU seconds of every thread of this process (main, parse worker, checkpointer, and the
      // bench's own progress polls), user and system.
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      previewCpuSeconds: (cpuPreview.user + cpuPreview.system) / 1e6,
      orders: done.orderCount,
      latencies,
      writes,
      loop,
    };
  }
  return {
    importOnce,
    async close() {
      await app.close();
      await db.destroy();
    },
  };
}

async function main() {
  if (pgRun) return compareBackends();
  const bench = await startApp({
    DATABASE_URL: path.join(dir, 'bench.sqlite'),
    DATA_DIR: dir,
    WEB_DIST: path.join(dir, 'none'),
  });
  const { importOnce } = bench;
  console.log(`node ${process.version}, ${os.cpus().length} CPUs, SQLite (node:sqlite, WAL)`);
  // The machine's load: figures from a loaded machine compare only as ratios within one run.
  console.log(`load average at start: ${loadAverage()}`);
  for (const rows of SIZES) {
    const file = path.join(dir, `orders-${rows}.xlsx`);
    const loadedFile = path.join(dir, `orders-${rows}-loaded.xlsx`);
    const g = performance.now();
    generateInChild(rows, file, 'BN');
    generateInChild(rows, loadedFile, 'LD');
    const size = fs.statSync(file).size;
    console.log(
      `\n${rows} rows: generated two workbooks of ${(size / 1048576).toFixed(1)} MB in ${((performance.now() - g) / 1000).toFixed(1)} s`,
    );
    const bare = bareInChild('exceljs', file);
    const reader = bareInChild('reader', file);
    const floor = floorInChild(file);
    if (floor.orders !== rows) throw new Error(`floor wrote ${floor.orders} orders, not ${rows}`);
    // The ratios compare like with like: the import alone against the bare parses alone.
    const session = profileDir ? new inspector.Session() : undefined;
    if (session) {
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 500 });
      await session.post('Profiler.start');
    }
    const alone = await importOnce(file, rows, false);
    if (session) {
      const { profile } = await session.post('Profiler.stop');
      fs.writeFileSync(path.join(profileDir!, `import-${rows}-main.cpuprofile`), JSON.stringify(profile));
      session.disconnect();
    }
    const peakRss = process.resourceUsage().maxRSS / 1024;
    console.log(`  bare ExcelJS streaming parse: ${bare.seconds.toFixed(2)} s (${bare.rows} rows incl. header)`);
    console.log(
      `  end-to-end import, alone: ${alone.e2e.toFixed(2)} s (preview ready after ${alone.previewSeconds.toFixed(2)} s, ${alone.orders} orders committed)`,
    );
    console.log(
      `  bare own reader (lib/xlsx-rows.ts): ${reader.seconds.toFixed(2)} s (${reader.rows} rows incl. header)`,
    );
    console.log(`  ratio end-to-end / bare ExcelJS parse: ${(alone.e2e / bare.seconds).toFixed(2)} (goal <= 1.3)`);
    console.log(
      `  ratio end-to-end / bare own reader: ${(alone.e2e / reader.seconds).toFixed(2)} (goal <= 3 at 100,000 rows)`,
    );
    console.log(
      `  floor (own reader ${floor.readSeconds.toFixed(2)} s + bare node:sqlite insert of the ${floor.orders} orders and ${floor.rows} items in one transaction ${floor.insertSeconds.toFixed(2)} s): ${floor.seconds.toFixed(2)} s`,
    );
    console.log(`  ratio end-to-end / floor: ${(alone.e2e / floor.seconds).toFixed(2)} (goal <= 1.5 at 100,000 rows)`);
    // On a loaded machine wall times stretch with the other processes' share of the cores; CPU
    // times much less: the work compared, whatever the schedule.
    console.log(
      `    CPU time: import ${alone.cpuSeconds.toFixed(2)} s (all threads) / floor ${floor.cpuSeconds.toFixed(2)} s = ${(alone.cpuSeconds / floor.cpuSeconds).toFixed(2)}`,
    );
    // What that ratio measures: the reader alone against the whole import, which also validates
    // every order and writes it with its items and indexes into SQLite. Split, the two halves:
    console.log(
      `    of which the preview (upload, real-size check, parse and validation in the worker, stored): ${alone.previewSeconds.toFixed(2)} s = ${(alone.previewSeconds / reader.seconds).toFixed(2)} × the bare reader; the commit: ${alone.commitSeconds.toFixed(2)} s = ${(alone.commitSeconds / reader.seconds).toFixed(2)} ×`,
    );
    // The work itself, whatever its schedule: no import on this machine's cores can end sooner
    // than its CPU time spread evenly over all of them.
    const cores = os.availableParallelism();
    console.log(
      `    CPU time of the import, all threads: ${alone.cpuSeconds.toFixed(2)} s (preview ${alone.previewCpuSeconds.toFixed(2)} s, commit ${(alone.cpuSeconds - alone.previewCpuSeconds).toFixed(2)} s) = ${(alone.cpuSeconds / reader.seconds).toFixed(2)} × the bare reader; spread over ${cores} cores, no faster than ${(alone.cpuSeconds / cores / reader.seconds).toFixed(2)} ×`,
    );
    console.log(`  load average after the import alone: ${loadAverage()}`);
    console.log(
      `  peak RSS after the import alone (baselines and generator run in children): ${peakRss.toFixed(0)} MiB (goal <= 1024 MiB)`,
    );
    if (aloneOnly) continue;
    // The same import again (other order numbers) while another user reads and writes.
    const loaded = await importOnce(loadedFile, rows, true);
    console.log(
      `  end-to-end import while another user lists and writes: ${loaded.e2e.toFixed(2)} s (preview ${loaded.previewSeconds.toFixed(2)} s, commit ${loaded.commitSeconds.toFixed(2)} s)`,
    );
    const { latencies, writes, loop } = loaded;
    console.log(
      `  other user's order/batches during import: n=${latencies.length}, p50 ${p50(latencies).toFixed(1)} ms, p99 ${p99(latencies).toFixed(1)} ms (goal < 100 ms)`,
    );
    console.log(
      `  event loop during the import: longest stall ${(loop.max / 1e6).toFixed(0)} ms, p99 ${(loop.percentile(99) / 1e6).toFixed(0)} ms`,
    );
    for (const [what, xs] of Object.entries(writes)) {
      console.log(
        `  other user's ${what} during the ${loaded.commitSeconds.toFixed(1)} s commit: n=${xs.length}, p50 ${p50(xs).toFixed(1)} ms, p99 ${p99(xs).toFixed(1)} ms, max ${Math.max(0, ...xs).toFixed(1)} ms (goal p99 < 250 ms)`,
      );
    }
  }
  await bench.close();
  if (!aloneOnly) await bombs();
  fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * `--pg` (issue 27): the same workbook imported alone on each backend (bench/backends.ts), each
 * on a new database with the same seed, one after another in this process; the times and their
 * ratios to the embedded default. A small import first warms the process, so the first backend
 * measured does not pay alone for compiling what the others reuse.
 */
async function compareBackends() {
  console.log(
    `node ${process.version}, ${os.cpus().length} CPUs; the import alone on SQLite and on PostgreSQL at ${new URL(pgServerUrl()).host}`,
  );
  console.log(`load average at start: ${loadAverage()}`);
  const warmFile = path.join(dir, 'orders-warm-up.xlsx');
  generateInChild(1000, warmFile, 'WU');
  await importOn(EMBEDDED, warmFile, 1000);
  for (const rows of SIZES) {
    const file = path.join(dir, `orders-${rows}.xlsx`);
    generateInChild(rows, file, 'BN');
    console.log(`\n${rows} rows (a workbook of ${(fs.statSync(file).size / 1048576).toFixed(1)} MB), imported alone:`);
    const runs: Partial<Record<Backend['key'], Awaited<ReturnType<typeof importOn>>>> = {};
    for (const backend of ALL_BACKENDS) {
      const r = (runs[backend.key] = await importOn(backend, file, rows));
      if (r.orders !== rows) throw new Error(`${backend.label}: ${r.orders} orders committed, not ${rows}`);
      console.log(
        `  ${backend.label}: ${r.e2e.toFixed(2)} s (preview ${r.previewSeconds.toFixed(2)} s, commit ${r.commitSeconds.toFixed(2)} s); CPU of this process ${r.cpuSeconds.toFixed(2)} s; load average ${loadAverage()}`,
      );
    }
    const of = (pick: (r: Awaited<ReturnType<typeof importOn>>) => number) =>
      Object.fromEntries(Object.entries(runs).map(([k, r]) => [k, pick(r)]));
    console.log(
      ratioLine(
        'end-to-end',
        of((r) => r.e2e),
      ),
    );
    console.log(
      ratioLine(
        'preview (upload, parse, validation, stored)',
        of((r) => r.previewSeconds),
      ),
    );
    console.log(
      ratioLine(
        'commit',
        of((r) => r.commitSeconds),
      ),
    );
    // PostgreSQL's own CPU is in its processes, not in this one: this ratio is the app's share.
    console.log(
      ratioLine(
        "CPU time of the app's process",
        of((r) => r.cpuSeconds),
      ),
    );
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

/** One import alone of `file` on a new database of `backend`, dropped after. */
async function importOn(backend: Backend, file: string, rows: number) {
  const opened = await openBackend(backend, dir);
  try {
    const bench = await startApp(opened.env);
    try {
      return await bench.importOnce(file, rows, false);
    } finally {
      await bench.close();
    }
  } finally {
    await opened.close();
  }
}

/** A single create's body (another user's write during the commit). */
function singleOrder(orderNo: string) {
  const first17 = '11010519800101123';
  return {
    channel: 'JP',
    orderNo,
    recipient: {
      name: '王小明',
      idCard: first17 + idCardCheckChar(first17),
      phone: '13812345678',
      province: '浙江省',
      city: '杭州市',
      district: '西湖区',
      address: '文三路100号',
    },
    sender: { name: 'DEMO Trading', address: 'Tokyo', phone: '03-1234-5678' },
    items: [{ jan: '4901234567894', name: '明治 奶粉', quantity: 2, unitPrice: '1500' }],
  };
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

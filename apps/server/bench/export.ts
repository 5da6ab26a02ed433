/**
 * Export benchmark (issue 10, finding 4): seeds 100,000 orders of one customer, then that
 * customer downloads them all (`order/downloadOrderExcel`) through the real HTTP server
 * while a prober in another process calls `/api/health` one call after another. Prints
 * the health p99 with no export running (the bare baseline, same process, same prober),
 * the p99 and the longest answer during the export, their ratios, and the server's RSS
 * growth during the export.
 * `--pg` (issue 27): the same on the embedded default and on PostgreSQL with its queue, with files
 * in the local folder and in PostgreSQL (bench/backends.ts), one after another in one run, and
 * what the queue and the shared store cost against the embedded default (the export is a render
 * job on the queue: its input and its file go through the store).
 *   npm run bench:export -w apps/server
 *   npm run bench:export -w apps/server -- --pg          (PostgreSQL: BENCH_DATABASE_URL, TEST_DATABASE_URL or local)
 *   BENCH_ORDERS=20000 …                                  (smaller runs)
 *   BENCH_DATABASE_URL=postgres://… …                     (PostgreSQL only, files in PostgreSQL)
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import type { Config } from '../src/config.ts';
import { buildApp } from '../src/app.ts';
import { testConfig } from '../src/config.ts';
import { createDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { seedDemo } from '../src/seed/demo.ts';
import { listening } from '../test/harness.ts';
import { ALL_BACKENDS, type Backend, EMBEDDED, openBackend, PG_QUEUE_STORE, ratioLine } from './backends.ts';

const N = Number(process.env.BENCH_ORDERS ?? 100_000);
const BASELINE_SECONDS = Number(process.env.BENCH_BASELINE_SECONDS ?? 5);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-export-'));
const log = (s: string) => process.stdout.write(`${s}\n`);

// `--pg`: every backend; BENCH_DATABASE_URL alone: PostgreSQL as several instances run it; else the embedded default.
const BACKENDS = process.argv.includes('--pg')
  ? ALL_BACKENDS
  : process.env.BENCH_DATABASE_URL
    ? [PG_QUEUE_STORE]
    : [EMBEDDED];
const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const mib = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MiB`;
const COLS =
  'customer_id, channel_code, order_no, waybill_no, system_no, status, intercepted, released, print_count, print_flag, recipient_name, recipient_id_card, recipient_phone, recipient_province, recipient_city, recipient_district, recipient_address, currency, total_amount, created_at, updated_at';

/** `n` orders of the demo customer, in one transaction: multi-row inserts (SQLite) or generate_series (PostgreSQL). */
async function seedOrders(database: Config['database'], demoId: number, n: number) {
  const now = Date.now();
  if (database.dialect === 'sqlite') {
    const raw = new DatabaseSync(database.file);
    raw.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF;');
    const ROWS = 500;
    const one = `(${Array(21).fill('?').join(',')})`;
    const stmt = raw.prepare(`insert into orders (${COLS}) values ${Array(ROWS).fill(one).join(',')}`);
    raw.exec('BEGIN');
    let params: (string | number)[] = [];
    for (let i = 0; i < n; i++) {
      const at = new Date(now - Math.floor((i / n) * 90 * 86_400_000)).toISOString();
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
    const c = new pg.Client({ connectionString: database.url });
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
      [demoId, n],
    );
    await c.query('analyze orders');
    await c.end();
  }
}

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

/** A prober of `url` in its own process: `start`, then `stop` answers the latencies since. */
function startProber(url: string) {
  const prober = spawn(process.execPath, ['-e', PROBER, url], { stdio: ['pipe', 'pipe', 'inherit'] });
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
  return {
    start: () => prober.stdin.write('start\n'),
    stop: () =>
      new Promise<number[]>((resolve) => {
        pending = resolve;
        prober.stdin.write('stop\n');
      }),
    exit: () => prober.stdin.write('exit\n'),
  };
}

/**
 * On a new database of `backend`: `n` orders seeded, then the health baseline and the export of
 * them all with health probed throughout; printed unless `quiet`, and returned.
 */
async function measure(backend: Backend, n: number, quiet = false) {
  const print = quiet ? () => undefined : log;
  const opened = await openBackend(backend, dir);
  const config = testConfig({ ...opened.env, LOG_LEVEL: 'silent' });
  const seedDb = createDatabase(config.database);
  await migrateToLatest(seedDb);
  await seedDemo(seedDb, { orders: 0 });
  const demoId = (
    await seedDb.selectFrom('customers').select('id').where('code', '=', 'DEMO').executeTakeFirstOrThrow()
  ).id;
  await seedDb.destroy();
  const t0 = performance.now();
  await seedOrders(config.database, demoId, n);
  print(`\n${backend.label}: seeded ${n.toLocaleString()} orders in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const db = createDatabase(config.database);
  const app = await buildApp({ config, db });
  const http = await listening(app);
  await app.jobs.start();
  const token = await http.login('demo');
  const probe = startProber(`${http.base}/health`);
  try {
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
    const exportSeconds = (performance.now() - s) / 1000;
    const during = await probe.stop();
    clearInterval(sampler);
    if (res.status !== 200) throw new Error(`${backend.label}: the export answered HTTP ${res.status}`);

    const idleP99 = pct(idle, 99);
    const duringP99 = pct(during, 99);
    const longest = Math.max(...during);
    print(
      `export of ${n.toLocaleString()} orders: HTTP ${res.status}, ${(bytes / 1024 / 1024).toFixed(1)} MiB in ${exportSeconds.toFixed(1)} s; load average ${loadAverage()}`,
    );
    print(
      `/api/health, no export (bare baseline): ${idle.length} calls, p50 ${pct(idle, 50).toFixed(1)} ms, p99 ${idleP99.toFixed(1)} ms, max ${Math.max(...idle).toFixed(1)} ms`,
    );
    print(
      `/api/health during the export:          ${during.length} calls, p50 ${pct(during, 50).toFixed(1)} ms, p99 ${duringP99.toFixed(1)} ms, max ${longest.toFixed(1)} ms`,
    );
    print(
      `ratios to the baseline: p99 ${(duringP99 / idleP99).toFixed(1)}×, longest answer ${(longest / idleP99).toFixed(1)}× the idle p99`,
    );
    print(
      `server RSS: ${mib(rssBefore)} before, peak ${mib(rssPeak)} during the export (+${mib(rssPeak - rssBefore)})`,
    );
    return { exportSeconds, duringP99, longest, rssGrowth: rssPeak - rssBefore };
  } finally {
    probe.exit();
    await app.close();
    await db.destroy();
    await opened.close();
  }
}

log(`${os.cpus().length} CPUs, Node ${process.version}; load average at start: ${loadAverage()}`);
// Several backends in one process: a small export first warms it, so the first backend measured
// does not pay alone for compiling what the others reuse.
if (BACKENDS.length > 1) await measure(EMBEDDED, 2000, true);
const runs: Partial<Record<Backend['key'], Awaited<ReturnType<typeof measure>>>> = {};
for (const backend of BACKENDS) runs[backend.key] = await measure(backend, N);
if (BACKENDS.length > 1) {
  const of = (pick: (r: Awaited<ReturnType<typeof measure>>) => number) =>
    Object.fromEntries(Object.entries(runs).map(([k, r]) => [k, pick(r)]));
  log(`\nagainst the embedded default (load average ${loadAverage()}):`);
  log(
    ratioLine(
      `export of ${N.toLocaleString()} orders, seconds`,
      of((r) => r.exportSeconds),
    ),
  );
  log(
    ratioLine(
      '/api/health p99 during the export',
      of((r) => r.duringP99),
    ),
  );
  log(
    ratioLine(
      'server RSS growth during the export',
      of((r) => r.rssGrowth),
    ),
  );
}
fs.rmSync(dir, { recursive: true, force: true });

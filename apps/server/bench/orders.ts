/**
 * Order list benchmark (issue 5): seeds 1,000,000 orders, then 50 concurrent clients on
 * `order/orderList` with typical filters through the real HTTP server on loopback, beside a
 * bare route returning the same bytes in the same run. Reports p99 and throughput.
 *   npm run bench:orders -w apps/server                 (SQLite, 1,000,000 orders)
 *   BENCH_DATABASE_URL=postgres://… npm run bench:orders -w apps/server
 *   BENCH_ORDERS=200000 BENCH_SECONDS=10 …              (smaller runs)
 *   BENCH_SQLITE_FILE=/tmp/orders.sqlite …                (keep the seeded SQLite file and reuse it next time)
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
import { DEMO_PASSWORD, seedDemo } from '../src/seed/demo.ts';

const N = Number(process.env.BENCH_ORDERS ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const pgUrl = process.env.BENCH_DATABASE_URL;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-orders-'));
const node = process.execPath;
const log = (s: string) => process.stdout.write(`${s}\n`);

const keptFile = pgUrl ? undefined : process.env.BENCH_SQLITE_FILE;
const reuse = keptFile !== undefined && fs.existsSync(keptFile);
let databaseUrl = keptFile ?? path.join(dir, 'bench.sqlite');
let dropPg: (() => Promise<void>) | undefined;
if (pgUrl) {
  const name = `bench_${Date.now()}`;
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

const config = testConfig({ DATABASE_URL: databaseUrl, DATA_DIR: dir, WEB_DIST: path.join(dir, 'no-web') });
const db = createDatabase(config.database);
await migrateToLatest(db);
if (!reuse) await seedDemo(db, { orders: 0 });
const customers = await db.selectFrom('customers').select(['id', 'code']).orderBy('id').execute();
const demoId = customers.find((c) => c.code === 'DEMO')!.id;
const demo2Id = customers.find((c) => c.code === 'DEMO2')!.id;
const now = Date.now();

// Bulk seed: one transaction of multi-row inserts (SQLite) or generate_series (PostgreSQL).
// Orders only: the list reads no items or events. 5/6 for DEMO, spread over 180 days.
const t0 = performance.now();
const STATUSES = [
  'created',
  'created',
  'created',
  'printed',
  'printed',
  'received',
  'shipped',
  'released',
  'cancelled',
];
const CHANNELS = ['JP', 'JP', 'JP', 'EMS', 'USA', 'SG', 'AU', 'UK', 'PH', 'TH'];
if (reuse) {
  await db.destroy();
} else if (!pgUrl) {
  await db.destroy();
  const raw = new DatabaseSync(databaseUrl);
  raw.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF;');
  const cols =
    'customer_id, channel_code, order_no, waybill_no, system_no, user_ref_no, status, intercepted, released, print_count, print_flag, recipient_name, recipient_id_card, recipient_phone, recipient_province, recipient_city, recipient_district, recipient_address, currency, total_amount, created_at, updated_at';
  const ROWS = 500;
  const stmt = raw.prepare(
    `insert into orders (${cols}) values ${Array(ROWS)
      .fill(`(${Array(22).fill('?').join(',')})`)
      .join(',')}`,
  );
  raw.exec('BEGIN');
  let params: (string | number)[] = [];
  for (let i = 0; i < N; i++) {
    const customer = i % 6 === 5 ? demo2Id : demoId;
    const status = STATUSES[i % STATUSES.length]!;
    const created = new Date(now - Math.floor((((i * 7919) % N) / N) * 180 * 86_400_000)).toISOString();
    params.push(
      customer,
      CHANNELS[i % CHANNELS.length]!,
      `BN${String(i).padStart(9, '0')}`,
      `WB${String(i).padStart(11, '0')}`,
      `S${String(i).padStart(12, '0')}`,
      `REF-${i}`,
      status,
      i % 41 === 3 ? 1 : 0,
      status === 'released' ? 1 : 0,
      status === 'created' ? 0 : 1,
      status === 'created' ? 0 : 1,
      `王${'伟芳娜敏静丽强磊'[i % 8]}`,
      '11010519900101123X',
      `138${String(i % 1e8).padStart(8, '0')}`,
      '浙江省',
      '杭州市',
      '西湖区',
      `文三路${i % 500}号`,
      'JPY',
      1000 + (i % 9000),
      created,
      created,
    );
    if (params.length === ROWS * 22) {
      stmt.run(...params);
      params = [];
    }
  }
  if (params.length)
    raw
      .prepare(
        `insert into orders (${cols}) values ${Array(params.length / 22)
          .fill(`(${Array(22).fill('?').join(',')})`)
          .join(',')}`,
      )
      .run(...params);
  raw.exec('COMMIT');
  raw.exec('ANALYZE');
  raw.close();
} else {
  await db.destroy();
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  await c.query(
    `insert into orders (customer_id, channel_code, order_no, waybill_no, system_no, user_ref_no, status, intercepted, released, print_count, print_flag,
       recipient_name, recipient_id_card, recipient_phone, recipient_province, recipient_city, recipient_district, recipient_address, currency, total_amount, created_at, updated_at)
     select case when i % 6 = 5 then $2::int else $1::int end,
       (array['JP','JP','JP','EMS','USA','SG','AU','UK','PH','TH'])[i % 10 + 1],
       'BN' || lpad(i::text, 9, '0'), 'WB' || lpad(i::text, 11, '0'), 'S' || lpad(i::text, 12, '0'), 'REF-' || i,
       (array['created','created','created','printed','printed','received','shipped','released','cancelled'])[i % 9 + 1],
       case when i % 41 = 3 then 1 else 0 end, case when i % 9 = 7 then 1 else 0 end,
       case when i % 9 < 3 then 0 else 1 end, case when i % 9 < 3 then 0 else 1 end,
       '王伟', '11010519900101123X', '138' || lpad((i % 100000000)::text, 8, '0'), '浙江省', '杭州市', '西湖区', '文三路' || (i % 500) || '号',
       'JPY', 1000 + i % 9000, now() - ((i::bigint * 7919) % $3)::float8 / $3 * interval '180 days', now()
     from generate_series(0, $3 - 1) as i`,
    [demoId, demo2Id, N],
  );
  await c.query('analyze orders');
  await c.end();
}
log(
  reuse
    ? `reused ${databaseUrl}`
    : `seeded ${N.toLocaleString()} orders on ${pgUrl ? 'PostgreSQL' : 'SQLite'} in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);

const db2 = createDatabase(config.database);
const app = await buildApp({ config, db: db2 });
// The same server without the read caches, on the same database: the list's cold path.
const db3 = createDatabase(config.database);
const coldApp = await buildApp({ config: { ...config, READ_CACHE_ENTRIES: 0 }, db: db3 });
const coldAddress = await coldApp.listen({ port: 0, host: '127.0.0.1' });
let bare = Buffer.from('{}');
// The bare route: same bytes, same transport, no auth, no query.
app.post('/api/bench/bare', (_req, reply) => reply.type('application/json; charset=utf-8').send(bare));
const address = await app.listen({ port: 0, host: '127.0.0.1' });
const base = `${address}/api`;

const login = await fetch(`${base}/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'demo', password: DEMO_PASSWORD }),
});
const token = ((await login.json()) as any).data.access_token as string;
const day = (d: number) => new Date(now + 8 * 3_600_000 - d * 86_400_000).toISOString().slice(0, 10);
const bodies = [
  { offset: 0, limit: 20 },
  { offset: 20, limit: 20 },
  { offset: 0, limit: 20, status: 'created' },
  { offset: 0, limit: 20, status: 'shipped' },
  { offset: 0, limit: 20, channel: 'EMS' },
  { offset: 0, limit: 20, dateFrom: day(7), dateTo: day(0) },
  { offset: 0, limit: 20, status: 'printed', dateFrom: day(30), dateTo: day(0) },
  { offset: 0, limit: 20, noType: 'waybillNo', numbers: 'WB00000123456\nWB00000654321' },
  { offset: 0, limit: 20, recipientPhone: '13800012345' },
];
const first = await fetch(`${base}/order/orderList`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
  body: JSON.stringify(bodies[0]),
});
bare = Buffer.from(await first.arrayBuffer());
const firstJson = JSON.parse(bare.toString()) as any;
log(
  `list answer: ${bare.length} bytes, total ${firstJson.data.total}${firstJson.data.exact ? '' : '+'}, ${firstJson.data.list.length} rows`,
);
// One timed pass over each filter alone, for the record.
for (const b of bodies) {
  const s = performance.now();
  const r = await fetch(`${base}/order/orderList`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(b),
  });
  const j = (await r.json()) as any;
  log(
    `  ${JSON.stringify(b).padEnd(90)} ${(performance.now() - s).toFixed(1).padStart(6)} ms  total ${j.data.total}${j.data.exact ? '' : '+'}`,
  );
}

const bodiesFile = path.join(dir, 'bodies.json');
fs.writeFileSync(bodiesFile, JSON.stringify(bodies));
const run = async (url: string) => {
  // The load generator runs as its own process, asynchronously, so the server keeps its event loop.
  return new Promise<any>((resolve, reject) => {
    const p = spawn(node, [path.join(import.meta.dirname, 'orders-load.ts'), url, token, String(SECONDS), bodiesFile]);
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', () => undefined);
    p.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`load generator exited ${code}`)),
    );
  });
};
// The server's own CPU per request (its main thread), beside the load generator's figures.
const measure = async (label: string, url: string) => {
  const c0 = process.threadCpuUsage();
  const r = await run(url);
  const c = process.threadCpuUsage(c0);
  log(`server CPU per ${label} request: ${((c.user + c.system) / r.requests).toFixed(0)} µs`);
  return r;
};
const bareResult = await measure('bare', `${base}/bench/bare`);
const listResult = await measure('list', `${base}/order/orderList`);
const coldResult = await measure('uncached list', `${coldAddress}/api/order/orderList`);
const fmt = (name: string, r: any) =>
  `${name.padEnd(16)} ${String(Math.round(r.rps)).padStart(7)} req/s   p50 ${String(r.p50).padStart(4)} ms   p99 ${String(r.p99).padStart(4)} ms   max ${r.max} ms   non-2xx ${r.non2xx}   errors ${r.errors}`;
log(
  `\n50 connections, ${SECONDS} s each, ${os.cpus().length} CPUs, Node ${process.version}, ${pgUrl ? 'PostgreSQL' : 'SQLite'}`,
);
log(fmt('bare route', bareResult));
log(fmt('order/orderList', listResult));
log(fmt('  without cache', coldResult));
log(
  `throughput ratio: ${((listResult.rps / bareResult.rps) * 100).toFixed(0)} % of bare (goal ≥ 50 %); p99 ${listResult.p99} ms (goal < 25 ms)\n` +
    `without the read caches: ${((coldResult.rps / bareResult.rps) * 100).toFixed(0)} % of bare; p99 ${coldResult.p99} ms`,
);

await app.close();
await coldApp.close();
await db2.destroy();
await db3.destroy();
await dropPg?.();
fs.rmSync(dir, { recursive: true, force: true });

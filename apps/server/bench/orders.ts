/**
 * Order list benchmark (issue 5; its headline reworked for issue 10, finding 21): seeds
 * 1,000,000 orders for six customers, then 50 concurrent clients on `order/orderList` through
 * the real HTTP server on loopback. The headline is a mix of many users (six customers, the
 * agent, the operator) and generated filters (statuses, channels, dates, pages, sorts,
 * keywords; bench/orders-mix.ts) while a background writer scans 20 parcels a second (each a
 * commit, which also invalidates SQLite's read caches), against a bare route answering as
 * many bytes as the mix's average answer. Beside it: the same mix with the read caches off,
 * i.e. what the cache gives, and how often the list cache answered; and the database floor
 * (bench/orders-floor.ts: the mix's SQL straight to the database, issue 29), which the headline
 * compares the server with. Reports p99, throughput and the machine's load average.
 *   npm run bench:orders -w apps/server                 (SQLite, 1,000,000 orders)
 *   BENCH_DATABASE_URL=postgres://… npm run bench:orders -w apps/server
 *   BENCH_ORDERS=200000 BENCH_SECONDS=10 …              (smaller runs)
 *   BENCH_SQLITE_FILE=/tmp/orders.sqlite …                (keep the seeded SQLite file and reuse it next time)
 */
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
import { responseCacheStats } from '../src/http/response-cache.ts';
import { listening } from '../test/harness.ts';
import { benchDatabase, EXTRA_CUSTOMERS, formatLoad as fmt, measureLoad, runLoad, seedBenchCustomers } from './load.ts';
import { measureFloor, mixScopes } from './orders-floor.ts';
import { mix, type MixConfig } from './orders-mix.ts';

const N = Number(process.env.BENCH_ORDERS ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const pgUrl = process.env.BENCH_DATABASE_URL;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-orders-'));
const log = (s: string) => process.stdout.write(`${s}\n`);

const keptFile = pgUrl ? undefined : process.env.BENCH_SQLITE_FILE;
const reuse = keptFile !== undefined && fs.existsSync(keptFile);
const { url: databaseUrl, drop: dropPg } = await benchDatabase(pgUrl, keptFile ?? path.join(dir, 'bench.sqlite'));

const config = testConfig({
  DATABASE_URL: databaseUrl,
  DATA_DIR: dir,
  WEB_DIST: path.join(dir, 'no-web'),
  // BENCH_READER_THREADS=0: the list's reads on the event loop, as before the reader threads.
  READER_THREADS: process.env.BENCH_READER_THREADS ?? '2',
});
const db = createDatabase(config.database);
await migrateToLatest(db);
const EXTRA = EXTRA_CUSTOMERS;
if (!reuse) await seedBenchCustomers(db);
const customers = await db.selectFrom('customers').select(['id', 'code']).orderBy('id').execute();
const idOf = (code: string) => customers.find((c) => c.code === code)!.id;
// Half the orders are DEMO's, a sixth DEMO2's, a twelfth each of the four others.
const OWNER = [...Array(6).fill('DEMO'), 'DEMO2', 'DEMO2', ...EXTRA].map(idOf) as number[];
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
    const customer = OWNER[i % OWNER.length]!;
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
     select ($1::int[])[i % 12 + 1],
       (array['JP','JP','JP','EMS','USA','SG','AU','UK','PH','TH'])[i % 10 + 1],
       'BN' || lpad(i::text, 9, '0'), 'WB' || lpad(i::text, 11, '0'), 'S' || lpad(i::text, 12, '0'), 'REF-' || i,
       (array['created','created','created','printed','printed','received','shipped','released','cancelled'])[i % 9 + 1],
       case when i % 41 = 3 then 1 else 0 end, case when i % 9 = 7 then 1 else 0 end,
       case when i % 9 < 3 then 0 else 1 end, case when i % 9 < 3 then 0 else 1 end,
       '王伟', '11010519900101123X', '138' || lpad((i % 100000000)::text, 8, '0'), '浙江省', '杭州市', '西湖区', '文三路' || (i % 500) || '号',
       'JPY', 1000 + i % 9000, now() - ((i::bigint * 7919) % $2)::float8 / $2 * interval '180 days', now()
     from generate_series(0, $2 - 1) as i`,
    [OWNER, N],
  );
  // Vacuumed as autovacuum would have: without the visibility map an index-only scan (every
  // count) reads the table's pages too, which no long-lived database does.
  await c.query('vacuum analyze orders');
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
const cold = await listening(coldApp);
let bare = Buffer.from('{}');
// The bare route: same bytes, same transport, no auth, no query.
app.post('/api/bench/bare', (_req, reply) => reply.type('application/json; charset=utf-8').send(bare));
const http = await listening(app);
const base = http.base;
const users: [string, string][] = [
  ['demo', 'customer'],
  ['demo2', 'customer'],
  ...EXTRA.map((c): [string, string] => [c.toLowerCase(), 'customer']),
  ['agent', 'agent'],
  ['operator', 'operator'],
];
const tokens: MixConfig['tokens'] = [];
for (const [name, role] of users) tokens.push({ role, token: await http.login(name) });
const operatorToken = tokens.find((t) => t.role === 'operator')!.token;
const scopeByName = await mixScopes(
  db2,
  users.map(([name]) => name),
);
const scopeOfToken = new Map(tokens.map((t, i) => [t.token, scopeByName.get(users[i]![0])!]));
const mixConfig: MixConfig = { tokens, customerIds: customers.map((c) => c.id), now, orders: N };
const mixFile = path.join(dir, 'mix.json');
fs.writeFileSync(mixFile, JSON.stringify(mixConfig));

// The bare answer's size: the mix's average answer, sampled (on the cache-less server, so the
// sample does not warm the cache measured next).
const sample = mix(mixConfig);
let sampled = 0;
let sampledBytes = 0;
let sampledFailed = 0;
const s0 = performance.now();
for (let i = 0; i < 300; i++) {
  const { token, body } = sample();
  const r = await cold.post('order/orderList', body, token);
  if (r.status !== 200) sampledFailed++;
  sampled++;
  sampledBytes += r.bytes;
}
const averageBytes = Math.round(sampledBytes / sampled);
const filler = '{"code":200,"message":"ok","data":""}';
bare = Buffer.from(filler.replace('""', `"${'x'.repeat(Math.max(0, averageBytes - filler.length))}"`));
log(
  `mix: ${tokens.length} users (6 customers, agent, operator), generated filters; ${sampled} sampled one at a time ` +
    `in ${((performance.now() - s0) / sampled).toFixed(1)} ms each, average answer ${averageBytes} bytes` +
    `${sampledFailed ? `, ${sampledFailed} not 200` : ''}; bare route answers ${bare.length} bytes`,
);

// Parcels the writer scans: created or printed, not intercepted (see the seeding above), a
// fresh slice for each run so every scan is a real commit.
const scannable: string[] = [];
for (let i = 0; i < N && scannable.length < 20 * SECONDS * 4 + 100; i++) {
  if (i % 9 < 5 && i % 41 !== 3) scannable.push(`WB${String(i).padStart(11, '0')}`);
}
let slice = 0;
const writerFile = (scanUrl: string) => {
  const f = path.join(dir, `writer-${slice}.json`);
  const per = 20 * SECONDS + 50;
  const waybills = scannable.slice(slice * per, (slice + 1) * per);
  slice++;
  fs.writeFileSync(f, JSON.stringify({ url: scanUrl, token: operatorToken, perSecond: 20, waybills }));
  return f;
};

// The load generator and the server's CPU per request: bench/load.ts.
const measure = (label: string, url: string, withMix: boolean, writer?: string) =>
  measureLoad(log, label, url, SECONDS, withMix ? mixFile : null, writer);
// Each server's first seconds are slower (code not yet optimised by V8, PostgreSQL's and SQLite's
// caches cold after the seed): measured first, the headline ran 15–20 % under the same server's
// second run. Every server measured below is warmed with the mix first, unmeasured.
const WARM_SECONDS = Number(process.env.BENCH_WARM_SECONDS ?? 5);
const warm = (url: string) => (WARM_SECONDS > 0 ? runLoad(url, WARM_SECONDS, mixFile) : Promise.resolve());
await warm(`${base}/order/orderList`);
await warm(`${cold.base}/order/orderList`);
const bareResult = await measure('bare', `${base}/bench/bare`, false);
const listStats = () => responseCacheStats(db2)['order/orderList']!;
const statsBefore = listStats();
const listResult = await measure('mix', `${base}/order/orderList`, true, writerFile(`${base}/order/orderScan`));
const statsAfter = listStats();
const hits = statsAfter.hits - statsBefore.hits;
const lookups = hits + statsAfter.misses - statsBefore.misses;
const retired = statsAfter.retired - statsBefore.retired;
const coldResult = await measure(
  'uncached mix',
  `${cold.base}/order/orderList`,
  true,
  writerFile(`${cold.base}/order/orderScan`),
);
// PostgreSQL: the same mix and writer with the list's reads on the writer's pool (no read pool,
// as before issue 29): what the read pool gives the writer, in the same run.
let onePoolResult: Awaited<ReturnType<typeof measure>> | undefined;
if (pgUrl) {
  const onePoolConfig = { ...config, database: { ...config.database, readPoolSize: 0 } };
  const db5 = createDatabase(onePoolConfig.database);
  const onePoolApp = await buildApp({ config: onePoolConfig, db: db5 });
  const onePool = await listening(onePoolApp);
  await warm(`${onePool.base}/order/orderList`);
  onePoolResult = await measure(
    'mix, one pool',
    `${onePool.base}/order/orderList`,
    true,
    writerFile(`${onePool.base}/order/orderScan`),
  );
  await onePoolApp.close();
  await db5.destroy();
}
// The floor on a database handle of its own: its own reader threads (SQLite) or pool (PostgreSQL).
const db4 = createDatabase(config.database);
const floorResult = await measureFloor(db4, SECONDS, mixConfig, scopeOfToken);
await db4.destroy();
log(
  `\n50 connections, ${SECONDS} s each, ${os.cpus().length} CPUs, Node ${process.version}, ${pgUrl ? 'PostgreSQL' : 'SQLite'}, ${N.toLocaleString()} orders`,
);
log(fmt('bare route', bareResult));
log(fmt('order/orderList mix', listResult));
log(fmt('  read caches off', coldResult));
if (onePoolResult) log(fmt('  one pool (no read pool)', onePoolResult));
log(fmt('database floor', floorResult));
const ofFloor = (r: { rps: number }) => `${((r.rps / Math.max(1, floorResult.rps)) * 100).toFixed(0)} %`;
log(
  `headline: the mix with a writer at 20 scans/s is ${ofFloor(listResult)} of the database floor (goal ≥ 70 %); ` +
    `${Math.round(listResult.rps)} req/s (goal ≥ 600), p99 ${listResult.p99} ms (goal ≤ 250), ` +
    `the writer's scan p99 ${listResult.writes?.p99} ms (goal ≤ 100); load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} on ${os.cpus().length} CPUs\n` +
    (onePoolResult
      ? `the read pool: the writer's scan p99 ${listResult.writes?.p99} ms with it, ${onePoolResult.writes?.p99} ms on one pool; ` +
        `the mix ${Math.round(listResult.rps)} vs ${Math.round(onePoolResult.rps)} req/s, p99 ${listResult.p99} vs ${onePoolResult.p99} ms\n`
      : '') +
    `what the cache gives: ${ofFloor(coldResult)} of the floor with the read caches off ` +
    `(${(listResult.rps / Math.max(1, coldResult.rps)).toFixed(2)}× with them); p99 ${coldResult.p99} ms; ` +
    `the list cache answered ${((hits / Math.max(1, lookups)) * 100).toFixed(1)} % of ${lookups} lookups, ` +
    `the writer's commits emptied it of ${retired} entries`,
);

await app.close();
await coldApp.close();
await db2.destroy();
await db3.destroy();
await dropPg();
fs.rmSync(dir, { recursive: true, force: true });

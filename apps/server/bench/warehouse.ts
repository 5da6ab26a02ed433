/**
 * Warehouse benchmark (issue 13): 10,000 orders of DEMO (in batches of 500, as imports make
 * them) stored and then shipped by scanner entry — one call per scan, 20 scanners at once, each
 * with its own storage order and shipment, every call sealed (AES) as the console sends it —
 * while DEMO2's user reads its order list (20,000 orders) without pause. Prints p99 per scan
 * for store and ship and the list's p99 during each, with ratios against a bare route measured
 * in the same process (same transport and clients, no auth, no query). Targets: scan p99 <
 * 25 ms, list p99 < 100 ms. The load runs in its own process (bench/warehouse-load.ts).
 *   npm run bench:warehouse -w apps/server                (SQLite)
 *   BENCH_DATABASE_URL=postgres://… npm run bench:warehouse -w apps/server
 *   BENCH_SCANS=2000 …                                     (smaller runs)
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { buildApp } from '../src/app.ts';
import { testConfig } from '../src/config.ts';
import { createDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { listening } from '../test/harness.ts';
import { benchDatabase, seedBenchCustomers } from './load.ts';

const N = Number(process.env.BENCH_SCANS ?? 10_000);
const LIST_ORDERS = Number(process.env.BENCH_LIST_ORDERS ?? 20_000);
const SCANNERS = 20;
const BATCH = 500;
const pgUrl = process.env.BENCH_DATABASE_URL;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-warehouse-'));
const log = (s: string) => process.stdout.write(`${s}\n`);
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
log(`load average at start: ${load()} (${os.cpus().length} CPUs)`);

const { url: databaseUrl, drop } = await benchDatabase(pgUrl, path.join(dir, 'bench.sqlite'));
const config = testConfig({ DATABASE_URL: databaseUrl, DATA_DIR: dir, WEB_DIST: path.join(dir, 'no-web') });
const db = createDatabase(config.database);
await migrateToLatest(db);
await seedBenchCustomers(db);
const customers = await db.selectFrom('customers').select(['id', 'code']).execute();
const users = await db.selectFrom('users').select(['id', 'name', 'customer_id']).execute();
const demo = customers.find((c) => c.code === 'DEMO')!.id;
const demo2 = customers.find((c) => c.code === 'DEMO2')!.id;
const creator = (customerId: number) => users.find((u) => u.customer_id === customerId)!.id;

const t0 = performance.now();
const at = new Date().toISOString();
const waybill = (i: number) => `WH${String(i).padStart(11, '0')}`;
const order = (i: number, customerId: number, batchId: number | null, status: string) => ({
  customer_id: customerId,
  batch_id: batchId,
  channel_code: 'JP',
  order_no: `WO${String(i).padStart(9, '0')}`,
  waybill_no: waybill(i),
  system_no: `WS${String(i).padStart(12, '0')}`,
  status,
  recipient_name: `王${'伟芳娜敏静丽强磊'[i % 8]}`,
  recipient_id_card: '11010519900101123X',
  recipient_phone: `138${String(i % 1e8).padStart(8, '0')}`,
  recipient_province: '浙江省',
  recipient_city: '杭州市',
  recipient_district: '西湖区',
  recipient_address: `文三路${i % 500}号`,
  currency: 'JPY',
  total_amount: 1000 + (i % 9000),
  created_by: creator(customerId),
  created_at: new Date(Date.now() - (i % 90) * 86_400_000).toISOString(),
  updated_at: at,
});
await db.transaction().execute(async (trx) => {
  // DEMO's parcels to scan, in batches as imports make them (a receive refreshes its batch's status).
  for (let b = 0; b * BATCH < N; b++) {
    const { id } = await trx
      .insertInto('batches')
      .values({
        batch_no: `WB${String(b).padStart(6, '0')}`,
        customer_id: demo,
        channel_code: 'JP',
        template_kind: 'import',
        status: 'done',
        progress: 100,
        created_by: creator(demo),
        created_at: at,
        updated_at: at,
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    const rows = [];
    for (let i = b * BATCH; i < Math.min(N, (b + 1) * BATCH); i++) rows.push(order(i, demo, id, 'created'));
    for (let i = 0; i < rows.length; i += 250)
      await trx
        .insertInto('orders')
        .values(rows.slice(i, i + 250))
        .execute();
  }
  // DEMO2's orders, the list read meanwhile.
  const statuses = ['created', 'printed', 'received', 'shipped', 'released'];
  for (let i = 0; i < LIST_ORDERS; i += 250) {
    const rows = [];
    for (let j = i; j < Math.min(LIST_ORDERS, i + 250); j++) rows.push(order(N + j, demo2, null, statuses[j % 5]!));
    await trx.insertInto('orders').values(rows).execute();
  }
});
await sql`analyze`.execute(db);
await db.destroy();
log(
  `seeded ${N.toLocaleString()} orders to scan and ${LIST_ORDERS.toLocaleString()} to list on ${pgUrl ? 'PostgreSQL' : 'SQLite'} in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);

const db2 = createDatabase(config.database);
const app = await buildApp({ config, db: db2 });
// The bare route: same transport and clients, no auth, no query, a small JSON answer.
const bareBody = Buffer.from(JSON.stringify({ code: 200, message: 'ok', data: { outcome: 'received' } }));
app.post('/api/bench/bare', (_req, reply) => reply.type('application/json; charset=utf-8').send(bareBody));
const http = await listening(app);
const cfgFile = path.join(dir, 'load.json');
fs.writeFileSync(
  cfgFile,
  JSON.stringify({
    base: http.base,
    scanToken: await http.login('operator'),
    listToken: await http.login('demo2'),
    waybills: Array.from({ length: N }, (_, i) => waybill(i)),
    scanners: SCANNERS,
    listClients: 2,
    bareCalls: Math.min(N, 10_000),
  }),
);
const c0 = process.threadCpuUsage();
const out = await new Promise<string>((resolve, reject) => {
  const p = spawn(process.execPath, [path.join(import.meta.dirname, 'warehouse-load.ts'), cfgFile]);
  let s = '';
  let e = '';
  p.stdout.on('data', (d) => (s += d));
  p.stderr.on('data', (d) => (e += d));
  p.on('close', (code) => (code === 0 ? resolve(s) : reject(new Error(`load exited ${code}: ${e.slice(-2000)}`))));
});
const cpu = process.threadCpuUsage(c0);
type S = { n: number; p50: number; p99: number; max: number };
const r = JSON.parse(out) as Record<'bare' | 'store' | 'ship' | 'listDuringStore' | 'listDuringShip', S> & {
  outcomes: Record<string, number>;
};

// What the scans did, from the database.
const count = async (kind: string) =>
  Number(
    (
      await db2
        .selectFrom('tracking_events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('kind', '=', kind)
        .executeTakeFirstOrThrow()
    ).n,
  );
const [received, shipped] = [await count('received'), await count('shipped')];
await app.close();
await drop();

const ratio = (x: number) => (x / Math.max(0.01, r.bare.p99)).toFixed(1);
const line = (name: string, s: S, target: number) =>
  `${name.padEnd(26)} n ${String(s.n).padStart(6)}   p50 ${s.p50.toFixed(1).padStart(6)} ms   p99 ${s.p99.toFixed(1).padStart(6)} ms   max ${s.max.toFixed(1).padStart(7)} ms   p99/bare ${ratio(s.p99).padStart(5)}×   ${s.p99 < target ? 'OK' : 'OVER'} (< ${target} ms)`;
log(`${SCANNERS} scanners, one call per scan, AES; ${pgUrl ? 'PostgreSQL' : 'SQLite'}`);
log(
  `${'bare route'.padEnd(26)} n ${String(r.bare.n).padStart(6)}   p50 ${r.bare.p50.toFixed(1).padStart(6)} ms   p99 ${r.bare.p99.toFixed(1).padStart(6)} ms   max ${r.bare.max.toFixed(1).padStart(7)} ms`,
);
log(line('store (storageOrder/create)', r.store, 25));
log(line('ship (storageOrder/outSingle)', r.ship, 25));
log(line('order list during store', r.listDuringStore, 100));
log(line('order list during ship', r.listDuringShip, 100));
log(`outcomes: ${JSON.stringify(r.outcomes)}; events written: ${received} received, ${shipped} shipped`);
log(
  `server CPU per call (all phases): ${((cpu.user + cpu.system) / (r.bare.n + r.store.n + r.ship.n + r.listDuringStore.n + r.listDuringShip.n)).toFixed(0)} µs`,
);
log(`load average at end: ${load()}`);
if (received !== N || shipped !== N) {
  log(`FAILED: expected ${N} received and ${N} shipped events`);
  process.exitCode = 1;
}

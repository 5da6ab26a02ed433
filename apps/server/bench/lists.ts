/**
 * The other paged lists that can grow past 100,000 rows (issue 29): batches, storage orders,
 * interceptions and the audit log. Seeds BENCH_LIST_ROWS rows into each (default 200,000, six
 * customers, a year of dates), then asks every filter, sort and scope the console offers, one
 * request at a time through the real HTTP server (sealed where the console seals), first page
 * and a deep one (offset 580, as bench:orders' mix goes), twice each: the first time is cold,
 * the second warm. Prints each list's warm figures and every body slower than the goal (50 ms).
 * The interceptions name orders that are not seeded: the list's join to orders then reads an
 * index entry and finds nothing, as costly as finding one.
 *   npm run bench:lists -w apps/server
 *   BENCH_DATABASE_URL=postgres://… npm run bench:lists -w apps/server
 *   BENCH_SQLITE_FILE=/tmp/lists.sqlite …   (keep the seeded SQLite file and reuse it next time)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { buildApp } from '../src/app.ts';
import { testConfig } from '../src/config.ts';
import { createDatabase, type Database } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { openResponse, sealRequest } from '../test/aes-client.ts';
import { listening } from '../test/harness.ts';
import { benchDatabase, EXTRA_CUSTOMERS, seedBenchCustomers } from './load.ts';

const N = Number(process.env.BENCH_LIST_ROWS ?? 200_000);
const GOAL_MS = 50;
const pgUrl = process.env.BENCH_DATABASE_URL;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-lists-'));
const log = (s: string) => process.stdout.write(`${s}\n`);

const keptFile = pgUrl ? undefined : process.env.BENCH_SQLITE_FILE;
const reuse = keptFile !== undefined && fs.existsSync(keptFile);
const { url, drop } = await benchDatabase(pgUrl, keptFile ?? path.join(dir, 'bench.sqlite'));
const config = testConfig({
  DATABASE_URL: url,
  DATA_DIR: dir,
  WEB_DIST: path.join(dir, 'no-web'),
  // Each body alone, as the server answers it the first time: no answer cache.
  READ_CACHE_ENTRIES: '0',
});
const db = createDatabase(config.database);
await migrateToLatest(db);
log(`node ${process.version}, ${os.cpus().length} CPUs, ${pgUrl ? 'PostgreSQL' : 'SQLite'}, ${N} rows a list`);
if (!reuse) {
  await seedBenchCustomers(db);
  const t0 = performance.now();
  await seedLists(db, N);
  // Vacuumed as autovacuum would have: without the visibility map an index-only scan (every
  // count) reads the table's pages too, which no long-lived database does.
  if (pgUrl) await sql`vacuum analyze batches, storage_orders, order_interceptions, audit_log`.execute(db);
  log(`seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
log(
  `load average: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);

const app = await buildApp({ config, db });
const http = await listening(app);
const customers = await db.selectFrom('customers').select(['id', 'code']).orderBy('id').execute();
const demoId = customers.find((c) => c.code === 'DEMO')!.id;
const users = ['demo', 'agent', 'operator', 'admin'];
const tokens = new Map<string, string>();
for (const u of users) tokens.set(u, await http.login(u));

/** One list: its call, whether the console seals it, and its filters and sorts. */
interface ListProbe {
  path: string;
  sealed: boolean;
  filters: Record<string, unknown>[];
  sorts: (string | undefined)[];
}
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000 + 8 * 3_600_000).toISOString().slice(0, 10);
const lastMonth = { dateFrom: day(30), dateTo: day(0) };
const LISTS: ListProbe[] = [
  {
    path: 'order/batches',
    sealed: false,
    filters: [
      {},
      { batchNo: '0042' },
      { batchNo: `B${String(N - 7).padStart(7, '0')}` },
      { channel: 'JP' },
      { status: 'failed' },
      { customerId: demoId },
      { from: day(30), to: day(0) },
      { channel: 'JP', status: 'done', from: day(90), to: day(0) },
    ],
    sorts: [undefined],
  },
  {
    path: 'storageOrders',
    sealed: true,
    filters: [
      {},
      { storageNo: `SO${String(N - 7).padStart(8, '0')}` },
      { method: 'excel' },
      { origin: 'counter' },
      { status: 'partial' },
      { status: 'refused' },
      { customerId: demoId },
      lastMonth,
      { origin: 'pickup', status: 'received', ...lastMonth },
    ],
    sorts: ['createdAt', 'lineCount', 'receivedCount'],
  },
  {
    path: 'order/list/interception',
    sealed: false,
    filters: [
      {},
      { number: `IO${String(N - 7).padStart(8, '0')}` },
      { number: 'NOSUCHNUMBER' },
      { status: 'active' },
      { status: 'cancelled' },
      { customerId: demoId },
      lastMonth,
      { status: 'active', ...lastMonth },
    ],
    sorts: ['createdAt', 'orderNo', 'cancelledAt'],
  },
  {
    path: 'admin/audit/list',
    sealed: false,
    filters: [
      {},
      { userName: 'operator' },
      { action: 'order.' },
      { action: 'admin.user.create' },
      { target: `#${N - 7}` },
      { target: 'nosuchtarget' },
      lastMonth,
      { userName: 'operator', action: 'order.', ...lastMonth },
    ],
    sorts: [undefined],
  },
];

interface Timed {
  list: string;
  user: string;
  body: Record<string, unknown>;
  cold: number;
  warm: number;
}
const results: Timed[] = [];
async function ask(p: ListProbe, token: string, body: Record<string, unknown>) {
  const t0 = performance.now();
  const r = p.sealed
    ? await http.post(p.path, sealRequest(token, body), token, { aes: '1' })
    : await http.post(p.path, body, token);
  const ms = performance.now() - t0;
  if (r.status !== 200) return { ms, status: r.status };
  // A sealed answer opens to its data; a plain one carries it in the envelope.
  const data = (p.sealed ? openResponse(token, r.body as { data: string; iv: string }) : (r.body as any).data) as any;
  if (!Array.isArray(data?.list)) throw new Error(`${p.path}: no list in ${JSON.stringify(data).slice(0, 200)}`);
  return { ms, status: 200 };
}
for (const p of LISTS) {
  for (const user of users) {
    const token = tokens.get(user)!;
    // The role may not see the list at all (403): nothing to time.
    if ((await ask(p, token, { offset: 0, limit: 20 })).status === 403) continue;
    for (const f of p.filters)
      for (const sort of p.sorts)
        for (const order of ['desc', 'asc'])
          for (const offset of [0, 580]) {
            const body = { ...f, ...(sort ? { sort } : {}), order, offset, limit: 20 };
            const cold = await ask(p, token, body);
            if (cold.status !== 200) throw new Error(`${p.path} ${user} ${JSON.stringify(body)}: ${cold.status}`);
            const warm = await ask(p, token, body);
            results.push({ list: p.path, user, body, cold: cold.ms, warm: warm.ms });
          }
  }
}

const stat = (a: number[]) => {
  const s = [...a].sort((x, y) => x - y);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(s.length * q))]!;
  return `n=${String(s.length).padStart(4)}  avg ${(s.reduce((x, y) => x + y, 0) / s.length).toFixed(1).padStart(6)} ms  p90 ${at(0.9).toFixed(1).padStart(6)}  max ${s.at(-1)!.toFixed(1).padStart(6)}`;
};
log(`\neach body alone, warm (the second of two asks); goal: every first page <= ${GOAL_MS} ms`);
for (const p of LISTS) {
  const mine = results.filter((r) => r.list === p.path);
  const slow = mine.filter((r) => r.warm > GOAL_MS);
  log(
    `${p.path.padEnd(26)} ${stat(mine.map((r) => r.warm))}   cold max ${Math.max(...mine.map((r) => r.cold)).toFixed(1)}   over goal: ${slow.length}`,
  );
}
for (const p of LISTS) {
  const slow = results.filter((r) => r.list === p.path && r.warm > GOAL_MS).sort((a, b) => b.warm - a.warm);
  if (!slow.length) continue;
  log(`\n${p.path}: the slowest warm of ${slow.length} over ${GOAL_MS} ms`);
  for (const r of slow.slice(0, Number(process.env.BENCH_SHOW ?? 8)))
    log(
      `${r.warm.toFixed(1).padStart(7)} ms (cold ${r.cold.toFixed(0)})  ${r.user.padEnd(8)} ${JSON.stringify(r.body)}`,
    );
}

await app.close();
await db.destroy();
await drop();
fs.rmSync(dir, { recursive: true, force: true });

/** `n` rows into each list's table, in chunks, a year of creation times, newest last. */
async function seedLists(db: Database, n: number) {
  const cs = await db.selectFrom('customers').select(['id', 'code']).orderBy('id').execute();
  const us = await db.selectFrom('users').select(['id', 'name', 'customer_id']).execute();
  const channels = (await db.selectFrom('channels').select('code').execute()).map((c) => c.code);
  const operator = us.find((u) => u.name === 'operator')!.id;
  const userOf = new Map(us.filter((u) => u.customer_id).map((u) => [u.customer_id!, u.id]));
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(a: readonly T[]) => a[Math.floor(random() * a.length)]!;
  // DEMO holds a third of each list, as the busiest customer of bench:orders does.
  const customer = () =>
    random() < 1 / 3
      ? cs.find((c) => c.code === 'DEMO')!
      : pick(cs.filter((c) => c.code === 'DEMO2' || EXTRA_CUSTOMERS.includes(c.code)));
  const start = Date.now() - 365 * 86_400_000;
  const at = (i: number) => new Date(start + Math.floor((i / n) * 365 * 86_400_000)).toISOString();
  const CHUNK = 500;
  for (let from = 0; from < n; from += CHUNK) {
    const idx = Array.from({ length: Math.min(CHUNK, n - from) }, (_, k) => from + k);
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('batches')
        .values(
          idx.map((i) => {
            const c = customer();
            const status = random() < 0.9 ? 'done' : pick(['failed', 'preview', 'done']);
            const rows = 1 + Math.floor(random() * 200);
            return {
              batch_no: `B${String(i).padStart(7, '0')}`,
              customer_id: c.id,
              channel_code: pick(channels),
              template_kind: 'order',
              status,
              progress: 100,
              total_rows: rows,
              valid_rows: rows,
              order_count: status === 'done' ? rows : 0,
              created_by: userOf.get(c.id) ?? operator,
              created_at: at(i),
              updated_at: at(i),
            };
          }),
        )
        .execute();
      await trx
        .insertInto('storage_orders')
        .values(
          idx.map((i) => {
            const c = random() < 0.2 ? null : customer();
            const lines = 1 + Math.floor(random() * 50);
            const refused = random() < 0.8 ? 0 : Math.floor(random() * lines);
            const received = random() < 0.05 ? 0 : lines - refused;
            return {
              storage_no: `SO${String(i).padStart(8, '0')}`,
              customer_id: c?.id ?? null,
              method: random() < 0.7 ? 'entry' : 'excel',
              origin: pick(['pickup', 'selfSend', 'counter']),
              line_count: lines,
              received_count: received,
              refused_count: lines - received,
              file_name: null,
              pre_alert: c && received === 0 ? 1 : 0,
              created_by: c ? (userOf.get(c.id) ?? operator) : operator,
              created_at: at(i),
              updated_at: at(i),
            };
          }),
        )
        .execute();
      await trx
        .insertInto('order_interceptions')
        .values(
          idx.map((i) => {
            const c = customer();
            const cancelled = random() < 0.3;
            return {
              customer_id: c.id,
              order_id: 1_000_000 + i,
              order_no: `IO${String(i).padStart(8, '0')}`,
              no_type: 'orderNo',
              number: `IO${String(i).padStart(8, '0')}`,
              reason: 'bench',
              created_by: userOf.get(c.id) ?? operator,
              created_at: at(i),
              cancel_reason: cancelled ? 'bench' : null,
              cancelled_by: cancelled ? operator : null,
              cancelled_at: cancelled ? at(Math.min(n - 1, i + 100)) : null,
            };
          }),
        )
        .execute();
      await trx
        .insertInto('audit_log')
        .values(
          idx.map((i) => {
            const u = pick(us);
            return {
              at: at(i),
              user_id: u.id,
              user_name: u.name,
              action: pick([
                'order.update',
                'order.delete',
                'order.intercept',
                'storage.receive',
                'bill.adjust',
                'admin.user.create',
                'admin.customer.update',
              ]),
              target: `#${i}`,
              detail: 'bench',
              ip: '127.0.0.1',
            };
          }),
        )
        .execute();
    });
  }
}

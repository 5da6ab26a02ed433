/**
 * Which generated filters of the bench:orders mix are slow (issue 10, finding 21): runs the
 * mix's bodies one at a time on the cache-less server over a kept bench database, each twice, and
 * prints the warm (second) time of each filter feature and the slowest bodies, cold beside them.
 *   BENCH_SQLITE_FILE=/tmp/orders.sqlite npm run bench:orders   (once, to seed and keep it)
 *   BENCH_SQLITE_FILE=/tmp/orders.sqlite node bench/orders-probe.ts [bodies]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../src/app.ts';
import { testConfig } from '../src/config.ts';
import { createDatabase } from '../src/db/database.ts';
import { listening } from '../test/harness.ts';
import { mix } from './orders-mix.ts';

const file = process.env.BENCH_SQLITE_FILE;
if (!file || !fs.existsSync(file)) throw new Error('BENCH_SQLITE_FILE must name a seeded bench database');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-probe-'));
const config = testConfig({
  DATABASE_URL: file,
  DATA_DIR: dir,
  WEB_DIST: path.join(dir, 'no-web'),
  READ_CACHE_ENTRIES: '0',
});
const db = createDatabase(config.database);
const app = await buildApp({ config, db });
const http = await listening(app);
const names = ['demo', 'demo2', 'bench3', 'agent', 'operator'];
const roles = ['customer', 'customer', 'customer', 'agent', 'operator'];
const tokens = [];
for (let i = 0; i < names.length; i++) tokens.push({ role: roles[i]!, token: await http.login(names[i]!) });
const customers = await db.selectFrom('customers').select('id').execute();
const n = (
  await db
    .selectFrom('orders')
    .select((e) => e.fn.countAll().as('n'))
    .executeTakeFirstOrThrow()
).n;
let seed = 42;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const next = mix({ tokens, customerIds: customers.map((c) => c.id), now: Date.now(), orders: Number(n) }, random);
const byFeature = new Map<string, number[]>();
const all: { ms: number; cold: number; body: unknown; role: string }[] = [];
const count = Number(process.argv[2] ?? 300);
for (let i = 0; i < count; i++) {
  const { token, body } = next();
  const role = tokens.find((t) => t.token === token)!.role;
  // Twice: the first ask may read cold pages of the file (a 60 ms body that is 0.2 ms warm);
  // the second, warm, is what names a slow body. The cold time is printed beside it.
  const times: number[] = [];
  for (let k = 0; k < 2; k++) {
    const t0 = performance.now();
    const r = await http.post('order/orderList', body, token);
    times.push(performance.now() - t0);
    if (r.status !== 200) console.log('not 200', r.status, JSON.stringify(body));
  }
  const [cold, ms] = times as [number, number];
  all.push({ ms, cold, body, role });
  const b = body as Record<string, unknown>;
  const features = [
    `role=${role}`,
    `sort=${b.sort}/${b.order}`,
    ...[
      'status',
      'channel',
      'dateFrom',
      'intercepted',
      'printFlag',
      'recipientName',
      'recipientPhone',
      'numbers',
      'customerId',
    ]
      .filter((k) => b[k] !== undefined)
      .map((k) => `has ${k}`),
    `deep=${Number(b.offset) >= 200}`,
  ];
  for (const f of features) (byFeature.get(f) ?? byFeature.set(f, []).get(f)!).push(ms);
}
const stat = (a: number[]) => {
  const s = [...a].sort((x, y) => x - y);
  return `n=${String(s.length).padStart(4)} avg ${(s.reduce((x, y) => x + y, 0) / s.length).toFixed(1).padStart(7)} ms  p90 ${s[Math.floor(s.length * 0.9)]!.toFixed(1).padStart(7)}  max ${s.at(-1)!.toFixed(1).padStart(7)}  sum ${s
    .reduce((x, y) => x + y, 0)
    .toFixed(0)
    .padStart(6)}`;
};
console.log(`all ${stat(all.map((a) => a.ms))}`);
for (const [f, a] of [...byFeature].sort((x, y) => y[1].reduce((p, q) => p + q, 0) - x[1].reduce((p, q) => p + q, 0)))
  console.log(`${f.padEnd(28)} ${stat(a)}`);
console.log('slowest:');
for (const a of all.sort((x, y) => y.ms - x.ms).slice(0, 20))
  console.log(
    `${a.ms.toFixed(0).padStart(6)} ms (cold ${a.cold.toFixed(0)}) ${a.role.padEnd(8)} ${JSON.stringify(a.body)}`,
  );
await app.close();
await db.destroy();
fs.rmSync(dir, { recursive: true, force: true });

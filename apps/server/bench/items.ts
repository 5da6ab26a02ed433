/**
 * Item list benchmark (issue 12): seeds 100,000 items (six customers, realistic statuses,
 * brands, categories, names in zh/en/ja; bench/items-mix.ts) into a fresh database, then 50
 * concurrent clients on `items` through the real HTTP server on loopback, with several users'
 * tokens and generated filters (status, JAN prefix, name, brand, category, dates, sorts, pages
 * 1–5, 20 or 50 rows). The call is sealed both ways as the console sends it (AES), beside the
 * same handler registered plain (`bench/items`, this process only) and a bare route answering
 * as many bytes as the plain answer: the AES cost is the AES run against the plain one. Then
 * the same runs against a server with the read caches off: what the answer cache gives.
 *   npm run bench:items -w apps/server                 (SQLite, 100,000 items)
 *   BENCH_DATABASE_URL=postgres://… npm run bench:items -w apps/server
 *   BENCH_ITEMS=20000 BENCH_SECONDS=5 …                 (smaller runs)
 *   BENCH_SQLITE_FILE=/tmp/items.sqlite …                 (keep the seeded SQLite file and reuse it next time)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { type CallDef, eanCheckDigit, items as itemCalls } from '@console/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../src/app.ts';
import { type Config, testConfig } from '../src/config.ts';
import { createDatabase, type Database } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createRegistrar, type Registrar } from '../src/http/register-call.ts';
import { responseCacheStats } from '../src/http/response-cache.ts';
import { createFiles } from '../src/lib/files.ts';
import { localStorage } from '../src/lib/storage.ts';
import { createAuthService } from '../src/modules/auth/auth.service.ts';
import { itemsRoutes } from '../src/modules/items/items.routes.ts';
import { createExportProgress } from '../src/modules/export-jobs/export-jobs.service.ts';
import { createItemsService } from '../src/modules/items/items.service.ts';
import { openResponse, sealRequest } from '../test/aes-client.ts';
import { listening } from '../test/harness.ts';
import { type ItemsMixConfig, BRANDS, janBody, KINDS, mix } from './items-mix.ts';
import {
  benchDatabase,
  EXTRA_CUSTOMERS,
  formatLoad,
  type LoadResult,
  measureLoad,
  seedBenchCustomers,
} from './load.ts';

const N = Number(process.env.BENCH_ITEMS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const pgUrl = process.env.BENCH_DATABASE_URL;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-items-'));
const log = (s: string) => process.stdout.write(`${s}\n`);

const keptFile = pgUrl ? undefined : process.env.BENCH_SQLITE_FILE;
const reuse = keptFile !== undefined && fs.existsSync(keptFile);
const { url: databaseUrl, drop } = await benchDatabase(pgUrl, keptFile ?? path.join(dir, 'bench.sqlite'));
const config = testConfig({ DATABASE_URL: databaseUrl, DATA_DIR: dir, WEB_DIST: path.join(dir, 'no-web') });
const db = createDatabase(config.database);
await migrateToLatest(db);
if (!reuse) await seedBenchCustomers(db);
const EXTRA = EXTRA_CUSTOMERS;
const codes = ['DEMO', 'DEMO2', ...EXTRA];
const customers = await db.selectFrom('customers').select(['id', 'code']).execute();
const users = await db.selectFrom('users').select(['id', 'name', 'customer_id']).execute();
const customerIds = codes.map((code) => customers.find((c) => c.code === code)!.id);
const creatorOf = (customerId: number) => users.find((u) => u.customer_id === customerId)!.id;
const operatorId = users.find((u) => u.name === 'operator')!.id;

// Items: 40 % DEMO's, 20 % DEMO2's, 10 % each of the four others, created over the last 365
// days; 70 % approved, 20 % pending, 10 % failed; customer index k (1–6) is the JAN's third digit.
const SHARE = [0.4, 0.2, 0.1, 0.1, 0.1, 0.1];
const perCustomer = [0, ...SHARE.map((s) => Math.round(N * s))];
// A reused file keeps its creation times: `now` is the newest one.
const newest = reuse
  ? await db
      .selectFrom('items')
      .select((eb) => eb.fn.max('created_at').as('t'))
      .executeTakeFirst()
  : null;
const now = newest?.t ? Date.parse(String(newest.t)) : Date.now();
const t0 = performance.now();
const ROWS = 500;
if (!reuse)
  await db.transaction().execute(async (trx) => {
    let batch: Record<string, unknown>[] = [];
    let i = 0;
    for (let k = 1; k <= 6; k++) {
      const customerId = customerIds[k - 1]!;
      const createdBy = creatorOf(customerId);
      for (let seq = 0; seq < perCustomer[k]!; seq++, i++) {
        const [brandId, brandZh, brandEn, brandJa] = BRANDS[(i * 7) % BRANDS.length]!;
        const [kindZh, kindEn, kindJa, categoryId, taxCode, exportCategory, sizes] = KINDS[(i * 13) % KINDS.length]!;
        const size = sizes[i % sizes.length]!;
        const status = i % 10 < 7 ? 'approved' : i % 10 < 9 ? 'pending' : 'failed';
        const created = new Date(now - Math.floor((((i * 7919) % N) / N) * 365 * 86_400_000));
        const updated = new Date(Math.min(now, created.getTime() + (i % 5) * 86_400_000));
        const body = janBody(k, seq);
        batch.push({
          customer_id: customerId,
          jan: body + eanCheckDigit(body),
          name_zh: `${brandZh} ${kindZh} ${size}`,
          name_en: `${brandEn} ${kindEn} ${size}`,
          name_ja: `${brandJa} ${kindJa} ${size}`,
          specs: size,
          essentials: `品牌：${brandEn}；用途：个人使用；规格：${size}`,
          part_id: 1 + (i % 3),
          brand_id: brandId,
          category_id: categoryId,
          new_category: '',
          export_category: exportCategory,
          group_name: i % 4 === 0 ? `G${i % 7}` : '',
          tariff: i % 3 === 0 ? '3304990000' : null,
          net_weight_g: 30 + (i % 1500),
          clearance_price: `${20 + (i % 300)}.00`,
          declaration_price: `${300 + (i % 5000)}.00`,
          origin: 'JP',
          tax_code: taxCode,
          image_file_id: null,
          status,
          reason: status === 'failed' ? '成分说明不全 / Ingredient list incomplete' : null,
          created_by: createdBy,
          created_at: created.toISOString(),
          updated_at: updated.toISOString(),
        });
        if (batch.length === ROWS) {
          await trx
            .insertInto('items')
            .values(batch as never)
            .execute();
          batch = [];
        }
      }
    }
    if (batch.length)
      await trx
        .insertInto('items')
        .values(batch as never)
        .execute();
    // One item in fifty has an operator's adjustment waiting for the customer.
    await sql`insert into item_adjustments (item_id, customer_id, status, changes, note, adjusted_by, adjusted_at)
    select id, customer_id, 'pending', '[]', null, ${operatorId}, updated_at from items where id % 50 = 0`.execute(trx);
  });
await sql`analyze`.execute(db);
await db.destroy();
log(
  reuse
    ? `reused ${databaseUrl}`
    : `seeded ${N.toLocaleString()} items on ${pgUrl ? 'PostgreSQL' : 'SQLite'} in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);

/**
 * The same `items` handler registered plain at `bench/items` (this benchmark only): the
 * registrar given to itemsRoutes passes on the item list alone, without the AES envelope, and
 * with its own answer cache.
 */
function plainItems(app: FastifyInstance, appDb: Database, appConfig: Config) {
  const auth = createAuthService({ db: appDb, config: appConfig, clock: () => new Date() });
  const registrar = createRegistrar(app, appDb, (token) => auth.authenticate(token), {
    readCacheEntries: appConfig.READ_CACHE_ENTRIES,
    uploadLimitBytes: appConfig.UPLOAD_LIMIT_BYTES,
    exportProgress: createExportProgress(
      appDb,
      () => new Date(),
      () => {},
    ),
  });
  const list: CallDef = itemCalls.items;
  const plain = { ...itemCalls.items, path: 'bench/items', aes: false } as typeof itemCalls.items;
  const only: Registrar = {
    call: (def, handler) => {
      if ((def as CallDef) === list) registrar.call(plain, handler as never);
    },
    responseCache: ((def: CallDef) =>
      registrar.responseCache(def === list ? plain : def)) as Registrar['responseCache'],
  };
  itemsRoutes(
    only,
    createItemsService(appDb, () => new Date(), createFiles(appDb, localStorage(path.join(dir, 'files'))), {
      readCacheEntries: appConfig.READ_CACHE_ENTRIES,
    }),
    // Only the list is registered here (see `only`): the import calls' service is never reached.
    undefined as never,
  );
}

const db2 = createDatabase(config.database);
const app = await buildApp({ config, db: db2 });
plainItems(app, db2, config);
let bare = Buffer.from('{}');
// The bare route: as many bytes as the plain answer, same transport, no auth, no query.
app.post('/api/bench/bare', (_req, reply) => reply.type('application/json; charset=utf-8').send(bare));
const http = await listening(app);
// The same server without the read caches, on the same database: the list's cold path.
const db3 = createDatabase(config.database);
const coldConfig = { ...config, READ_CACHE_ENTRIES: 0 };
const coldApp = await buildApp({ config: coldConfig, db: db3 });
plainItems(coldApp, db3, coldConfig);
const cold = await listening(coldApp);

const tokens: ItemsMixConfig['tokens'] = [];
for (const [k, code] of codes.entries()) {
  tokens.push({ role: 'customer', customer: k + 1, token: await http.login(code.toLowerCase()) });
}
tokens.push({ role: 'agent', token: await http.login('agent') });
tokens.push({ role: 'operator', token: await http.login('operator') });
const mixConfig: ItemsMixConfig = { tokens, customerIds, now, perCustomer, generator: 'items-mix.ts', aes: true };
const aesMix = path.join(dir, 'mix-aes.json');
const plainMix = path.join(dir, 'mix-plain.json');
fs.writeFileSync(aesMix, JSON.stringify(mixConfig));
fs.writeFileSync(plainMix, JSON.stringify({ ...mixConfig, aes: false }));

// Sampled one at a time on the cache-less server (so the sample warms no cache measured next):
// the AES answer opens to the plain one, and their sizes; the average plain size sizes the bare route.
const sample = mix(mixConfig);
let sampled = 0;
let aesBytes = 0;
let plainBytes = 0;
let rows = 0;
let failed = 0;
const s0 = performance.now();
for (let i = 0; i < 200; i++) {
  const { token, body } = sample();
  const sealed = await cold.post('items', sealRequest(token, body), token, { aes: '1' });
  const plain = await cold.post('bench/items', body, token);
  const opened = sealed.status === 200 ? openResponse(token, sealed.body as { data: string; iv: string }) : null;
  if (sealed.status !== 200 || plain.status !== 200 || JSON.stringify(opened) !== JSON.stringify(plain.body.data))
    failed++;
  rows += plain.body.data?.list?.length ?? 0;
  sampled++;
  aesBytes += sealed.bytes;
  plainBytes += plain.bytes;
}
const averagePlain = Math.round(plainBytes / sampled);
const filler = '{"code":200,"message":"ok","data":""}';
bare = Buffer.from(filler.replace('""', `"${'x'.repeat(Math.max(0, averagePlain - filler.length))}"`));
log(
  `mix: ${tokens.length} users (6 customers, agent, operator), generated filters; ${sampled} pairs sampled one at a time ` +
    `in ${((performance.now() - s0) / sampled / 2).toFixed(1)} ms each, ${(rows / sampled).toFixed(1)} rows a page, ` +
    `average answer ${Math.round(aesBytes / sampled)} bytes sealed, ${averagePlain} plain` +
    `${failed ? `, ${failed} failed or differed` : ', every sealed answer opened to the plain one'}; bare route answers ${bare.length} bytes`,
);

const stats = () => responseCacheStats(db2);
const cacheLine = (before: ReturnType<typeof stats>, path: string) => {
  const a = stats()[path];
  const b = before[path];
  if (!a) return 'no answer cache on this call';
  const hits = a.hits - (b?.hits ?? 0);
  const lookups = hits + a.misses - (b?.misses ?? 0);
  return `the answer cache answered ${((hits / Math.max(1, lookups)) * 100).toFixed(1)} % of ${lookups} lookups`;
};
const measure = (label: string, url: string, mixFile: string | null) => measureLoad(log, label, url, SECONDS, mixFile);
const bareResult = await measure('bare', `${http.base}/bench/bare`, null);
let before = stats();
const plainResult = await measure('plain', `${http.base}/bench/items`, plainMix);
const plainCache = cacheLine(before, 'bench/items');
before = stats();
const aesResult = await measure('AES', `${http.base}/items`, aesMix);
const aesCache = cacheLine(before, 'items');
const coldPlain = await measure('uncached plain', `${cold.base}/bench/items`, plainMix);
const coldAes = await measure('uncached AES', `${cold.base}/items`, aesMix);

const pct = (a: LoadResult, b: LoadResult) => `${((a.rps / b.rps) * 100).toFixed(0)} %`;
// Two measures of the AES cost: the throughput lost, and the share of the server's CPU per
// call the sealing takes (steadier when other work shares the machine: the runs are not at once).
const cost = (aes: Measured, plain: Measured) =>
  `${((1 - aes.rps / plain.rps) * 100).toFixed(1)} % of throughput, ${((1 - plain.cpuMicros / aes.cpuMicros) * 100).toFixed(1)} % of server CPU per call`;
type Measured = LoadResult & { cpuMicros: number };
log(
  `\n50 connections, ${SECONDS} s each, ${os.cpus().length} CPUs, Node ${process.version}, ${pgUrl ? 'PostgreSQL' : 'SQLite'}, ${N.toLocaleString()} items; load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
log(formatLoad('bare route', bareResult, 26));
log(formatLoad('items plain', plainResult, 26));
log(formatLoad('items AES', aesResult, 26));
log(formatLoad('items plain, caches off', coldPlain, 26));
log(formatLoad('items AES, caches off', coldAes, 26));
log(
  `headline: AES costs ${cost(aesResult, plainResult)} (${Math.round(aesResult.rps)} against ${Math.round(plainResult.rps)} req/s; goal ≤ 20 %), ` +
    `p99 ${aesResult.p99} ms with AES, ${plainResult.p99} ms plain (goal < 25 ms); the plain list is ${pct(plainResult, bareResult)} of bare\n` +
    `caches off: AES costs ${cost(coldAes, coldPlain)} (${Math.round(coldAes.rps)} against ${Math.round(coldPlain.rps)} req/s), p99 ${coldAes.p99} ms with AES, ${coldPlain.p99} ms plain\n` +
    `one core at the AES list's server CPU per call (${Math.round(aesResult.cpuMicros)} µs) answers at most ${Math.round(1e6 / aesResult.cpuMicros)} calls/s; ` +
    `50 clients waiting < 25 ms each need ${50 / 0.025} calls/s (Little's law), i.e. ≤ ${Math.round((0.025 / 50) * 1e6)} µs a call\n` +
    `what the cache gives: ${(aesResult.rps / Math.max(1, coldAes.rps)).toFixed(2)}× with AES, ${(plainResult.rps / Math.max(1, coldPlain.rps)).toFixed(2)}× plain; ` +
    `AES: ${aesCache}; plain: ${plainCache}`,
);

await app.close();
await coldApp.close();
await db2.destroy();
await db3.destroy();
await drop();
fs.rmSync(dir, { recursive: true, force: true });

/**
 * Bills benchmark (issue 17): a month statement for one customer with N shipped orders (default
 * 100,000; each a freight line and a tax line, so 2N lines). Measures, through the product's
 * service on a fresh SQLite file: the page's first screen (`bills` first page + `bill/months` +
 * the first page of `bill/lines`) and `bill/downloadXlsx` streamed to a file; time and the
 * process's peak RSS after each.
 *   npm run bench:bills -w apps/server  [-- <orders>]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import { createDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import type { Download } from '../src/http/call-context.ts';
import { createBillsService } from '../src/modules/bills/bills.service.ts';
import { seedDemo } from '../src/seed/demo.ts';
import { useTempFolder } from '../src/lib/temp-files.ts';

const count = Number(process.argv[3] ?? process.argv[2] ?? 100_000) || 100_000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-bills-'));
const db = createDatabase({ dialect: 'sqlite', file: path.join(dir, 'bench.sqlite') });
// The app's temporary folder (DATA_DIR/tmp), where the service builds the bill's workbook.
useTempFolder(path.join(dir, 'tmp'));
const mib = () => Math.round(process.resourceUsage().maxRSS / 1024);

await migrateToLatest(db);
await seedDemo(db, { orders: 20 });
const demo = await db.selectFrom('users').select('customer_id').where('name', '=', 'demo').executeTakeFirstOrThrow();
const customerId = demo.customer_id!;
const template = await db
  .selectFrom('orders')
  .select('id')
  .where('customer_id', '=', customerId)
  .executeTakeFirstOrThrow();
const at = new Date().toISOString();
const t0 = performance.now();
// N shipped orders cloned from one seed order, then their charges on one open statement.
await sql`
  with recursive n(i) as (select 1 union all select i + 1 from n where i < ${count})
  insert into orders (customer_id, channel_code, order_no, waybill_no, system_no, status, recipient_name,
    recipient_id_card, recipient_phone, recipient_province, recipient_city, recipient_district, recipient_address,
    currency, created_at, updated_at, shipped_at, gross_weight_g)
  select o.customer_id, 'JP', 'BENCH' || n.i, 'BW' || n.i, 'BS' || n.i, 'shipped', o.recipient_name,
    o.recipient_id_card, o.recipient_phone, o.recipient_province, o.recipient_city, o.recipient_district,
    o.recipient_address, 'JPY', ${at}, ${at}, ${at}, 300 + (n.i * 137) % 2700
  from n, orders o where o.id = ${template.id}`.execute(db);
await db
  .insertInto('bills')
  .values({ customer_id: customerId, period: '2099-01', status: 'open', created_at: at, updated_at: at })
  .execute();
const bill = await db.selectFrom('bills').select('id').where('period', '=', '2099-01').executeTakeFirstOrThrow();
await sql`
  insert into charges (bill_id, customer_id, order_id, kind, charge_key, amount_minor, currency, weight_g, at)
  select ${bill.id}, customer_id, id, 'freight', 'freight:' || id, 1200 + (id % 7) * 300, 'JPY', gross_weight_g, ${at}
  from orders where order_no like 'BENCH%'`.execute(db);
await sql`
  insert into charges (bill_id, customer_id, order_id, kind, charge_key, amount_minor, currency, at)
  select ${bill.id}, customer_id, id, 'tax', 'tax:' || id, 1000 + id % 5000, 'CNY', ${at}
  from orders where order_no like 'BENCH%'`.execute(db);
console.log(`setup: ${count} shipped orders, ${count * 2} lines in ${Math.round(performance.now() - t0)} ms`);

const service = createBillsService({ db, clock: () => new Date('2099-01-15T00:00:00Z') });
const scope = { all: false as const, customerIds: [customerId] };
const base = mib();
let t = performance.now();
const [page, months, lines] = await Promise.all([
  service.page(scope, { offset: 0, limit: 20, order: 'desc', period: '2099-01' }),
  service.months(scope),
  service.lines(scope, { id: bill.id, offset: 0, limit: 50, order: 'desc' }),
]);
const firstScreen = performance.now() - t;
console.log(
  `first screen (bills + months + lines page): ${Math.round(firstScreen)} ms; ` +
    `total CNY ${page.list[0]!.totalCny}, ${page.list[0]!.lines} lines, ${months.length} months, ${lines.list.length} rows; ` +
    `peak RSS ${mib()} MiB (after setup ${base} MiB)`,
);
t = performance.now();
const d: Download = await service.download(scope, bill.id, 'en');
const out = path.join(dir, 'bill.xlsx');
if (Buffer.isBuffer(d.body)) fs.writeFileSync(out, d.body);
else await pipeline(d.body, fs.createWriteStream(out));
console.log(
  `xlsx: ${Math.round(performance.now() - t)} ms, ${(fs.statSync(out).size / 1048576).toFixed(1)} MiB; peak RSS ${mib()} MiB (this process; the workbook is written in a worker thread of it)`,
);
await db.destroy();
fs.rmSync(dir, { recursive: true, force: true });

/**
 * MDA benchmark (issue 15): a 10,000-order batch (two item lines each, half of the orders with a
 * declaration row, a catalogue entry per JAN) on a SQLite file, then the product's service builds
 * the MDA workbook (layout 1, one row per line) and the PD PDF (one invoice and packing list per
 * order) of the batch, each in a fresh child process: time and the process's peak RSS (the
 * worker thread that writes the file included).
 *   npm run bench:mda -w apps/server  [-- <orders>]
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { testConfig } from '../src/config.ts';
import { createDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createMdaService } from '../src/modules/mda/mda.service.ts';
import { useTempFolder } from '../src/lib/temp-files.ts';
import { seedDemo } from '../src/seed/demo.ts';

const FONTS = process.env.LABEL_FONT_DIR ?? '/usr/share/fonts/opentype/noto';
const [, , phase, file, batchArg] = process.argv;

if (phase === 'workbook' || phase === 'pd') {
  // Child: one download through the service, then its figures as JSON.
  const db = createDatabase(testConfig({ DATABASE_URL: file!, DATA_DIR: path.dirname(file!) }).database);
  useTempFolder(path.join(path.dirname(file!), 'tmp')); // the app's DATA_DIR/tmp
  const service = createMdaService({ db, clock: () => new Date(), fontDir: FONTS });
  const t0 = performance.now();
  const out =
    phase === 'workbook'
      ? await service.workbook({ all: true }, { batchId: Number(batchArg) }, 'lines')
      : await service.pd({ all: true }, { batchId: Number(batchArg) }, 'order');
  const ms = performance.now() - t0;
  const size = fs.statSync(out).size;
  fs.rmSync(out, { force: true });
  await db.destroy();
  console.log(JSON.stringify({ ms, size, peakRssMiB: process.resourceUsage().maxRSS / 1024 }));
  process.exit(0);
}

const count = Number(process.argv[3] ?? process.argv[2] ?? 10_000) || 10_000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-mda-'));
const dbFile = path.join(dir, 'bench.sqlite');
const db = createDatabase(testConfig({ DATABASE_URL: dbFile, DATA_DIR: dir }).database);
await migrateToLatest(db);
await seedDemo(db, { orders: 0 });
const demo = await db.selectFrom('customers').select('id').where('code', '=', 'DEMO').executeTakeFirstOrThrow();
const user = await db.selectFrom('users').select('id').where('name', '=', 'demo').executeTakeFirstOrThrow();
const nomination = await db
  .selectFrom('export_nominations')
  .select('id')
  .where('customer_id', '=', demo.id)
  .executeTakeFirstOrThrow();
const at = new Date().toISOString();
const batch = await db
  .insertInto('batches')
  .values({
    batch_no: 'BENCH-MDA',
    customer_id: demo.id,
    channel_code: 'JP',
    template_kind: 'import',
    status: 'done',
    created_by: user.id,
    created_at: at,
    updated_at: at,
  })
  .returning('id')
  .executeTakeFirstOrThrow();
const jans = ['4901234567894', '4987654321098'];
for (const [k, jan] of jans.entries())
  await db
    .insertInto('items')
    .values({
      customer_id: demo.id,
      jan,
      name_zh: '商品',
      name_en: ['Face cream', 'Toothpaste'][k]!,
      name_ja: ['フェイスクリーム', '歯磨き粉'][k]!,
      specs: '',
      essentials: '',
      new_category: '',
      export_category: ['3304', '3306'][k]!,
      group_name: '',
      net_weight_g: 250,
      clearance_price: '50',
      declaration_price: '1200',
      origin: 'JP',
      status: 'approved',
      created_by: user.id,
      created_at: at,
      updated_at: at,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
const t0 = performance.now();
for (let s = 0; s < count; s += 1000) {
  await db.transaction().execute(async (trx) => {
    const orders = await trx
      .insertInto('orders')
      .values(
        Array.from({ length: Math.min(1000, count - s) }, (_, k) => ({
          customer_id: demo.id,
          batch_id: batch.id,
          channel_code: 'JP',
          order_no: `BENCH${s + k}`,
          waybill_no: `WB${s + k}`,
          system_no: `SBENCH${s + k}`,
          export_nomination_id: nomination.id,
          status: 'created',
          recipient_name: '王小明',
          recipient_id_card: '110105198001011234',
          recipient_phone: '13812345678',
          recipient_province: '浙江省',
          recipient_city: '杭州市',
          recipient_district: '西湖区',
          recipient_address: `文三路${s + k}号`,
          currency: 'JPY',
          created_at: at,
          updated_at: at,
        })),
      )
      .returning('id')
      .execute();
    await trx
      .insertInto('order_items')
      .values(
        orders.flatMap((o) =>
          jans.map((jan, k) => ({
            order_id: o.id,
            line_no: k + 1,
            jan,
            name: '商品',
            quantity: 1 + k,
            unit_price: 1500,
            currency: 'JPY',
            origin: 'JP',
          })),
        ),
      )
      .execute();
    const declared = orders.filter((_, k) => k % 2 === 0);
    if (declared.length)
      await trx
        .insertInto('export_declarations')
        .values(
          declared.map((o) => ({
            order_id: o.id,
            customer_id: demo.id,
            product_name: 'Cosmetics',
            amount_jpy: 250_000,
            updated_at: at,
          })),
        )
        .execute();
  });
}
await db.destroy();
console.log(`seeded ${count} orders (${count * 2} lines) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

const self = new URL(import.meta.url).pathname;
for (const p of ['workbook', 'pd'] as const) {
  const r = JSON.parse(
    execFileSync(process.execPath, [self, p, dbFile, String(batch.id)], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .pop()!,
  ) as { ms: number; size: number; peakRssMiB: number };
  console.log(
    `${p === 'workbook' ? 'MDA workbook (layout 1)' : 'PD PDF (per order)'}: ${count} orders in ${(r.ms / 1000).toFixed(1)} s, ` +
      `${(r.size / 1048576).toFixed(1)} MiB, peak RSS ${r.peakRssMiB.toFixed(0)} MiB`,
  );
}
fs.rmSync(dir, { recursive: true, force: true });

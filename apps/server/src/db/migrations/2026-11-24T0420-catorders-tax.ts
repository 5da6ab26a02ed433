import type { Kysely } from 'kysely';

/**
 * Orders and the item catalogue (issue 12, lane catorders): which tax regime each channel's
 * parcels clear under and whether a channel takes only registered (approved) items, the
 * regimes' rates and limits, consumption tax by item category, and the tax estimate an order
 * carried when it was made (for the order list export). Rates and amounts are decimal strings,
 * so a rate change is an UPDATE, not a release.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tax_regimes')
    // cbec (cross-border e-commerce retail import) | postal (postal articles tax)
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('name_zh', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text', (c) => c.notNull())
    .addColumn('duty_rate', 'text', (c) => c.notNull())
    .addColumn('vat_rate', 'text', (c) => c.notNull())
    // The share of VAT and consumption tax actually levied (cbec: 70 %; postal: 1).
    .addColumn('levy_share', 'text', (c) => c.notNull())
    // CNY per order above which the regime no longer applies; null = none.
    .addColumn('order_limit', 'text')
    // CNY per person and calendar year (summed by ID number); null = none.
    .addColumn('yearly_limit', 'text')
    // A tax at or below this (CNY) is not collected; null = always collected.
    .addColumn('waiver', 'text')
    .execute();
  await db.schema
    .createTable('channel_tax_settings')
    .addColumn('channel_code', 'text', (c) => c.primaryKey().references('channels.code'))
    .addColumn('regime_code', 'text', (c) => c.references('tax_regimes.code'))
    // 1: an order item whose JAN is not approved in the customer's catalogue is refused (422).
    .addColumn('requires_registered_items', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('tax_consumption_rates')
    .addColumn('category_id', 'integer', (c) => c.primaryKey().references('item_categories.id'))
    .addColumn('rate', 'text', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('orders').addColumn('tax_estimate', 'text').execute();
  // A preview's notes (items not approved, tax, yearly limit: up to 200 orders) beside the
  // batch, not in its `preview` text: every status change rewrites the batch row, and a row
  // tens of KB long would need fresh pages for it (a full database then refused the confirm
  // instead of the commit failing with its real cause).
  await db.schema
    .createTable('batch_order_notes')
    .addColumn('batch_id', 'integer', (c) => c.primaryKey().references('batches.id').onDelete('cascade'))
    .addColumn('notes', 'text', (c) => c.notNull())
    .execute();
  // The yearly limit sums a recipient's orders by ID number over a year; the 7-day
  // same-recipient rule read the same rows with a scan.
  await db.schema
    .createIndex('orders_recipient_id_card_created')
    .on('orders')
    .columns(['recipient_id_card', 'created_at'])
    .execute();

  await db
    .insertInto('tax_regimes')
    .values([
      {
        code: 'cbec',
        name_zh: '跨境电商零售进口',
        name_en: 'Cross-border e-commerce retail import',
        duty_rate: '0',
        vat_rate: '0.13',
        levy_share: '0.70',
        order_limit: '5000.00',
        yearly_limit: '26000.00',
        waiver: null,
      },
      {
        code: 'postal',
        name_zh: '行邮税',
        name_en: 'Postal articles tax',
        duty_rate: '0',
        vat_rate: '0',
        levy_share: '1',
        order_limit: null,
        yearly_limit: null,
        waiver: '50.00',
      },
    ])
    .execute();
  const regimeOf: Record<string, [string | null, number]> = {
    JP: ['cbec', 0],
    USA: ['cbec', 0],
    // EMS parcels clear as postal articles, declared item by item: only registered items.
    EMS: ['postal', 1],
    SG: ['cbec', 0],
    AU: ['cbec', 0],
    UK: ['cbec', 0],
    PH: ['cbec', 0],
    TH: ['cbec', 0],
    USD: [null, 0],
  };
  const channels = await db.selectFrom('channels').select('code').execute();
  if (channels.length)
    await db
      .insertInto('channel_tax_settings')
      .values(
        channels.map((c: { code: string }) => ({
          channel_code: c.code,
          regime_code: regimeOf[c.code]?.[0] ?? null,
          requires_registered_items: regimeOf[c.code]?.[1] ?? 0,
        })),
      )
      .execute();
  // High-end cosmetics carry consumption tax (15 %); the categories are found by name, as the
  // catalogue migration gave them ids in insertion order.
  const makeUp = await db.selectFrom('item_categories').select('id').where('name_en', 'in', ['Make-up']).execute();
  if (makeUp.length)
    await db
      .insertInto('tax_consumption_rates')
      .values(makeUp.map((c: { id: number }) => ({ category_id: c.id, rate: '0.15' })))
      .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('orders_recipient_id_card_created').execute();
  await db.schema.alterTable('orders').dropColumn('tax_estimate').execute();
  for (const table of ['batch_order_notes', 'tax_consumption_rates', 'channel_tax_settings', 'tax_regimes'])
    await db.schema.dropTable(table).execute();
}

import type { Kysely } from 'kysely';
import { types } from '../dialect.ts';

/**
 * Bills (issue 17): rate cards, charges, monthly statements and the CNY rates of the months.
 *
 * - `orders.gross_weight_g`: orders carried no weight (decisions.md); the freight of a rate card
 *   is priced by gross weight, so the order gains it (set by the storage scan or the seed;
 *   an order shipped without one is priced at its card's first weight).
 * - `charges.charge_key` is unique: one charge per order and kind (`freight:<order>`, ...), so
 *   shipping twice, or two parallel ship requests, charge once; a correction is a new line.
 * - `bills` is unique per customer and month; a charge lands in its month's bill while it is open.
 * - `currency_rates`: the CNY rate of a currency from a month on (decimal text, never a float).
 * - `bill.manage` (issue, mark paid, adjust, rate cards) is granted to operators.
 * - File retention: `files.temporary` marks what the server made for a user (generated files,
 *   refused-upload workbooks), `files.expired_at` when the cleanup removed its bytes (the row
 *   stays: print jobs and batches name it, and a late download answers "expired", not "not found").
 */
const RATES: [currency: string, rate: string][] = [
  ['CNY', '1'],
  ['JPY', '0.0480'],
  ['USD', '7.1000'],
  ['SGD', '5.3000'],
  ['AUD', '4.6000'],
  ['GBP', '9.0000'],
  ['PHP', '0.1250'],
  ['THB', '0.2000'],
];

/** Kinds written before `temporary` existed that are generated or refused-upload workbooks. */
const LEGACY_TEMPORARY = [
  'batchErrors',
  'itemImportErrors',
  'clearanceErrors',
  'labelPrintJob',
  'batchSearchResult',
  'batchSearchNumbers',
];

export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  await db.schema.alterTable('orders').addColumn('gross_weight_g', 'integer').execute();
  await db.schema
    .createTable('currency_rates')
    .addColumn('currency', 'text', (c) => c.notNull().references('currencies.code'))
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('rate_cny', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('currency_rates_pk', ['currency', 'month'])
    .execute();
  await db
    .insertInto('currency_rates')
    .values(RATES.map(([currency, rate_cny]) => ({ currency, month: '2020-01', rate_cny })))
    .execute();
  await db.schema
    .createTable('rate_cards')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('channel_code', 'text', (c) => c.notNull().references('channels.code'))
    .addColumn('customer_id', 'integer', (c) => c.references('customers.id'))
    .addColumn('effective_from', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull().references('currencies.code'))
    .addColumn('rules', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id'))
    .addColumn('created_at', t.time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('rate_cards_lookup')
    .on('rate_cards')
    .columns(['channel_code', 'customer_id', 'effective_from'])
    .execute();
  await db.schema
    .createTable('bills')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id'))
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('issued_at', t.time)
    .addColumn('paid_at', t.time)
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .addUniqueConstraint('bills_customer_period', ['customer_id', 'period'])
    .execute();
  await db.schema.createIndex('bills_period').on('bills').columns(['period', 'customer_id']).execute();
  await db.schema
    .createTable('charges')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('bill_id', 'integer', (c) => c.notNull().references('bills.id'))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id'))
    .addColumn('order_id', 'integer', (c) => c.references('orders.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('charge_key', 'text', (c) => c.notNull().unique())
    .addColumn('amount_minor', t.big, (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull().references('currencies.code'))
    .addColumn('weight_g', 'integer')
    .addColumn('rate_card_id', 'integer', (c) => c.references('rate_cards.id'))
    .addColumn('reason', 'text')
    .addColumn('corrects_id', 'integer', (c) => c.references('charges.id'))
    .addColumn('at', t.time, (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id'))
    .execute();
  await db.schema.createIndex('charges_bill').on('charges').columns(['bill_id', 'id']).execute();
  await db.schema.createIndex('charges_order').on('charges').columns(['order_id']).execute();
  await db.insertInto('role_permissions').values({ role: 'operator', route_name: 'bill.manage' }).execute();
  await db.schema
    .alterTable('files')
    .addColumn('temporary', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('files').addColumn('expired_at', t.time).execute();
  // Files made before this migration by the generated-files pattern and the import error workbooks.
  await db
    .updateTable('files')
    .set({ temporary: 1 })
    .where('kind', 'in', [...LEGACY_TEMPORARY])
    .execute();
  await db.schema.createIndex('files_temporary_created').on('files').columns(['temporary', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('files_temporary_created').execute();
  await db.schema.alterTable('files').dropColumn('expired_at').execute();
  await db.schema.alterTable('files').dropColumn('temporary').execute();
  await db.deleteFrom('role_permissions').where('route_name', '=', 'bill.manage').execute();
  await db.schema.dropTable('charges').execute();
  await db.schema.dropTable('bills').execute();
  await db.schema.dropTable('rate_cards').execute();
  await db.schema.dropTable('currency_rates').execute();
  await db.schema.alterTable('orders').dropColumn('gross_weight_g').execute();
}

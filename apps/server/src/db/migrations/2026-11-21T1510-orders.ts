import type { Kysely } from 'kysely';
import { types } from '../dialect.ts';

/**
 * Orders workspace (issue 5): indexes for the list's typical filters at a million
 * rows, promise-letter ID cards, and a small fixed-window rate limiter shared by all
 * instances (the public tracking page).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  for (const [name, cols] of [
    // Customer + status + newest first: the list's most common filter, served from the index.
    ['orders_customer_status_created', ['customer_id', 'status', 'created_at']],
    ['orders_status_created', ['status', 'created_at']],
    ['orders_customer_channel_created', ['customer_id', 'channel_code', 'created_at']],
    // Operators search every customer's order numbers; the unique key leads with customer_id.
    ['orders_order_no', ['order_no']],
    ['orders_recipient_name', ['recipient_name']],
  ] as const) {
    await db.schema
      .createIndex(name)
      .on('orders')
      .columns([...cols])
      .execute();
  }

  await db.schema
    .createTable('id_cards')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id'))
    .addColumn('order_id', 'integer', (c) => c.references('orders.id').onDelete('set null'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('id_card', 'text', (c) => c.notNull())
    .addColumn('front_file_id', 'integer', (c) => c.references('files.id'))
    .addColumn('back_file_id', 'integer', (c) => c.references('files.id'))
    .addColumn('created_by', 'integer', (c) => c.references('users.id'))
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('id_cards_customer_card').on('id_cards').columns(['customer_id', 'id_card']).execute();
  await db.schema.createIndex('id_cards_order').on('id_cards').column('order_id').execute();

  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('window_start', t.big, (c) => c.notNull())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limits_pk', ['key', 'window_start'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are frozen once landed.');
}

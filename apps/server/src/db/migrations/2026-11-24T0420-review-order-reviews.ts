import type { Kysely } from 'kysely';
import { types } from '../dialect.ts';

/**
 * Order review (issue 12): a customer's sheet of orders checked before shipping. A review
 * (status 0 pending, 1 completed) holds the orders and items read from the sheet, each with
 * its findings as JSON text (a list of `{ check, code, severity, params }`, codes not
 * sentences, so they read in the reader's language). Orders and items go with their review
 * (ON DELETE CASCADE), so deleting a pending review is one guarded statement.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  await db.schema
    .createTable('order_reviews')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('review_no', 'text', (c) => c.notNull().unique())
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id'))
    // 0 pending | 1 completed (spec §4)
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('file_id', 'integer', (c) => c.references('files.id'))
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('order_count', 'integer', (c) => c.notNull())
    .addColumn('item_count', 'integer', (c) => c.notNull())
    .addColumn('flagged_orders', 'integer', (c) => c.notNull())
    .addColumn('row_error_count', 'integer', (c) => c.notNull())
    // JSON: the sheet rows the order template refused [{ row, col, letter, key, params }] (first 200)
    .addColumn('row_errors', 'text', (c) => c.notNull())
    .addColumn('remarks', 'text')
    .addColumn('completed_by', 'integer', (c) => c.references('users.id'))
    .addColumn('completed_at', t.time)
    .addColumn('created_by', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('order_reviews_customer_created')
    .on('order_reviews')
    .columns(['customer_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('order_reviews_status_created')
    .on('order_reviews')
    .columns(['status', 'created_at'])
    .execute();

  await db.schema
    .createTable('order_review_orders')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('review_id', 'integer', (c) => c.notNull().references('order_reviews.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('order_no', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('recipient_name', 'text', (c) => c.notNull())
    .addColumn('province', 'text', (c) => c.notNull())
    .addColumn('city', 'text', (c) => c.notNull())
    .addColumn('item_count', 'integer', (c) => c.notNull())
    .addColumn('value_cny', 'text')
    .addColumn('findings', 'text', (c) => c.notNull())
    .addColumn('finding_count', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('order_review_orders_review')
    .on('order_review_orders')
    .columns(['review_id', 'seq'])
    .execute();

  await db.schema
    .createTable('order_review_items')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('review_id', 'integer', (c) => c.notNull().references('order_reviews.id').onDelete('cascade'))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('order_review_orders.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('jan', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    // minor units of `currency`
    .addColumn('unit_price', t.big, (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    // approved | pending | failed | unknown
    .addColumn('catalogue', 'text', (c) => c.notNull())
    .addColumn('catalogue_item_id', 'integer')
    .addColumn('clearance_price', 'text')
    .addColumn('findings', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('order_review_items_review')
    .on('order_review_items')
    .columns(['review_id', 'seq'])
    .execute();
  await db.schema
    .createIndex('order_review_items_order')
    .on('order_review_items')
    .columns(['order_id', 'seq'])
    .execute();

  // The review pages for every role that had the review list; completing for operators only.
  await db
    .insertInto('role_permissions')
    .values([
      ...['customer', 'agent', 'operator'].flatMap((role) =>
        ['orderReview.create', 'orderReview.info', 'orderReview.item'].map((route_name) => ({ role, route_name })),
      ),
      { role: 'operator', route_name: 'orderReview.complete' },
    ])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db
    .deleteFrom('role_permissions')
    .where('route_name', 'in', ['orderReview.create', 'orderReview.info', 'orderReview.item', 'orderReview.complete'])
    .execute();
  await db.schema.dropTable('order_review_items').execute();
  await db.schema.dropTable('order_review_orders').execute();
  await db.schema.dropTable('order_reviews').execute();
}

import type { Kysely } from 'kysely';
import { types } from '../dialect.ts';

/**
 * Address-modification batches (issue 15, "label B"). A batch is written by the dry run
 * (`updateLableB/prompt`, status 'draft': nothing on the orders changes) and applied on confirm
 * (`updateLableB/create`); each row keeps the old and the new address so the batch page and its
 * export show what changed. `orders.label_b` marks an order whose printed label is out of date:
 * its next label carries the "B" mark.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  await db.schema
    .alterTable('orders')
    .addColumn('label_b', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('label_b_batches')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('batch_no', 'text', (c) => c.notNull().unique())
    .addColumn('customer_id', 'integer', (c) => c.references('customers.id'))
    // draft | applying | done | failed
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('file_name', 'text')
    .addColumn('row_count', 'integer', (c) => c.notNull())
    .addColumn('refused_count', 'integer', (c) => c.notNull())
    .addColumn('changed_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('label_b_count', 'integer', (c) => c.notNull().defaultTo(0))
    // Message key of why the apply failed (all rows left unchanged).
    .addColumn('error_key', 'text')
    .addColumn('error_order_no', 'text')
    .addColumn('created_by', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('label_b_batches_customer_created')
    .on('label_b_batches')
    .columns(['customer_id', 'created_at'])
    .execute();
  await db.schema
    .createTable('label_b_rows')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('batch_id', 'integer', (c) => c.notNull().references('label_b_batches.id'))
    .addColumn('row_no', 'integer', (c) => c.notNull())
    .addColumn('order_no', 'text', (c) => c.notNull())
    .addColumn('order_id', 'integer', (c) => c.references('orders.id'))
    // The address before (null when the order was refused as not found) and after.
    .addColumn('old_address', t.json)
    .addColumn('new_name', 'text', (c) => c.notNull())
    .addColumn('new_phone', 'text', (c) => c.notNull())
    .addColumn('new_province', 'text', (c) => c.notNull())
    .addColumn('new_city', 'text', (c) => c.notNull())
    .addColumn('new_district', 'text', (c) => c.notNull())
    .addColumn('new_address', 'text', (c) => c.notNull())
    .addColumn('division_code', 'text')
    // ok | refused | changed
    .addColumn('outcome', 'text', (c) => c.notNull())
    // Message keys: why refused; the warning (a printed order will need label B).
    .addColumn('reason_key', 'text')
    .addColumn('reason_field', 'text')
    .addColumn('warning_key', 'text')
    .addColumn('label_b', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('label_b_rows_batch').on('label_b_rows').columns(['batch_id', 'row_no']).execute();
  // The create and info pages for every role that has the list (order.updateLabelB).
  await db
    .insertInto('role_permissions')
    .values(['customer', 'agent', 'operator'].flatMap((role) => ROUTES.map((route_name) => ({ role, route_name }))))
    .execute();
}

const ROUTES = ['order.updateLabelB.create', 'order.updateLabelB.info'];

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('role_permissions').where('route_name', 'in', ROUTES).execute();
  await db.schema.dropTable('label_b_rows').execute();
  await db.schema.dropTable('label_b_batches').execute();
  await db.schema.alterTable('orders').dropColumn('label_b').execute();
}

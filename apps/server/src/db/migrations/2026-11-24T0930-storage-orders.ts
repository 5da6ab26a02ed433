import type { Kysely } from 'kysely';
import { types } from '../dialect.ts';

/**
 * Inbound storage and outbound shipments (issue 13). A storage order keeps every line entered
 * (the waybill as typed, the order it found, the outcome and the reason's message key), so its
 * page shows what happened to each parcel; its counters are kept in the statement that adds the
 * lines. A shipment keeps the orders that went out, so its manifest can be made again.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  await db.schema
    .createTable('storage_orders')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('storage_no', 'text', (c) => c.notNull().unique())
    .addColumn('customer_id', 'integer', (c) => c.references('customers.id'))
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('line_count', 'integer', (c) => c.notNull())
    .addColumn('received_count', 'integer', (c) => c.notNull())
    .addColumn('refused_count', 'integer', (c) => c.notNull())
    .addColumn('file_name', 'text')
    .addColumn('created_by', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('storage_orders_customer_created')
    .on('storage_orders')
    .columns(['customer_id', 'created_at'])
    .execute();
  await db.schema.createIndex('storage_orders_created').on('storage_orders').column('created_at').execute();

  await db.schema
    .createTable('storage_order_lines')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('storage_order_id', 'integer', (c) => c.notNull().references('storage_orders.id'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('order_id', 'integer', (c) => c.references('orders.id').onDelete('set null'))
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('message_key', 'text', (c) => c.notNull())
    .addColumn('created_at', t.time, (c) => c.notNull())
    .execute();
  // A scan looks its waybill up among the storage order's lines (a duplicate); pages read in id order.
  await db.schema
    .createIndex('storage_order_lines_order_code')
    .on('storage_order_lines')
    .columns(['storage_order_id', 'code'])
    .execute();
  await db.schema.createIndex('storage_order_lines_order').on('storage_order_lines').column('order_id').execute();

  await db.schema
    .createTable('shipments')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('shipment_no', 'text', (c) => c.notNull().unique())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('order_count', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('shipments_created').on('shipments').column('created_at').execute();
  await db.schema
    .createTable('shipment_orders')
    .addColumn('shipment_id', 'integer', (c) => c.notNull().references('shipments.id'))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id'))
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addPrimaryKeyConstraint('shipment_orders_pk', ['shipment_id', 'order_id'])
    .execute();
  // An order ships once: a second shipment of it is refused by the order's life, and this keeps it so.
  await db.schema.createIndex('shipment_orders_order').on('shipment_orders').column('order_id').unique().execute();

  // Info and item pages for every role that stores; out single and out batch for operators.
  await db
    .insertInto('role_permissions')
    .values([
      ...['customer', 'agent', 'operator'].flatMap((role) =>
        ['storageOrder.info', 'storageOrder.item'].map((route_name) => ({ role, route_name })),
      ),
      { role: 'operator', route_name: 'storageOrder.outSingle' },
      { role: 'operator', route_name: 'storageOrder.outBatch' },
    ])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db
    .deleteFrom('role_permissions')
    .where('route_name', 'in', [
      'storageOrder.info',
      'storageOrder.item',
      'storageOrder.outSingle',
      'storageOrder.outBatch',
    ])
    .execute();
  await db.schema.dropTable('shipment_orders').execute();
  await db.schema.dropTable('shipments').execute();
  await db.schema.dropTable('storage_order_lines').execute();
  await db.schema.dropTable('storage_orders').execute();
}

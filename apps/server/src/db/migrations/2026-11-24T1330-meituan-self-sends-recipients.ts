import type { Kysely } from 'kysely';
import { types } from '../dialect.ts';

/**
 * Lane meituan: the recipient address book, self-sends (declared parcels matched by inbound
 * storage) and Meituan reservation orders with their items. A declared tracking number is unique
 * per customer (a storage scan finds at most one parcel of a customer by it); a Meituan system
 * number is unique per customer (a re-upload of the same sheet is refused, not doubled).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  await db.schema
    .createTable('recipients')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('id_card', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('province', 'text', (c) => c.notNull())
    .addColumn('city', 'text', (c) => c.notNull())
    .addColumn('district', 'text', (c) => c.notNull())
    .addColumn('street', 'text')
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('postcode', 'text')
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('recipients_customer').on('recipients').columns(['customer_id', 'created_at']).execute();

  await db.schema
    .createTable('self_sends')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id'))
    .addColumn('express_company', 'text', (c) => c.notNull())
    .addColumn('express_name', 'text')
    .addColumn('send_date', 'text', (c) => c.notNull())
    .addColumn('expected_pieces', 'integer', (c) => c.notNull())
    .addColumn('remark', 'text')
    .addColumn('created_by', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', t.time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('self_sends_customer').on('self_sends').columns(['customer_id', 'created_at']).execute();
  await db.schema
    .createTable('self_send_parcels')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('self_send_id', 'integer', (c) => c.notNull().references('self_sends.id'))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id'))
    .addColumn('tracking_no', 'text', (c) => c.notNull())
    .addColumn('arrived_at', t.time)
    .addColumn('storage_order_id', 'integer', (c) => c.references('storage_orders.id'))
    .execute();
  await db.schema
    .createIndex('self_send_parcels_customer_tracking')
    .on('self_send_parcels')
    .columns(['customer_id', 'tracking_no'])
    .unique()
    .execute();
  // Storage looks parcels up by tracking number alone when an operator's entry names no customer.
  await db.schema.createIndex('self_send_parcels_tracking').on('self_send_parcels').column('tracking_no').execute();
  await db.schema.createIndex('self_send_parcels_self_send').on('self_send_parcels').column('self_send_id').execute();

  await db.schema
    .createTable('meituan_orders')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id'))
    .addColumn('system_no', 'text', (c) => c.notNull())
    .addColumn('meituan_no', 'text', (c) => c.notNull())
    .addColumn('express_no', 'text', (c) => c.notNull())
    .addColumn('order_ref', 'text', (c) => c.notNull())
    .addColumn('receiver_name', 'text', (c) => c.notNull())
    .addColumn('receiver_address', 'text', (c) => c.notNull())
    .addColumn('receiver_phone', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('operation_location', 'text', (c) => c.notNull())
    .addColumn('batch_number', 'text', (c) => c.notNull())
    .addColumn('item_count', 'integer', (c) => c.notNull())
    /** Sum of price × count in fen. */
    .addColumn('total_fen', t.big, (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('completed_at', t.time)
    .addColumn('completed_by', 'integer', (c) => c.references('users.id'))
    .execute();
  await db.schema
    .createIndex('meituan_orders_customer_system')
    .on('meituan_orders')
    .columns(['customer_id', 'system_no'])
    .unique()
    .execute();
  await db.schema
    .createIndex('meituan_orders_customer_created')
    .on('meituan_orders')
    .columns(['customer_id', 'created_at'])
    .execute();
  await db.schema.createIndex('meituan_orders_created').on('meituan_orders').column('created_at').execute();
  await db.schema.createIndex('meituan_orders_batch').on('meituan_orders').column('batch_number').execute();
  await db.schema
    .createTable('meituan_order_items')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('meituan_order_id', 'integer', (c) => c.notNull().references('meituan_orders.id'))
    .addColumn('barcode', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('specs', 'text')
    .addColumn('price_fen', t.big, (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('meituan_order_items_order')
    .on('meituan_order_items')
    .column('meituan_order_id')
    .execute();

  // Detail and item pages for every role that lists them; completion for operators.
  await db
    .insertInto('role_permissions')
    .values([
      ...['customer', 'agent', 'operator'].flatMap((role) =>
        ['meituanOrder.info', 'meituanOrder.items'].map((route_name) => ({ role, route_name })),
      ),
      { role: 'operator', route_name: 'meituanOrder.complete' },
    ])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db
    .deleteFrom('role_permissions')
    .where('route_name', 'in', ['meituanOrder.info', 'meituanOrder.items', 'meituanOrder.complete'])
    .execute();
  for (const table of ['meituan_order_items', 'meituan_orders', 'self_send_parcels', 'self_sends', 'recipients']) {
    await db.schema.dropTable(table).execute();
  }
}

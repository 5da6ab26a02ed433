import type { Kysely } from 'kysely';
import { types } from '../dialect.ts';

/**
 * Pickup appointments (issue 16). A slot's places are a counter per region, date and slot
 * (`pickup_slot_bookings.booked`), taken by one guarded UPDATE (booked < capacity) so two
 * customers racing for the last place cannot both get it, on SQLite and PostgreSQL alike.
 */
const SLOTS = ['10-12', '12-14', '14-16', '16-18'];
const DEFAULT_CAPACITY = 10;

export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  await db.schema
    .createTable('pickup_slot_capacities')
    .addColumn('region', 'text', (c) => c.notNull())
    .addColumn('slot', 'text', (c) => c.notNull())
    .addColumn('capacity', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('pickup_slot_capacities_pk', ['region', 'slot'])
    .execute();
  await db
    .insertInto('pickup_slot_capacities')
    .values(['tokyo', 'osaka'].flatMap((region) => SLOTS.map((slot) => ({ region, slot, capacity: DEFAULT_CAPACITY }))))
    .execute();

  await db.schema
    .createTable('pickup_slot_bookings')
    .addColumn('region', 'text', (c) => c.notNull())
    .addColumn('pickup_date', 'text', (c) => c.notNull())
    .addColumn('slot', 'text', (c) => c.notNull())
    .addColumn('booked', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('pickup_slot_bookings_pk', ['region', 'pickup_date', 'slot'])
    .execute();

  await db.schema
    .createTable('pickups')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('pickup_no', 'text', (c) => c.notNull().unique())
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id'))
    .addColumn('region', 'text', (c) => c.notNull())
    .addColumn('pickup_date', 'text', (c) => c.notNull())
    .addColumn('slot', 'text', (c) => c.notNull())
    .addColumn('box_no', 'text', (c) => c.notNull())
    .addColumn('shop_abbr', 'text', (c) => c.notNull())
    .addColumn('big_cartons', 'integer', (c) => c.notNull())
    .addColumn('small_parcels', 'integer', (c) => c.notNull())
    .addColumn('marker_prefix', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('cancel_reason', 'text')
    .addColumn('storage_order_id', 'integer', (c) => c.references('storage_orders.id'))
    .addColumn('created_by', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('pickups_customer_created')
    .on('pickups')
    .columns(['customer_id', 'created_at'])
    .execute();
  await db.schema.createIndex('pickups_created').on('pickups').column('created_at').execute();
  // A storage order of boxes finds its booking by box number or marker prefix.
  await db.schema.createIndex('pickups_box').on('pickups').columns(['box_no', 'status']).execute();
  await db.schema.createIndex('pickups_marker').on('pickups').columns(['marker_prefix', 'status']).execute();

  await db.schema
    .createTable('pickup_messages')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('pickup_id', 'integer', (c) => c.notNull().references('pickups.id'))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('params', 'text', (c) => c.notNull())
    .addColumn('created_at', t.time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('pickup_messages_customer')
    .on('pickup_messages')
    .columns(['customer_id', 'created_at'])
    .execute();
  await db.schema.createIndex('pickup_messages_pickup').on('pickup_messages').column('pickup_id').execute();

  await db.insertInto('role_permissions').values({ role: 'operator', route_name: 'subscribeTake.capacity' }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('role_permissions').where('route_name', '=', 'subscribeTake.capacity').execute();
  await db.schema.dropTable('pickup_messages').execute();
  await db.schema.dropTable('pickups').execute();
  await db.schema.dropTable('pickup_slot_bookings').execute();
  await db.schema.dropTable('pickup_slot_capacities').execute();
}

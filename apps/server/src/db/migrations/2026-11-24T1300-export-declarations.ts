import type { Kysely } from 'kysely';
import { types } from '../dialect.ts';

/**
 * Japanese export declarations (issue 15): one row per order that has declaration data
 * (product name + amount in JPY, both or neither — spec §5) and, once the customs broker
 * returns it, the export permit PDF. Written before the declarations and MDA work split, so
 * both read one table: the MDA downloads are this data in the broker's shapes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  await db.schema
    .createTable('export_declarations')
    .addColumn('order_id', 'integer', (c) => c.primaryKey().references('orders.id'))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id'))
    .addColumn('product_name', 'text', (c) => c.notNull())
    // Whole yen (JPY has no minor unit); integer holds up to JPY 2.1 billion a shipment.
    .addColumn('amount_jpy', 'integer', (c) => c.notNull())
    .addColumn('permit_file_id', 'integer', (c) => c.references('files.id'))
    .addColumn('permit_uploaded_at', t.time)
    .addColumn('permit_uploaded_by', 'integer', (c) => c.references('users.id'))
    .addColumn('permit_emailed_at', t.time)
    .addColumn('permit_email_error', 'text')
    .addColumn('updated_by', 'integer', (c) => c.references('users.id'))
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('export_declarations_customer')
    .on('export_declarations')
    .columns(['customer_id', 'updated_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('export_declarations').execute();
}

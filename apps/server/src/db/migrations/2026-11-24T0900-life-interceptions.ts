import type { Kysely } from 'kysely';
import { types } from '../dialect.ts';

/**
 * Issue 13 (the order's life): interception records and the abnormal-rule switches.
 *
 * `order_interceptions`: one row per interception as it was asked (number kind and number as
 * entered, reason, who/when) and, once cancelled, the cancel reason and who/when. The order's
 * `intercepted` flag itself changes only through domain/order-life.ts in the same transaction.
 * No foreign key to orders: an order whose interception was cancelled may be deleted later,
 * and its record stays (with the order number copied) as the history of what was asked.
 *
 * `abnormal_rules`: whether each abnormal rule is applied (operators switch them); every rule
 * starts on, as it was before the switch existed.
 */
const RULES = ['unresolvableAddress', 'invalidPhone', 'valueOverLimit', 'sameRecipientTooOften'];

export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  await db.schema
    .createTable('order_interceptions')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id'))
    .addColumn('order_id', 'integer', (c) => c.notNull())
    .addColumn('order_no', 'text', (c) => c.notNull())
    .addColumn('no_type', 'text', (c) => c.notNull())
    .addColumn('number', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id'))
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('cancel_reason', 'text')
    .addColumn('cancelled_by', 'integer', (c) => c.references('users.id'))
    .addColumn('cancelled_at', t.time)
    .execute();
  await db.schema
    .createIndex('order_interceptions_customer_created')
    .on('order_interceptions')
    .columns(['customer_id', 'created_at'])
    .execute();
  await db.schema.createIndex('order_interceptions_created').on('order_interceptions').column('created_at').execute();
  await db.schema.createIndex('order_interceptions_order').on('order_interceptions').column('order_id').execute();
  await db.schema.createIndex('order_interceptions_number').on('order_interceptions').column('number').execute();

  await db.schema
    .createTable('abnormal_rules')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('updated_by', 'integer', (c) => c.references('users.id'))
    .addColumn('updated_at', t.time)
    .execute();
  await db
    .insertInto('abnormal_rules')
    .values(RULES.map((code) => ({ code, enabled: 1 })))
    .execute();

  // The operators' page that switches the rules (the list itself stays order.abnormal's).
  await db.insertInto('role_permissions').values({ role: 'operator', route_name: 'order.abnormalRules' }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('role_permissions').where('route_name', '=', 'order.abnormalRules').execute();
  await db.schema.dropTable('abnormal_rules').execute();
  await db.schema.dropTable('order_interceptions').execute();
}

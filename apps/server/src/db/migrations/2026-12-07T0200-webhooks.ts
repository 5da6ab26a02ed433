import type { Kysely } from 'kysely';
import { types } from '../dialect.ts';

/**
 * Issue 39, webhooks (docs/decisions/2026-12-07-webhooks.md).
 * - `webhook_endpoints`: a customer's receiver: URL, JSON list of event types, active flag; the
 *   signing secret sealed (lib/secret-box.ts: the server's key is needed to sign, so not a hash),
 *   and after a rotation the previous one with the time it stops being used. `failing_since` is
 *   the first failure of an unbroken run of failures (3 days of it disables the endpoint).
 *   Deleted endpoints are kept (`deleted_at`) so their delivery log still names them.
 * - `webhook_events`: the outbox, written in the transaction of the order's change
 *   (domain/order-events.ts); `seq` counts one order's events; `dispatched_at` null until the
 *   relay made its deliveries. A test event has no order.
 * - `webhook_deliveries`: one event to one endpoint (unique, so a relay run again adds nothing);
 *   `webhook_attempts`: each try, its status code, latency and the first bytes of the answer.
 * - `notices.user_id`: a notice for one user (an endpoint disabled) rather than for everyone.
 * - The `developer.webhooks` permission for customers and agents.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('event_types', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('previous_secret_sealed', 'text')
    .addColumn('previous_until', t.time)
    .addColumn('failing_since', t.time)
    .addColumn('disabled_at', t.time)
    .addColumn('created_by', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .addColumn('deleted_at', t.time)
    .execute();
  await db.schema
    .createIndex('webhook_endpoints_customer')
    .on('webhook_endpoints')
    .columns(['customer_id', 'id'])
    .execute();
  await db.schema
    .createTable('webhook_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id'))
    .addColumn('order_id', 'integer', (c) => c.references('orders.id'))
    .addColumn('seq', 'integer')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('occurred_at', t.time, (c) => c.notNull())
    .addColumn('dispatched_at', t.time)
    .addUniqueConstraint('webhook_events_order_seq', ['order_id', 'seq'])
    .execute();
  await db.schema
    .createIndex('webhook_events_undispatched')
    .on('webhook_events')
    .columns(['dispatched_at', 'occurred_at'])
    .execute();
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().references('webhook_events.id'))
    .addColumn('endpoint_id', 'integer', (c) => c.notNull().references('webhook_endpoints.id'))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_status_code', 'integer')
    .addColumn('last_attempt_at', t.time)
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addUniqueConstraint('webhook_deliveries_event_endpoint', ['event_id', 'endpoint_id'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_customer')
    .on('webhook_deliveries')
    .columns(['customer_id', 'id'])
    .execute();
  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('delivery_id', 'integer', (c) => c.notNull().references('webhook_deliveries.id'))
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('at', t.time, (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('latency_ms', 'integer', (c) => c.notNull())
    .addColumn('response_excerpt', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('error', 'text')
    .execute();
  await db.schema
    .createIndex('webhook_attempts_delivery')
    .on('webhook_attempts')
    .columns(['delivery_id', 'attempt'])
    .execute();
  await db.schema
    .alterTable('notices')
    .addColumn('user_id', 'integer', (c) => c.references('users.id'))
    .execute();
  await db
    .insertInto('role_permissions')
    .values(['customer', 'agent'].map((role) => ({ role, route_name: 'developer.webhooks' })))
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are frozen once landed.');
}

import type { Kysely } from 'kysely';
import { types } from '../dialect.ts';

/**
 * Issue 39, part 1: API keys for customers' own systems, and the stored answers of v1 POSTs.
 * - `api_keys`: a key belongs to a customer (`customer_id`) or to an agent (`agent_user_id`); only
 *   the SHA-256 of the whole key is kept (`secret_hash`), and the `prefix` that names it in lists.
 *   `scopes` is a JSON list of scope names; `revoked_at` set means refused from then on.
 * - `api_key_customers`: an agent's key limited to some of its customers (no rows: all of them).
 * - `idempotency_keys`: one row per (key, Idempotency-Key): the request's hash and, once answered,
 *   the answer; `answer_status` null while the first request is still running. In the database so
 *   the promise holds across instances; rows older than 24 h are swept.
 * - The `developer.apiKeys` permission for customers and agents (admin-none holds every route).
 * The per-key rate limit uses the existing `rate_limits` table (key `apiKey:<id>`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  await db.schema
    .createTable('api_keys')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull().unique())
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'integer', (c) => c.references('customers.id'))
    .addColumn('agent_user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('created_by', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('expires_at', t.time)
    .addColumn('last_used_at', t.time)
    .addColumn('revoked_at', t.time)
    .addColumn('revoked_by', 'integer', (c) => c.references('users.id'))
    .execute();
  await db.schema.createIndex('api_keys_customer').on('api_keys').columns(['customer_id', 'id']).execute();
  await db.schema.createIndex('api_keys_agent').on('api_keys').columns(['agent_user_id', 'id']).execute();
  await db.schema
    .createTable('api_key_customers')
    .addColumn('api_key_id', 'integer', (c) => c.notNull().references('api_keys.id'))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id'))
    .addPrimaryKeyConstraint('api_key_customers_pk', ['api_key_id', 'customer_id'])
    .execute();
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('api_key_id', 'integer', (c) => c.notNull().references('api_keys.id'))
    .addColumn('idem_key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('started_at', t.time, (c) => c.notNull())
    .addColumn('answer_status', 'integer')
    .addColumn('answer_body', 'text')
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['api_key_id', 'idem_key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_started').on('idempotency_keys').column('started_at').execute();
  await db
    .insertInto('role_permissions')
    .values(['customer', 'agent'].map((role) => ({ role, route_name: 'developer.apiKeys' })))
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are frozen once landed.');
}

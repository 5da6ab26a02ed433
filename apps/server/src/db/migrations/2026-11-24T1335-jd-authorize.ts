import type { Kysely } from 'kysely';
import { types } from '../dialect.ts';

/**
 * JD authorizations (issue 16). `*_enc` columns hold AES-256-GCM ciphertext (lib/secret-box.ts)
 * under a key that is never in the database. OAuth states are stored as their SHA-256 only,
 * bound to the user who asked for the URL, single use (used_at) and expiring. The create and
 * edit pages are granted to every role that holds the list; the calls still check the scope.
 */
const ROUTES = ['order.jdAuthorize.create', 'order.jdAuthorize.update'];
const ROLES = ['customer', 'agent', 'operator'];

export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  await db.schema
    .createTable('jd_authorizations')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id'))
    .addColumn('app_key', 'text', (c) => c.notNull())
    .addColumn('app_secret_enc', 'text', (c) => c.notNull())
    // The secret's mask, kept beside it so a list never decrypts.
    .addColumn('app_secret_mask', 'text', (c) => c.notNull())
    .addColumn('customer_code', 'text', (c) => c.notNull())
    .addColumn('isv_source', 'text', (c) => c.notNull())
    .addColumn('dept_no', 'text', (c) => c.notNull())
    .addColumn('platform_id', 'text', (c) => c.notNull())
    .addColumn('platform_name', 'text', (c) => c.notNull())
    .addColumn('access_token_enc', 'text')
    .addColumn('access_token_mask', 'text')
    .addColumn('refresh_token_enc', 'text')
    .addColumn('open_id', 'text')
    .addColumn('token_expires_at', t.time)
    .addColumn('authorized_at', t.time)
    .addColumn('created_by', 'integer', (c) => c.references('users.id'))
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('jd_authorizations_customer_created')
    .on('jd_authorizations')
    .columns(['customer_id', 'created_at'])
    .execute();
  await db.schema
    .createTable('jd_oauth_states')
    .addColumn('state_hash', 'text', (c) => c.primaryKey())
    .addColumn('authorization_id', 'integer', (c) => c.notNull().references('jd_authorizations.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('expires_at', t.time, (c) => c.notNull())
    .addColumn('used_at', t.time)
    .addColumn('created_at', t.time, (c) => c.notNull())
    .execute();
  await db
    .insertInto('role_permissions')
    .values(ROLES.flatMap((role) => ROUTES.map((route_name) => ({ role, route_name }))))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('role_permissions').where('route_name', 'in', ROUTES).execute();
  await db.schema.dropTable('jd_oauth_states').execute();
  await db.schema.dropTable('jd_authorizations').execute();
}

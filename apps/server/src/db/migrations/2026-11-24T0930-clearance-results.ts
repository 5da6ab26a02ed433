import type { Kysely } from 'kysely';
import { types } from '../dialect.ts';

/**
 * Clearance results (issue 13). The webhook's seen deliveries: a signed call is taken once, so
 * each delivery id and each signature is kept for the signing window (and a little more) in the
 * database, where every server instance sees it. The results page is for operators.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  await db.schema
    .createTable('clearance_webhook_seen')
    .addColumn('company_code', 'text', (c) => c.notNull())
    // 'd:<deliveryId>' or 's:<signature>'
    .addColumn('seen_key', 'text', (c) => c.notNull())
    .addColumn('seen_at', t.time, (c) => c.notNull())
    .addPrimaryKeyConstraint('clearance_webhook_seen_pk', ['company_code', 'seen_key'])
    .execute();
  await db.schema.createIndex('clearance_webhook_seen_at').on('clearance_webhook_seen').column('seen_at').execute();
  await db.insertInto('role_permissions').values({ role: 'operator', route_name: 'clearance.results' }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('role_permissions').where('route_name', '=', 'clearance.results').execute();
  await db.schema.dropTable('clearance_webhook_seen').execute();
}

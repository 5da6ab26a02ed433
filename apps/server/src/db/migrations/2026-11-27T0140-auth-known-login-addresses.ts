import type { Kysely } from 'kysely';
import { types } from '../dialect.ts';

/**
 * Addresses each account has logged in from (finding 6 of issue 26): a login from one of them
 * counts in a window of its own (account and address), so strangers spending the account's
 * window, or a NAT address's, do not lock the owner out (docs/decisions.md).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  await db.schema
    .createTable('login_known_addresses')
    // The login name as typed, lower-cased: the throttle's account key, known or not.
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    // Epoch milliseconds of the last success from there: an address unused for long is forgotten.
    .addColumn('last_success_at', t.big, (c) => c.notNull())
    .addPrimaryKeyConstraint('login_known_addresses_pk', ['account', 'address'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are frozen once landed.');
}

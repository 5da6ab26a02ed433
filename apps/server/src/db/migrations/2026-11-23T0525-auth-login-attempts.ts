import type { Kysely } from 'kysely';
import { types } from '../dialect.ts';

/**
 * Login throttling counts attempts in one row per key (account or address), reserved by a
 * single conditional upsert before the password is checked (auth.repository
 * `reserveAttempt`). The failure log it replaces was read before the check and written
 * after it, so concurrent guesses all saw a count of zero and were all checked.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  await db.schema
    .createTable('login_attempts')
    .addColumn('key', 'text', (c) => c.primaryKey())
    // Epoch milliseconds: the window is compared and reset arithmetically on both engines.
    .addColumn('window_start', t.big, (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.dropTable('login_failures').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are frozen once landed.');
}

import type { Kysely } from 'kysely';

/**
 * A saved setting keeps the sequence stamp of the save that wrote it: a page's last save sent
 * on `pagehide` and the next page's first save can both be in flight, and the older one must not
 * land last and put an old value back (it lost a user's tabs in a CI run). The stamp is the
 * browser's microsecond clock, so it grows across reloads of one browser; it is compared only with
 * a save of the same session (browser), since another browser's clock may be behind.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('user_settings')
    .addColumn('seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('user_settings').addColumn('session_id', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('user_settings').dropColumn('session_id').execute();
  await db.schema.alterTable('user_settings').dropColumn('seq').execute();
}

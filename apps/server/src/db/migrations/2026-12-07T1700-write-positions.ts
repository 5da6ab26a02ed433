import type { Kysely } from 'kysely';

/**
 * Read-your-own-writes over a replica (issue 38 item 4, DATABASE_READ_URL): each user's last
 * write position in the primary's WAL (`16/B374D848`), noted after a call of theirs committed,
 * read back at the next call by whichever instance serves it (db/read-replica.ts). One row per
 * user, overwritten with the higher position; PostgreSQL only writes it (SQLite has no replica).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('write_positions')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('wal_lsn', 'text', (c) => c.notNull())
    .execute();
}

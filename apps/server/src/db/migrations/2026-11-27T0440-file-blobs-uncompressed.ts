import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.ts';

/**
 * Downloads from the database store read a blob in 1 MiB substr pieces (issue 27). PostgreSQL
 * compresses large bytea values by default, and a compressed value must be decompressed from its
 * start for every piece; stored uncompressed (EXTERNAL) a piece reads only its own TOAST chunks.
 * Files are mostly zip (xlsx), PDF and JPEG, already compressed, so nothing is lost. Applies to
 * values written from now on; SQLite has no such setting.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`alter table file_blobs alter column data set storage external`.execute(db);
}

import { chinaDate } from '@console/contract';
import { type Kysely, sql } from 'kysely';
import { commitWaitsForStandby, dialectOf } from '../db/dialect.ts';
import type { DB } from '../db/schema.ts';

/**
 * Document numbers: a prefix, the China date and a serial drawn from the database. Their last
 * digits were first random (two numbers in one millisecond collided once in a thousand per pair),
 * then a counter of each process: two instances on one PostgreSQL drew the same number in the
 * same millisecond, and the unique index refused the second document (issue 27). The serial comes
 * from one place for every instance: PostgreSQL's `document_number_seq`, SQLite's counter row
 * (updated by the caller's transaction when it passes one, so it is drawn in the writer's
 * transaction). Never reset, so numbers are unique for 10^11 draws (10^9 for import batches).
 *
 * Pass the open transaction when there is one: on SQLite a lone write waits for the writer the
 * transaction holds.
 *
 * On PostgreSQL the drawing transaction's commit waits for the synchronous standby
 * (commitWaitsForStandby): a `nextval` that moved the sequence's logged value makes its
 * transaction wait at COMMIT, so the new primary of a failover never draws a number the old one
 * handed out (issue 38 item 5). Without a transaction, the draw runs in one of its own.
 */
export async function nextSerial(db: Kysely<DB>): Promise<number> {
  if (dialectOf(db) === 'postgres') {
    if (!db.isTransaction) return db.transaction().execute((trx) => nextSerial(trx));
    await commitWaitsForStandby(db);
    const { rows } = await sql<{ n: string }>`select nextval('document_number_seq') as n`.execute(db);
    return Number(rows[0]!.n);
  }
  const row = await db
    .updateTable('document_counters')
    .set({ value: sql`value + 1` })
    .where('name', '=', 'document')
    .returning('value')
    .executeTakeFirstOrThrow();
  return Number(row.value);
}

const day = (at: Date) => chinaDate(at).replaceAll('-', '');

/** `prefix`, the China date (8 digits), 11 serial digits: `LB2026112700000000042`. */
export async function documentNumber(db: Kysely<DB>, prefix: string, at: Date): Promise<string> {
  return `${prefix}${day(at)}${String((await nextSerial(db)) % 100_000_000_000).padStart(11, '0')}`;
}

/** An import batch's number: `B`, the China date, 9 serial digits (its column's old length). */
export async function batchNumber(db: Kysely<DB>, at: Date): Promise<string> {
  return `B${day(at)}${String((await nextSerial(db)) % 1_000_000_000).padStart(9, '0')}`;
}

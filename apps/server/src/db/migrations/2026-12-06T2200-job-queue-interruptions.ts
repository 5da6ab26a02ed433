import type { Kysely } from 'kysely';
import { dialectOf } from '../dialect.ts';

/**
 * Issue 38 row 8: the embedded runner counts the starts that found a job running, left by a
 * process that ended, so it runs such a job again a bounded number of times (lib/jobs.shared.ts
 * INTERRUPTED_RERUNS) rather than at every start. `attempts` cannot tell: it counts a retryable
 * kind's retries after errors too. SQLite only, like the table: pg-boss counts its own.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') return;
  await db.schema
    .alterTable('job_queue')
    .addColumn('interruptions', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

import type { Kysely } from 'kysely';

/**
 * Print jobs on the job queue (issue 27). `printed_ids`: the orders the job counted, written in
 * the transaction that counts them, so a run taken over from a dead instance draws those and
 * never counts them again. `error` becomes a message key, translated when read: the jobs that
 * failed before hold English or Chinese text (or the raw `interrupted`), mapped to their key.
 * Jobs still `running` here were drawn in an old process that no queue job will finish: failed,
 * as that process's own start-up did.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('print_jobs').addColumn('printed_ids', 'text').execute();
  await db
    .updateTable('print_jobs')
    .set({ error: 'printJobFailed' })
    .where('error', 'in', [
      'The labels could not be drawn; the orders printed are counted. Please print again.',
      '面单生成失败，已打印的订单已计数，请重新打印。',
    ])
    .execute();
  await db.updateTable('print_jobs').set({ error: 'printJobInterrupted' }).where('error', '=', 'interrupted').execute();
  await db
    .updateTable('print_jobs')
    .set({ status: 'failed', error: 'printJobInterrupted' })
    .where('status', '=', 'running')
    .execute();
}

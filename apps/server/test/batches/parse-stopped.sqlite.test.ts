import { beforeAll, expect, it } from 'vitest';
import { INTERRUPTED_RERUNS } from '../../src/lib/jobs.ts';
import { createHarness, type Harness } from '../harness.ts';
import { waitFor } from '../support/jobs.ts';
import { baseRow, uploadPreview } from './helpers.ts';

/**
 * Issue 38 row 8, a batch's side: a parse left running by a process that died as often as allowed
 * is not run again at the next start; its batch is failed with `jobStoppedTooOften` in both
 * languages instead of staying "parsing". The embedded runner (one process: the death is a
 * restart); pg-boss's side of `gaveUp` is in labels/print-job-stopped.test.ts.
 */

let h: Harness;
let demo: string;
beforeAll(async () => {
  h = await createHarness();
  demo = await h.login('demo');
});

it('a parse stopped too often fails its batch with the reason at the next start', async () => {
  const p = await uploadPreview(h, demo, [baseRow(1, { orderNo: 'STOPPED-1' })]);
  // What the last of its deaths left: the batch parsing, its job running, its earlier deaths counted.
  await h.db.updateTable('batches').set({ status: 'parsing' }).where('id', '=', p.id).execute();
  await h.db
    .insertInto('job_queue')
    .values({
      kind: 'batch-parse',
      payload: JSON.stringify({ batchId: p.id, lang: 'en', channel: 'JP' }),
      customer_id: null,
      size: 'heavy',
      singleton_key: String(p.id),
      state: 'active',
      attempts: INTERRUPTED_RERUNS + 1,
      interruptions: INTERRUPTED_RERUNS,
      run_after: new Date().toISOString(),
      created_at: new Date().toISOString(),
    })
    .execute();
  await h.restarted();
  await waitFor('the batch failed', async () => {
    const b = await h.db.selectFrom('batches').select('status').where('id', '=', p.id).executeTakeFirstOrThrow();
    return b.status !== 'parsing';
  });
  const b = await h.db
    .selectFrom('batches')
    .select(['status', 'error_message'])
    .where('id', '=', p.id)
    .executeTakeFirstOrThrow();
  expect(b.status).toBe('failed');
  expect(b.error_message).toMatch(
    /^该任务多次在完成前被中断.* \/ This job was stopped before it finished too many times/,
  );
  const job = await h.db
    .selectFrom('job_queue')
    .select(['state', 'last_error'])
    .where('kind', '=', 'batch-parse')
    .where('singleton_key', '=', String(p.id))
    .where('state', '=', 'failed')
    .executeTakeFirst();
  expect(job).toEqual({ state: 'failed', last_error: 'jobStoppedTooOften' });
});

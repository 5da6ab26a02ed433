import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { INTERRUPTED_RERUNS } from '../../src/lib/jobs.ts';
import { createHarness, type Harness, secondInstance } from '../harness.ts';
import { waitFor } from '../support/jobs.ts';
import { heldStore, INSTANCES_ENV } from '../support/two-instances.ts';
import { createOrder, jpOrderBody } from '../support/orders.ts';

/**
 * Issue 38 row 8, the owner's side: a print job whose runs keep being cut short (its process dies
 * each time) is not run for good, nor left "running": once the queue gives up on it, the job is
 * failed with `jobStoppedTooOften`, read in the reader's language. On SQLite the last death is a
 * process stopped with the job under way and the row counting the earlier ones; on PostgreSQL a
 * lapsed lease on the job's last allowed run.
 */
const pg = Boolean(process.env.TEST_DATABASE_URL);
const held = heldStore('put', (hint) => hint.startsWith('labelA-'));

let h: Harness;
let demo: string;
beforeAll(async () => {
  h = await createHarness({ env: INSTANCES_ENV, storage: held.storage });
  held.attach(h);
  demo = await h.login('demo');
});

async function result(jobId: number, lang: string) {
  const r = await h.post('order/printLabelAResult', { jobId }, demo, { 'accept-language': lang });
  expect(r.status).toBe(200);
  return r.body.data;
}

it('a print job stopped too often is failed with the reason, in both languages', async () => {
  const orders = await Promise.all([0, 1].map(() => createOrder(h.post, demo, jpOrderBody('PJS'))));
  const g = held.closeGate();
  const start = await h.post('order/printLabelA', { ids: orders.map((o) => o.id) }, demo);
  expect(start.status).toBe(200);
  const jobId = start.body.data.jobId as number;
  await waitFor('the job under way', () => g.reached);

  if (pg) {
    // Its last allowed run, and its instance gone: the lease lapses and the supervisor fails it.
    await sql`update pgboss.job set retry_count = retry_limit, heartbeat_on = now() - interval '1 hour'
      where name = 'label-print' and state = 'active'`.execute(h.db);
  } else {
    // The process stops with the job under way (it never finishes it), after as many deaths as allowed.
    void h.app.jobs.stop();
    await h.db
      .updateTable('job_queue')
      .set({ interruptions: INTERRUPTED_RERUNS })
      .where('kind', '=', 'label-print')
      .where('state', '=', 'active')
      .execute();
    await secondInstance(h, { env: INSTANCES_ENV });
  }
  await waitFor('the job failed', async () => (await result(jobId, 'en')).status !== 'running', 30_000);
  g.open();
  const row = await h.db
    .selectFrom('print_jobs')
    .select(['status', 'error'])
    .where('id', '=', jobId)
    .executeTakeFirst();
  expect(row).toEqual({ status: 'failed', error: 'jobStoppedTooOften' });
  expect((await result(jobId, 'en')).error).toMatch(/^This job was stopped before it finished too many times/);
  expect((await result(jobId, 'zh-CN')).error).toMatch(/^该任务多次在完成前被中断/);
}, 60_000);

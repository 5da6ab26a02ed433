import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type Instance, secondInstance } from '../harness.ts';
import { settled, waitFor } from '../support/jobs.ts';
import { heldStore, INSTANCES_ENV, leaseOutlived } from '../support/two-instances.ts';
import { createOrder, jpOrderBody } from '../support/orders.ts';
import { pdfPages } from '../support/pdf-read.ts';

/**
 * Issue 27: print jobs on the job queue. A starting instance failed every running print job
 * ("interrupted", stored raw) though another instance was drawing it, so users printed twice; and
 * a job whose instance died was never finished. Several instances live on PostgreSQL; on SQLite
 * (one instance) the second app is `SERVER_ROLE=web`, and "died" is a process that stopped with
 * the job under way, whose next start finishes it.
 */
const pg = Boolean(process.env.TEST_DATABASE_URL);

/**
 * The harness's file store, with the label PDFs' writes held at a gate: the job is then under
 * way (prints counted, PDF drawn, not stored yet) for as long as the test wants.
 */
const held = heldStore('put', (hint) => hint.startsWith('labelA-'));

let h: Harness;
let demo: string;
beforeAll(async () => {
  h = await createHarness({ env: INSTANCES_ENV, storage: held.storage });
  held.attach(h);
  demo = await h.login('demo');
});

async function threeOrders(prefix: string) {
  return Promise.all([0, 1, 2].map(() => createOrder(h.post, demo, jpOrderBody(prefix))));
}
async function result(jobId: number, lang = 'en') {
  const r = await h.post('order/printLabelAResult', { jobId }, demo, { 'accept-language': lang });
  expect(r.status).toBe(200);
  return r.body.data;
}
const printCounts = async (ids: number[]) =>
  (await h.db.selectFrom('orders').select(['id', 'print_count']).where('id', 'in', ids).orderBy('id').execute()).map(
    (o) => Number(o.print_count),
  );
const pdfsOf = (jobId: number) =>
  h.db
    .selectFrom('files')
    .select('id')
    .where('kind', '=', 'labelPrintJob')
    .where('name', '=', `labelA-${jobId}.pdf`)
    .execute();

describe('print jobs with two instances on one database', () => {
  it('an instance starting while a print job runs leaves it alone; it finishes once, with one PDF', async () => {
    const orders = await threeOrders('PJR');
    const g = held.closeGate();
    const start = await h.post('order/printLabelA', { ids: orders.map((o) => o.id) }, demo);
    expect(start.status).toBe(200);
    const jobId = start.body.data.jobId as number;
    await waitFor('the job to draw its PDF', () => g.reached);

    const second = await secondInstance(h, { env: pg ? INSTANCES_ENV : { ...INSTANCES_ENV, SERVER_ROLE: 'web' } });
    expect(await result(jobId)).toMatchObject({ status: 'running', error: null, printed: 3 });
    // The next tests hold their jobs at this instance's gate: the second (whose store has no gate)
    // must not take them, so it takes no more jobs from here on.
    await second.app.jobs.stop();

    g.open();
    await waitFor('the job to finish', async () => (await result(jobId)).status !== 'running');
    await settled(h.db, 'label-print', 1); // every row of the job's kind done or failed: no run of it is still to come
    expect(await result(jobId)).toMatchObject({ status: 'done', printed: 3, drawn: 3, error: null });
    expect(await pdfsOf(jobId)).toHaveLength(1);
    expect(await printCounts(orders.map((o) => o.id))).toEqual([1, 1, 1]);
  }, 60_000);

  it("a failed print job's reason is stored as a key and read in the reader's language", async () => {
    const orders = await threeOrders('PJF');
    const g = held.closeGate();
    const start = await h.post('order/printLabelA', { ids: orders.map((o) => o.id) }, demo, {
      'accept-language': 'en',
    });
    const jobId = start.body.data.jobId as number;
    await waitFor('the job to draw its PDF', () => g.reached);
    g.fail(Object.assign(new Error('EIO: /var/lib/console/files broken'), { code: 'EIO' }));
    await waitFor('the job to fail', async () => (await result(jobId)).status !== 'running');
    const row = await h.db.selectFrom('print_jobs').select('error').where('id', '=', jobId).executeTakeFirstOrThrow();
    expect(row.error).toBe('printJobFailed');
    expect((await result(jobId, 'en')).error).toBe(
      'The labels could not be drawn; the orders printed are counted. Please print again.',
    );
    expect((await result(jobId, 'zh-CN')).error).toBe('面单生成失败，已打印的订单已计数，请重新打印。');
  }, 60_000);

  // Last in the file: the harness's instance "dies" here.
  it('a print job whose instance died is finished by another exactly once', async () => {
    const orders = await threeOrders('PJD');
    const g = held.closeGate();
    const start = await h.post('order/printLabelA', { ids: orders.map((o) => o.id) }, demo);
    const jobId = start.body.data.jobId as number;
    await waitFor('the job to draw its PDF', () => g.reached);
    expect(await printCounts(orders.map((o) => o.id))).toEqual([1, 1, 1]);

    let other: Instance;
    if (pg) {
      other = await secondInstance(h, { env: INSTANCES_ENV });
      // Past its lease and a heartbeat check after it: the owner's heartbeat kept the job its own.
      expect(await leaseOutlived(other.db, 'label-print')).toEqual({ state: 'active', retryCount: 0 });
      expect(await result(jobId)).toMatchObject({ status: 'running', fileId: null });
      // Its connections go at once, as a killed process's; its job stays claimed until the lease lapses.
      await h.app.jobs.abandon();
    } else {
      // One process: it stops with the job under way (never finishing it), and the next start runs it.
      void h.app.jobs.stop();
      // No wait: stop() marks it stopped and clears its poller before its first await, so from here it
      // claims nothing; the job's row stays active until the next start takes it up.
      other = await secondInstance(h, { env: INSTANCES_ENV });
    }
    await waitFor('the other instance to finish it', async () => (await result(jobId)).status !== 'running', 40_000);
    await settled(h.db, 'label-print', 1); // every row of the job's kind done or failed: no run of it is still to come
    const job = await result(jobId);
    expect(job).toMatchObject({ status: 'done', printed: 3, drawn: 3, error: null });
    // Counted once, one PDF, drawn by the instance that finished it.
    expect(await printCounts(orders.map((o) => o.id))).toEqual([1, 1, 1]);
    expect(await pdfsOf(jobId)).toHaveLength(1);
    const pdf = await other.app.inject({
      method: 'POST',
      url: '/api/file/downloadSteam',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${demo}` },
      payload: JSON.stringify({ id: job.fileId }),
    });
    expect(pdf.statusCode).toBe(200);
    const file = path.join(os.tmpdir(), `print-job-${jobId}-${process.pid}.pdf`);
    fs.writeFileSync(file, pdf.rawPayload);
    try {
      expect(pdfPages(file)).toBe(3);
    } finally {
      fs.rmSync(file, { force: true });
    }
  }, 90_000);
});

import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseRow, fill, template, upload } from '../batches/helpers.ts';
import { createHarness, type Harness, type Instance, secondInstance } from '../harness.ts';
import { waitFor } from '../support/jobs.ts';
import { INSTANCES_ENV, leaseOutlived } from '../support/two-instances.ts';

/**
 * Issue 27: batch parse and commit ran in the instance that took the call, with recovery of its
 * own (a stale heartbeat failed the batch on any instance's sweep, the parse line lived in one
 * process's memory). They are jobs on the one queue now: any worker instance runs them, a job
 * whose instance died is taken over only once its lease lapsed, and the line is read from the
 * database. Several instances: PostgreSQL only.
 */

/** The commit of `batchId` is held after its first staged chunk until `open`. */
let gate: { batchId: number; open: () => void; reached: boolean; wait: Promise<void> } | null = null;
function closeGate(batchId: number) {
  let open!: () => void;
  const wait = new Promise<void>((r) => (open = r));
  gate = { batchId, open, reached: false, wait };
  return gate;
}
const afterStagedChunk = async (batchId: number) => {
  if (gate?.batchId !== batchId) return;
  gate.reached = true;
  await gate.wait;
};

let h: Harness;
/** Answers calls only (SERVER_ROLE=web): the "B" the user reaches through the balancer. */
let web: Instance;
/** The worker that runs the jobs (with the commit's gate), until it is abandoned. */
let worker: FastifyInstance;
let demo: string;
let tpl: Buffer;
beforeAll(async () => {
  h = await createHarness({ env: INSTANCES_ENV });
  demo = await h.login('demo');
  tpl = await template(h, demo, 'download/importOrder');
  // Nobody runs jobs until the first test has read the line.
  await h.app.jobs.stop();
  web = await secondInstance(h, { env: { ...INSTANCES_ENV, SERVER_ROLE: 'web' } });
});
afterAll(() => gate?.open());

async function on(app: FastifyInstance, path: string, body: unknown) {
  const r = await app.inject({
    method: 'POST',
    url: `/api/${path}`,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${demo}`, 'accept-language': 'en' },
    payload: JSON.stringify(body),
  });
  return { status: r.statusCode, body: r.json() };
}
const progress = async (app: FastifyInstance, id: number) => (await on(app, 'order/batch/progress', { id })).body.data;
const ordersOf = async (id: number) =>
  (await h.db.selectFrom('orders').select('order_no').where('batch_id', '=', id).execute()).length;
const batchRow = (id: number) => h.db.selectFrom('batches').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** Transactions of other connections on the test's database begun before `at` (the database's now, also returned). */
async function openTransactions(at?: string) {
  const { rows } = await sql<{ n: number; at: string }>`
    select count(*)::int as n, now()::text as at from pg_stat_activity
    where datname = current_database() and pid <> pg_backend_pid()
      and xact_start < coalesce(${at ?? null}::timestamptz, now())`.execute(h.db);
  return rows[0]!;
}

let serial = 0;
const ids: number[] = [];
const orderNos = new Map<number, string[]>();
async function uploadBatch(n: number) {
  const prefix = `BJ${++serial}`;
  const rows = Array.from({ length: n }, (_, i) => baseRow(i + 1, { orderNo: `${prefix}-${i}` }));
  const up = await upload(
    h,
    'order/batch/createImport',
    demo,
    { channel: 'JP' },
    { name: 'o.xlsx', data: await fill(tpl, rows) },
  );
  expect(up.status, JSON.stringify(up.body)).toBe(200);
  const id = up.body.data.id as number;
  orderNos.set(
    id,
    rows.map((r) => r.orderNo as string),
  );
  return id;
}

describe('batch jobs on two instances', () => {
  it('the parse line is read from the database: both instances give each batch the same place', async () => {
    for (let i = 0; i < 3; i++) ids.push(await uploadBatch(5));
    const line = async (app: FastifyInstance) => {
      const out: unknown[] = [];
      for (const id of ids) out.push((await progress(app, id)).queuePosition);
      return out;
    };
    // Uploaded on A, waiting for a worker: the same line on A and on B.
    expect(await line(h.app)).toEqual([1, 2, 3]);
    expect(await line(web.app)).toEqual([1, 2, 3]);

    // A worker starts: every batch is parsed, and leaves the line on both.
    worker = await h.restarted({ afterStagedChunk });
    for (const id of ids)
      await waitFor(`batch ${id} parsed`, async () => (await progress(web.app, id)).status === 'preview', 20_000);
    expect(await line(h.app)).toEqual([undefined, undefined, undefined]);
    expect(await line(web.app)).toEqual([undefined, undefined, undefined]);
  }, 60_000);

  it('a batch uploaded on A and confirmed on B is committed once', async () => {
    const id = ids[0]!;
    const c = await on(web.app, 'order/batch/confirm', { id, confirmations: [] });
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    await waitFor('the commit', async () => (await progress(web.app, id)).status !== 'committing', 20_000);
    expect(await progress(h.app, id)).toMatchObject({ status: 'done', orderCount: 5, errorMessage: null });
    expect(await ordersOf(id)).toBe(5);
  }, 60_000);

  // Last: the worker "dies" here.
  it('a commit whose instance died: left alone while it lives, failed exactly once after its lease', async () => {
    const id = ids[1]!;
    const g = closeGate(id);
    expect((await on(h.app, 'order/batch/confirm', { id, confirmations: [] })).status).toBe(200);
    await waitFor('the commit to stage its first chunk', () => g.reached, 20_000);

    // Another worker starts while the commit runs (its start recovers nothing of it), and
    // it passes its lease and a heartbeat check after that: the owner lives, so its commit stays its own.
    const other = await secondInstance(h, { env: INSTANCES_ENV });
    expect(await leaseOutlived(other.db, 'batch-commit')).toEqual({ state: 'active', retryCount: 0 });
    expect(await batchRow(id)).toMatchObject({ status: 'committing', error_message: null });

    // Its connections to the queue go as a killed process's: the lease lapses, the other takes the job.
    await worker.jobs.abandon();
    await waitFor('the other instance to settle it', async () => (await batchRow(id)).status !== 'committing', 45_000);
    const failed = await batchRow(id);
    expect(failed).toMatchObject({ status: 'failed', parsed_key: null });
    expect(await progress(other.app, id)).toMatchObject({
      status: 'failed',
      errorMessage: expect.stringContaining('the server restarted during the import; nothing was written'),
    });
    expect(await ordersOf(id)).toBe(0);

    // The dead run wakes up (as a process cut off from the queue but not from the database might):
    // its publish finds the batch no longer committing and rolls back. Nothing is written twice.
    // Its transaction, open since its first chunk, is still open; once it has ended (rolled back, or
    // wrongly committed), what the run did is recorded.
    const before = await openTransactions();
    expect(before.n).toBeGreaterThan(0);
    g.open();
    await waitFor(
      'the dead run to end its transaction',
      async () => (await openTransactions(before.at)).n === 0,
      20_000,
    );
    expect(await batchRow(id)).toMatchObject({ status: 'failed', updated_at: failed.updated_at });
    expect(await ordersOf(id)).toBe(0);
    const events = await h.db
      .selectFrom('tracking_events as e')
      .innerJoin('orders as o', 'o.id', 'e.order_id')
      .select('e.id')
      .where('o.order_no', 'in', orderNos.get(id)!)
      .execute();
    expect(events).toEqual([]);
    expect(await h.db.selectFrom('waybill_reservations').select('id').where('batch_id', '=', id).execute()).toEqual([]);

    // The other instance goes on committing batches.
    const next = ids[2]!;
    expect((await on(other.app, 'order/batch/confirm', { id: next, confirmations: [] })).status).toBe(200);
    await waitFor('the next commit', async () => (await batchRow(next)).status !== 'committing', 20_000);
    expect(await batchRow(next)).toMatchObject({ status: 'done', order_count: 5 });
    expect(await ordersOf(next)).toBe(5);
  }, 120_000);
});

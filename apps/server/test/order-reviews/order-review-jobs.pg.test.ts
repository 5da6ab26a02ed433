import type { FastifyInstance } from 'fastify';
import { eanCheckDigit, type orderReviews as C } from '@console/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { openResponse, sealRequest } from '../aes-client.ts';
import { baseRow, fill } from '../batches/helpers.ts';
import { createHarness, type Harness, type Instance, multipart, secondInstance } from '../harness.ts';
import { aesBlob } from '../items/helpers.ts';
import { settled, waitFor } from '../support/jobs.ts';
import { heldStore, INSTANCES_ENV, leaseOutlived } from '../support/two-instances.ts';

/**
 * Issue 27: an order review's parse ran in the process that got the upload, in a parse pool of its
 * own, so a web instance parsed and a dead instance's review was lost. Now the upload queues it
 * and a worker instance parses it: enqueued on a `SERVER_ROLE=web` instance, run on the other,
 * read from either; a review whose instance died mid-parse is finished by another, exactly once,
 * after the lease. Several instances live on PostgreSQL (vitest.config.ts: `*.pg.test.ts`).
 */

/**
 * The harness's store, with its reads held at a gate while one is closed: the parse reading its
 * upload is then under way (nothing else of these tests reads a file on the harness's instance).
 */
const held = heldStore('get');

let h: Harness;
let demo: string;
let template: Buffer;
const jan = (() => {
  const d = '491000000001';
  return d + eanCheckDigit(d);
})();
beforeAll(async () => {
  h = await createHarness({ env: INSTANCES_ENV, storage: held.storage });
  held.attach(h);
  demo = await h.login('demo');
  template = (await aesBlob(h, 'orderReview/downloadTemplateExcel', {}, demo)).bytes;
});

const sheet = (prefix: string, n: number) =>
  fill(
    template,
    Array.from({ length: n }, (_, i) =>
      baseRow(i + 1, { orderNo: `${prefix}-${i}`, channel: 'JP', currency: 'CNY', quantity: 1, jan, unitPrice: 58 }),
    ),
  );

async function upload(app: FastifyInstance, file: Buffer, name: string): Promise<C.OrderReviewRow> {
  const m = multipart(sealRequest(demo, {}), { name, data: file });
  const res = await app.inject({
    method: 'POST',
    url: '/api/orderReview/create',
    headers: { 'content-type': m.contentType, authorization: `Bearer ${demo}`, aes: '1', 'accept-language': 'en' },
    payload: m.payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  return openResponse(demo, res.json()) as C.OrderReviewRow;
}
async function read(app: FastifyInstance, reviewNo: string): Promise<C.OrderReviewRow> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/orderReviews',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${demo}`, aes: '1' },
    payload: JSON.stringify(sealRequest(demo, { reviewNo })),
  });
  expect(res.statusCode, res.body).toBe(200);
  return (openResponse(demo, res.json()) as { list: C.OrderReviewRow[] }).list[0]!;
}
const ended = (r: C.OrderReviewRow) => r.parseState === 'done' || r.parseState === 'failed';
const ordersOf = async (id: number) =>
  Number(
    (
      await h.db
        .selectFrom('order_review_orders')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('review_id', '=', id)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('order reviews on the job queue, two instances on one PostgreSQL', () => {
  it('a review uploaded to a web instance is parsed by the worker and read from either', async () => {
    const web: Instance = await secondInstance(h, { env: { ...INSTANCES_ENV, SERVER_ROLE: 'web' } });
    const g = held.closeGate();
    const queued = await upload(web.app, await sheet('RJW', 5), 'web.xlsx');
    expect(queued).toMatchObject({ parseState: 'queued', orderCount: 0 });
    // The worker (the harness's instance) took it: it reads the file under the gate.
    await waitFor('the worker to take the review', () => g.reached);
    expect((await read(web.app, queued.reviewNo)).parseState).toBe('parsing');
    g.open();
    await waitFor('the parse to end', async () => ended(await read(web.app, queued.reviewNo)));
    const done = await read(web.app, queued.reviewNo);
    expect(done).toMatchObject({
      parseState: 'done',
      parseProgress: 100,
      orderCount: 5,
      itemCount: 5,
      parseError: null,
    });
    expect(await read(h.app, queued.reviewNo)).toEqual(done);
    expect(await ordersOf(queued.id)).toBe(5);
  }, 60_000);

  // Last in the file: the harness's instance "dies" here.
  it('a review whose instance died mid-parse is finished by another, exactly once, after the lease', async () => {
    const g = held.closeGate();
    const queued = await upload(h.app, await sheet('RJD', 7), 'dead.xlsx');
    await waitFor('the parse to start', () => g.reached);
    const other = await secondInstance(h, { env: INSTANCES_ENV });
    // Past its lease and a heartbeat check after it: the owner's heartbeat kept the review its own.
    expect(await leaseOutlived(other.db, 'order-review-parse')).toEqual({ state: 'active', retryCount: 0 });
    expect((await read(other.app, queued.reviewNo)).parseState).toBe('parsing');
    // Its connections go at once, as a killed process's; its job stays claimed until the lease lapses.
    await h.app.jobs.abandon();
    await waitFor('the other instance to finish it', async () => ended(await read(other.app, queued.reviewNo)), 40_000);
    await settled(other.db, 'order-review-parse', 1); // every row of the job's kind done or failed: no run of it is still to come
    expect(await read(other.app, queued.reviewNo)).toMatchObject({
      parseState: 'done',
      orderCount: 7,
      itemCount: 7,
      parseError: null,
    });
    const orders = await other.db
      .selectFrom('order_review_orders')
      .select('order_no')
      .where('review_id', '=', queued.id)
      .orderBy('seq')
      .execute();
    expect(orders.map((o) => o.order_no)).toEqual(Array.from({ length: 7 }, (_, i) => `RJD-${i}`));
  }, 90_000);
});

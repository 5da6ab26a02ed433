import type { FastifyInstance } from 'fastify';
import { eanCheckDigit, type orderReviews as C } from '@console/contract';
import { beforeAll, expect, it } from 'vitest';
import { openResponse, sealRequest } from '../aes-client.ts';
import { baseRow, fill } from '../batches/helpers.ts';
import { createHarness, type Harness, multipart } from '../harness.ts';
import { aesBlob } from '../items/helpers.ts';
import { waitFor } from '../support/jobs.ts';
import { stopTooOften } from '../support/stopped.ts';
import { heldStore, INSTANCES_ENV } from '../support/two-instances.ts';

/**
 * Issue 38, an order review's side: a parse whose runs keep being cut short (its process dies each
 * time) is not left "parsing" for good: once the queue gives up on it, the review is failed with
 * `jobStoppedTooOften`, read in the reader's language, and nothing of it written. Both engines
 * (support/stopped.ts); the parse is held under way at its reading of the upload.
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
async function read(reviewNo: string, lang = 'en'): Promise<C.OrderReviewRow> {
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/orderReviews',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${demo}`, aes: '1', 'accept-language': lang },
    payload: JSON.stringify(sealRequest(demo, { reviewNo })),
  });
  expect(res.statusCode, res.body).toBe(200);
  return (openResponse(demo, res.json()) as { list: C.OrderReviewRow[] }).list[0]!;
}

it('a parse stopped too often fails its review with the reason, in both languages', async () => {
  const g = held.closeGate();
  const file = await fill(
    template,
    [1, 2].map((i) =>
      baseRow(i, { orderNo: `RPS-${i}`, channel: 'JP', currency: 'CNY', quantity: 1, jan, unitPrice: 58 }),
    ),
  );
  const queued = await upload(h.app, file, 'stopped.xlsx');
  await waitFor('the parse under way', () => g.reached, 20_000);
  const heldRunEnded = await stopTooOften(h, 'order-review-parse');
  await waitFor('the review failed', async () => (await read(queued.reviewNo)).parseState === 'failed', 30_000);
  g.open();
  expect(await read(queued.reviewNo)).toMatchObject({ parseState: 'failed', parseProgress: 100, orderCount: 0 });
  expect((await read(queued.reviewNo)).parseError).toMatch(/^This job was stopped before it finished too many times/);
  expect((await read(queued.reviewNo, 'zh-CN')).parseError).toMatch(/^该任务多次在完成前被中断/);
  // The held run, let go, writes nothing: the review ended.
  await heldRunEnded();
  const r = await read(queued.reviewNo);
  expect(r).toMatchObject({ parseState: 'failed', orderCount: 0 });
  const orders = await h.db.selectFrom('order_review_orders').select('id').where('review_id', '=', queued.id).execute();
  expect(orders).toEqual([]);
}, 60_000);

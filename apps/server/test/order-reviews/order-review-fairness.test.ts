import type { orderReviews as C } from '@console/contract';
import { eanCheckDigit } from '@console/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStorage } from '../../src/lib/storage-config.ts';
import type { Storage } from '../../src/lib/storage.ts';
import { openResponse, sealRequest } from '../aes-client.ts';
import { baseRow, fill } from '../batches/helpers.ts';
import { createHarness, type Harness, multipart } from '../harness.ts';
import { aes, aesBlob } from '../items/helpers.ts';
import { sleep } from '../support/jobs.ts';

/**
 * Order reviews on the job queue are fair per customer (issue 27): a customer's parses are heavy
 * jobs keyed by the customer, so two of demo's held under way leave one running and one waiting,
 * and demo2's review is parsed meanwhile rather than queued behind them.
 */
async function waitFor(what: string, cond: () => boolean | Promise<boolean>, ms = 20_000) {
  for (const end = Date.now() + ms; !(await cond()); await sleep(50)) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
  }
}

/** The harness's store, with reads of the uploads named `gated-*` held until the gate opens. */
let base: Storage;
const gatedKeys = new Set<string>();
let release!: () => void;
const gate = new Promise<void>((r) => (release = r));
let reached = 0;
const held: Storage = {
  async put(data, hint, sha256) {
    const stored = await base.put(data, hint, sha256);
    if (hint.startsWith('gated-')) gatedKeys.add(stored.key);
    return stored;
  },
  async get(key) {
    if (gatedKeys.has(key)) {
      reached++;
      await gate;
    }
    return base.get(key);
  },
  stream: (key) => base.stream(key),
  remove: (key) => base.remove(key),
  check: () => base.check(),
  listOlderThan: (before) => base.listOlderThan(before),
};

let h: Harness;
let demo: string;
let demo2: string;
let template: Buffer;
beforeAll(async () => {
  h = await createHarness({ env: { JOB_POLL_SECONDS: '0.5' }, storage: held });
  base = createStorage(h.config, h.db);
  [demo, demo2] = await Promise.all([h.login('demo'), h.login('demo2')]);
  template = (await aesBlob(h, 'orderReview/downloadTemplateExcel', {}, demo)).bytes;
});
afterAll(() => release());

const sheet = (prefix: string, n: number, janBase: string) =>
  fill(
    template,
    Array.from({ length: n }, (_, i) =>
      baseRow(i + 1, {
        orderNo: `${prefix}-${i}`,
        channel: 'JP',
        currency: 'CNY',
        quantity: 1,
        jan: janBase + eanCheckDigit(janBase),
        unitPrice: 58,
      }),
    ),
  );
async function upload(token: string, file: Buffer, name: string): Promise<C.OrderReviewRow> {
  const m = multipart(sealRequest(token, {}), { name, data: file });
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/orderReview/create',
    headers: { 'content-type': m.contentType, authorization: `Bearer ${token}`, aes: '1' },
    payload: m.payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  return openResponse(token, res.json()) as C.OrderReviewRow;
}
const state = async (token: string, reviewNo: string) =>
  ((await aes(h, 'orderReviews', { reviewNo }, token)).data.list[0] as C.OrderReviewRow).parseState;

describe('order reviews, fair per customer', () => {
  it("two of demo's reviews held under way do not hold demo2's", async () => {
    const a = await upload(demo, await sheet('RVFA', 3, '491000000001'), 'gated-a.xlsx');
    const b = await upload(demo, await sheet('RVFB', 3, '491000000001'), 'gated-b.xlsx');
    await waitFor("demo's first review to start", () => reached >= 1);
    const c = await upload(demo2, await sheet('RVFC', 2, '492000000001'), 'c.xlsx');
    await waitFor("demo2's review to be parsed", async () => (await state(demo2, c.reviewNo)) === 'done');
    // demo's: one under way, the other waiting for it (never two of one customer's at once).
    expect([await state(demo, a.reviewNo), await state(demo, b.reviewNo)].sort()).toEqual(['parsing', 'queued']);
    expect(reached).toBe(1);
    release();
    await waitFor("demo's reviews to be parsed", async () =>
      [await state(demo, a.reviewNo), await state(demo, b.reviewNo)].every((s) => s === 'done'),
    );
    expect(reached).toBe(2);
  }, 60_000);
});

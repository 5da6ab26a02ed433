import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatWaybill } from '../src/domain/waybills.ts';
import { baseRow, fill, jobWorkers, settle, template, upload } from './batches/helpers.ts';
import { createHarness, type Harness, type HttpClient, listening } from './harness.ts';
import { childHolding } from './support/killed-child.ts';
import { validRecipient } from './support/orders.ts';

/**
 * Issue 26 finding 9: `kill -9` during a batch commit lost the waybill range reserved for it
 * (20,000 numbers for a batch that then failed with 0 orders). The range is reserved in a short
 * transaction of its own before the commit; now the reservation is recorded with its batch in
 * that transaction, and a commit that never lands gives it back — when it fails, or when the
 * next start (or the sweep) finds it interrupted. The counter is set back when nothing was taken
 * after the range; otherwise the range is kept and handed out again before the counter moves on.
 */
let h: Harness;
let http: HttpClient;
let demo: string;
let tpl: Buffer;
let databaseUrl: string;
let workers: ReturnType<typeof jobWorkers>;

beforeAll(async () => {
  // A short lease: on PostgreSQL the killed child's commit is taken over once it lapses.
  h = await createHarness({ env: { JOB_LEASE_SECONDS: '10', JOB_POLL_SECONDS: '0.5' } });
  demo = await h.login('demo');
  tpl = await template(h, demo, 'download/importOrder');
  http = await listening(h.app);
  databaseUrl = h.databaseUrl;
  workers = jobWorkers(h);
});

let serial = 0;
/** Uploads `n` clean rows with fresh order numbers and waits for the preview. */
async function preview(n: number) {
  const prefix = `W${++serial}x${Date.now() % 100000}`;
  const rows = Array.from({ length: n }, (_, i) =>
    baseRow(i + 1, { orderNo: `${prefix}-${String(i).padStart(6, '0')}` }),
  );
  const up = await upload(
    h,
    'order/batch/createImport',
    demo,
    { channel: 'JP' },
    { name: 'o.xlsx', data: await fill(tpl, rows) },
  );
  expect(up.status, JSON.stringify(up.body)).toBe(200);
  const p = await settle(h, demo, up.body.data.id);
  expect(p).toMatchObject({ status: 'preview', invalidRows: 0, orderCount: n });
  return p.id as number;
}
async function confirm(app: FastifyInstance, id: number) {
  const r = await app.inject({
    method: 'POST',
    url: '/api/order/batch/confirm',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${demo}` },
    payload: JSON.stringify({ id, confirmations: [] }),
  });
  expect(r.statusCode, r.body).toBe(200);
}
async function settleOn(app: FastifyInstance, id: number) {
  for (let i = 0; i < 3000; i++) {
    const r = await app.inject({
      method: 'POST',
      url: '/api/order/batch/progress',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${demo}` },
      payload: JSON.stringify({ id }),
    });
    const b = r.json().data;
    if (!['parsing', 'committing'].includes(b.status)) return b;
    await new Promise((res) => setTimeout(res, 20));
  }
  throw new Error('batch did not settle');
}
let singles = 0;
/** One order created on its own (order/createImport): its waybill number. */
async function createOne(
  send: (body: unknown) => Promise<{ status: number; body: any }> = (body) => h.post('order/createImport', body, demo),
) {
  const r = await send({
    channel: 'JP',
    orderNo: `ONE${++singles}x${Date.now()}`,
    recipient: validRecipient,
    sender: { name: 'DEMO Trading', address: 'Tokyo', phone: '03-1234-5678' },
    items: [{ jan: '4901234567894', name: '明治 奶粉', quantity: 2, unitPrice: '1500' }],
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data.waybillNo as string;
}
const waybillsOf = async (batchId: number) =>
  (await h.db.selectFrom('orders').select('waybill_no').where('batch_id', '=', batchId).execute())
    .map((o) => o.waybill_no!)
    .sort();
/** The JP segments' counters, by id. */
const counters = async () =>
  new Map(
    (await h.db.selectFrom('number_segments').selectAll().where('channel_code', '=', 'JP').execute()).map((s) => [
      s.id,
      s,
    ]),
  );
/** The numbers `count` sequences from `first` of the segment. */
const range = (seg: Parameters<typeof formatWaybill>[0], first: number, count: number) =>
  Array.from({ length: count }, (_, i) => formatWaybill(seg, first + i)).sort();
/** Which segment the numbers were drawn from, and where the counter stood before. */
async function drawnFrom(before: Awaited<ReturnType<typeof counters>>, waybill: string) {
  for (const s of (await counters()).values()) {
    const was = Number(before.get(s.id)!.next_seq);
    for (let seq = was; seq < Number(s.next_seq); seq++) if (formatWaybill(s, seq) === waybill) return { s, was };
  }
  throw new Error(`${waybill} was not drawn from a JP segment`);
}

async function noDuplicateWaybills() {
  const dup = await h.db
    .selectFrom('orders')
    .select(['waybill_no', (eb) => eb.fn.countAll<number>().as('n')])
    .where('waybill_no', 'is not', null)
    .groupBy('waybill_no')
    .having((eb) => eb.fn.countAll(), '>', 1)
    .execute();
  expect(dup).toEqual([]);
}

describe('finding 9: a commit that never lands gives its waybill range back', () => {
  it(
    'kill -9 of the committing process (a real child process), another create meanwhile: the next batch gets the range',
    { timeout: 120_000 },
    async () => {
      const n = 30;
      const id = await preview(n);
      const before = await counters();
      // The child alone runs jobs: its commit is the one killed.
      await workers.stopAll();
      const child = await childHolding(
        new URL('./support/commit-child.ts', import.meta.url),
        [databaseUrl, h.dataDir, String(id), demo],
        'staged',
      );
      await child.killHard();
      expect(
        (await h.db.selectFrom('batches').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status,
      ).toBe('committing');

      // Someone creates an order before the restart: the counter moves past the lost range.
      const single = await createOne();
      const { s: seg, was } = await drawnFrom(before, single);
      expect(single).toBe(formatWaybill(seg, was + n));

      // The restart: the killed process's commit job is run again (SQLite: at the next start;
      // PostgreSQL: by another instance once the killed one's lease lapsed), and fails the batch.
      await workers.next();
      const status = () => h.db.selectFrom('batches').select('status').where('id', '=', id).executeTakeFirstOrThrow();
      for (let t = Date.now(); (await status()).status === 'committing' && Date.now() - t < 60_000;)
        await new Promise((r) => setTimeout(r, 100));
      const failed = await h.db.selectFrom('batches').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(failed.status).toBe('failed');
      expect(await waybillsOf(id)).toEqual([]);

      // The next batch of the channel gets the killed commit's numbers: no hole.
      const next = await preview(n);
      await confirm(h.app, next);
      expect(await settleOn(h.app, next)).toMatchObject({ status: 'done', orderCount: n });
      expect(await waybillsOf(next)).toEqual(range(seg, was, n));
      // And the counter goes on from where the single create left it.
      expect(await createOne()).toBe(formatWaybill(seg, was + n + 1));
      await noDuplicateWaybills();
    },
  );

  it('a commit failing after others drew numbers: the range comes back; parallel commits and creates never share it', async () => {
    const n = 25;
    const id = await preview(n);
    const before = await counters();
    let drawnMeanwhile = '';
    const app = await workers.next({
      afterStagedChunk: async (batchId) => {
        if (batchId !== id) return;
        drawnMeanwhile = await createOne();
        throw new Error('disk on fire');
      },
    });
    await confirm(app, id);
    expect(await settleOn(app, id)).toMatchObject({ status: 'failed' });
    const { s: seg, was } = await drawnFrom(before, drawnMeanwhile);
    expect(drawnMeanwhile).toBe(formatWaybill(seg, was + n));
    const lost = range(seg, was, n);

    // Two batches of the same size and five single creates, truly in parallel on a listening server.
    const [a, b] = [await preview(n), await preview(n)];
    const confirms = [a, b].map((x) => () => http.post('order/batch/confirm', { id: x, confirmations: [] }, demo));
    const creates = Array.from(
      { length: 5 },
      () => () => createOne((body) => http.post('order/createImport', body, demo)),
    );
    const answers = await Promise.all([...confirms.map((f) => f()), ...creates.map((f) => f())]);
    expect(answers.slice(0, 2).map((r: any) => r.status)).toEqual([200, 200]);
    for (const x of [a, b]) expect(await settleOn(h.app, x)).toMatchObject({ status: 'done', orderCount: n });
    await noDuplicateWaybills();

    // The range came back once: its numbers are handed out before the counter moves on, each to
    // one order (a batch that fits takes it whole; single creates take what is left, lowest first).
    const inUse = async () =>
      (await h.db.selectFrom('orders').select('waybill_no').where('waybill_no', 'in', lost).execute())
        .map((o) => o.waybill_no!)
        .sort();
    for (let i = 0; i < n && (await inUse()).length < n; i++) expect(lost).toContain(await createOne());
    expect(await inUse()).toEqual(lost);
    await noDuplicateWaybills();
  });
});

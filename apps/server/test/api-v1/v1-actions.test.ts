import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { v1 as contract } from '@console/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness.ts';
import { pdfPages } from '../support/pdf-read.ts';
import { jpOrderBody } from '../support/orders.ts';
import { customerIdOf, makeKey, v1 } from './helpers.ts';

/**
 * Issue 39 item 3, the v1 calls on orders beyond create/get/list: cancel, intercept, the waybill
 * label PDF (one or many), tracking events and an import batch's status. Each is the console's use
 * case behind a key: the same states and error keys; never another tenant's; each call's scope.
 */
let h: Harness;
let demoKey: string;
let demo2Key: string;
let agentAll: string;
let agentDemo2: string;
let demoId: number;
let demo2Id: number;
const ALL = ['orders:read', 'orders:write', 'labels:read', 'tracking:read'];

beforeAll(async () => {
  h = await createHarness();
  const [demo, demo2, agent] = await Promise.all(['demo', 'demo2', 'agent'].map((n) => h.login(n)));
  demoId = await customerIdOf(h, 'DEMO');
  demo2Id = await customerIdOf(h, 'DEMO2');
  demoKey = (await makeKey(h, demo!, { scopes: ALL })).key;
  demo2Key = (await makeKey(h, demo2!, { scopes: ALL })).key;
  agentAll = (await makeKey(h, agent!, { scopes: ALL })).key;
  agentDemo2 = (await makeKey(h, agent!, { scopes: ALL, customerIds: [demo2Id] })).key;
});

const newOrder = async (key = demoKey, over: Record<string, unknown> = {}) => {
  const r = await v1(h.app, 'POST', 'orders', key, { body: jpOrderBody('V1X', over) });
  if (r.status !== 200) throw new Error(r.raw);
  return r.body.data as { id: number; orderNo: string; waybillNo: string };
};
const state = (id: number) =>
  h.db
    .selectFrom('orders')
    .select(['status', 'intercepted', 'print_count'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
const eventKinds = async (id: number) =>
  (await h.db.selectFrom('tracking_events').select('kind').where('order_id', '=', id).orderBy('id').execute()).map(
    (e) => e.kind,
  );

/** A label call: status, headers, and the PDF's pages when it is one. */
async function label(url: string, key: string) {
  const res = await h.app.inject({ method: 'GET', url: `/api/v1/${url}`, headers: { authorization: `Bearer ${key}` } });
  if (!String(res.headers['content-type']).includes('application/pdf')) {
    return { status: res.statusCode, json: res.json(), pages: 0 };
  }
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'v1-label-')), 'l.pdf');
  fs.writeFileSync(file, res.rawPayload);
  return { status: res.statusCode, json: null, pages: pdfPages(file) };
}

describe('cancel', () => {
  it('cancels a created order through its life; refuses with the order-life key when it cannot', async () => {
    const o = await newOrder();
    const r = await v1(h.app, 'POST', `orders/${o.id}/cancel`, demoKey, { body: { reason: 'customer changed mind' } });
    expect(r.status, r.raw).toBe(200);
    expect(r.body.data).toMatchObject({ id: o.id, status: 'cancelled' });
    expect(await state(o.id)).toMatchObject({ status: 'cancelled' });
    expect(await eventKinds(o.id)).toEqual(['cancelled']);
    const again = await v1(h.app, 'POST', `orders/${o.id}/cancel`, demoKey, { body: {} });
    expect([again.status, again.body.key]).toEqual([409, 'lifeCancelled']);
    // Received by the warehouse: too late, said with the console's key.
    const got = await newOrder();
    await h.db.updateTable('orders').set({ status: 'received' }).where('id', '=', got.id).execute();
    const late = await v1(h.app, 'POST', `orders/${got.id}/cancel`, demoKey, {
      body: {},
      headers: { 'accept-language': 'en' },
    });
    expect([late.status, late.body.key]).toEqual([409, 'lifeAlready_received']);
    expect(late.body.message).toContain(got.orderNo);
    // Intercepted: cancel the interception first.
    const held = await newOrder();
    await h.db.updateTable('orders').set({ intercepted: 1 }).where('id', '=', held.id).execute();
    const h2 = await v1(h.app, 'POST', `orders/${held.id}/cancel`, demoKey, { body: {} });
    expect([h2.status, h2.body.key]).toEqual([409, 'lifeIntercepted']);
    expect(await state(held.id)).toMatchObject({ status: 'created' });
  });
});

describe('intercept', () => {
  it("intercepts as the console's interception does (a record, the flag, an event); refuses shipped and repeated", async () => {
    const o = await newOrder();
    const r = await v1(h.app, 'POST', `orders/${o.id}/intercept`, demoKey, { body: { reason: 'wrong address' } });
    expect(r.status, r.raw).toBe(200);
    expect(r.body.data.order).toMatchObject({ id: o.id, intercepted: true });
    const rec = await h.db
      .selectFrom('order_interceptions')
      .selectAll()
      .where('id', '=', r.body.data.interceptionId)
      .executeTakeFirstOrThrow();
    expect(rec).toMatchObject({ order_id: o.id, reason: 'wrong address', customer_id: demoId });
    expect(await eventKinds(o.id)).toEqual(['intercepted']);
    const again = await v1(h.app, 'POST', `orders/${o.id}/intercept`, demoKey, { body: { reason: 'again' } });
    expect([again.status, again.body.key]).toEqual([409, 'lifeIntercepted']);
    const gone = await newOrder();
    await h.db.updateTable('orders').set({ status: 'shipped' }).where('id', '=', gone.id).execute();
    const late = await v1(h.app, 'POST', `orders/${gone.id}/intercept`, demoKey, { body: { reason: 'late' } });
    expect([late.status, late.body.key]).toEqual([409, 'lifeAlready_shipped']);
    const noReason = await v1(h.app, 'POST', `orders/${gone.id}/intercept`, demoKey, { body: {} });
    expect([noReason.status, Object.keys(noReason.body.data)]).toEqual([422, ['reason']]);
  });
});

describe('labels', () => {
  it("draws the console's waybill label and counts the print; many in one PDF; refuses as the console does", async () => {
    const a = await newOrder();
    const b = await newOrder();
    const one = await label(`orders/${a.id}/label`, demoKey);
    expect([one.status, one.pages]).toEqual([200, 1]);
    expect(await state(a.id)).toMatchObject({ status: 'printed', print_count: 1 });
    const many = await label(`labels?ids=${a.id},${b.id}`, demoKey);
    expect([many.status, many.pages]).toEqual([200, 2]);
    expect(await state(a.id)).toMatchObject({ print_count: 2 });
    const held = await newOrder();
    await h.db.updateTable('orders').set({ intercepted: 1 }).where('id', '=', held.id).execute();
    const refused = await label(`labels?ids=${b.id},${held.id}`, demoKey);
    expect([refused.status, refused.json.key, refused.json.data.refused.length]).toEqual([409, 'labelsRefused', 1]);
    expect(await state(b.id)).toMatchObject({ print_count: 1 });
    const tooMany = await label(`labels?ids=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}`, demoKey);
    expect([tooMany.status, Object.keys(tooMany.json.data)]).toEqual([422, ['query.ids']]);
  });
});

describe('tracking and batches', () => {
  it("gives an order's events, oldest first", async () => {
    const o = await newOrder();
    await v1(h.app, 'POST', `orders/${o.id}/intercept`, demoKey, { body: { reason: 'hold' } });
    const r = await v1(h.app, 'GET', `orders/${o.id}/tracking`, demoKey);
    expect(r.status, r.raw).toBe(200);
    expect(r.body.data).toMatchObject({ id: o.id, orderNo: o.orderNo, intercepted: true });
    expect(r.body.data.events.map((e: { kind: string }) => e.kind)).toEqual(['created', 'intercepted']);
  });

  it("gives an import batch's status and counts", async () => {
    const b = await h.db
      .selectFrom('batches')
      .selectAll()
      .where('customer_id', '=', demoId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const r = await v1(h.app, 'GET', `batches/${b.id}`, demoKey);
    expect(r.status, r.raw).toBe(200);
    expect(r.body.data).toMatchObject({ id: b.id, batchNo: b.batch_no, customerId: demoId, status: b.status });
    expect(Object.keys(r.body.data).sort()).toEqual(Object.keys(contract.v1Batch.shape).sort());
  });
});

describe('tenancy', () => {
  it("never lets a key act on or read another tenant's order or batch: as if it did not exist", async () => {
    const mine = await newOrder();
    const batch = await h.db
      .selectFrom('batches')
      .select('id')
      .where('customer_id', '=', demoId)
      .executeTakeFirstOrThrow();
    for (const key of [demo2Key, agentDemo2]) {
      const calls = [
        await v1(h.app, 'POST', `orders/${mine.id}/cancel`, key, { body: {} }),
        await v1(h.app, 'POST', `orders/${mine.id}/intercept`, key, { body: { reason: 'x' } }),
        await v1(h.app, 'GET', `orders/${mine.id}/tracking`, key),
        await v1(h.app, 'GET', `batches/${batch.id}`, key),
      ];
      for (const c of calls) expect([c.status, c.body.code]).toEqual([404, 404]);
      expect((await label(`orders/${mine.id}/label`, key)).status).toBe(404);
      expect((await label(`labels?ids=${mine.id}`, key)).status).toBe(404);
    }
    expect(await state(mine.id)).toEqual({ status: 'created', intercepted: 0, print_count: 0 });
    expect(await eventKinds(mine.id)).toEqual([]);
    // Mixed with the key's own: the other's is named as not found and nothing is printed.
    const theirs = await newOrder(demo2Key);
    const mixed = await label(`labels?ids=${theirs.id},${mine.id}`, demo2Key);
    expect(mixed.status).toBe(409);
    expect(await state(theirs.id)).toMatchObject({ print_count: 0 });
    // The agent's unlimited key reaches both customers' orders.
    expect((await v1(h.app, 'GET', `orders/${mine.id}/tracking`, agentAll)).status).toBe(200);
    expect((await v1(h.app, 'POST', `orders/${mine.id}/cancel`, agentAll, { body: {} })).status).toBe(200);
  });

  it('an agent key limited to a customer creates in a batch only for it', async () => {
    const r = await v1(h.app, 'POST', 'orders/batch', agentDemo2, {
      body: {
        orders: [jpOrderBody('V1AG', { customerId: demo2Id }), jpOrderBody('V1AG', { customerId: demoId })],
      },
    });
    expect(r.status, r.raw).toBe(200);
    expect(r.body.data.results.map((x: { status: string }) => x.status)).toEqual(['created', 'refused']);
    expect(Object.keys(r.body.data.results[1].error.data)).toEqual(['customerId']);
  });
});

describe('scopes', () => {
  it("refuses every new call to a key without the call's scope", async () => {
    const o = await newOrder();
    const calls: [string, 'GET' | 'POST', string, unknown][] = [
      ['orders:write', 'POST', 'orders/batch', { orders: [jpOrderBody('V1SC')] }],
      ['orders:write', 'POST', `orders/${o.id}/cancel`, {}],
      ['orders:write', 'POST', `orders/${o.id}/intercept`, { reason: 'x' }],
      ['labels:read', 'GET', `orders/${o.id}/label`, undefined],
      ['labels:read', 'GET', `labels?ids=${o.id}`, undefined],
      ['tracking:read', 'GET', `orders/${o.id}/tracking`, undefined],
      ['orders:read', 'GET', 'batches/1', undefined],
    ];
    // Every call of this file is walked.
    expect(new Set(calls.map((c) => c[2].split('?')[0]!.replace(String(o.id), '{id}').replace('/1', '/{id}')))).toEqual(
      new Set(contract.v1ActionCalls.map((c) => c.path)),
    );
    const demo = await h.login('demo');
    for (const [scope, method, url, body] of calls) {
      const key = (await makeKey(h, demo, { scopes: ALL.filter((s) => s !== scope) })).key;
      const r = await v1(h.app, method, url, key, body === undefined ? {} : { body });
      expect([url, r.status, r.body.key]).toEqual([url, 403, 'scopeMissing']);
      expect(r.body.message).toContain(scope);
    }
    expect(await state(o.id)).toEqual({ status: 'created', intercepted: 0, print_count: 0 });
  });
});

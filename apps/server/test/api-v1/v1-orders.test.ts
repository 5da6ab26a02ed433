import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness.ts';
import { jpOrderBody } from '../support/orders.ts';
import { customerIdOf, makeKey, v1 } from './helpers.ts';

/**
 * Issue 39, the v1 order calls: create (the console's single create), get by id and by order
 * number, cursor pages; tenancy (a customer's key never reads another's orders, an agent's key
 * only the customers it is limited to) and scopes on every call.
 */
let h: Harness;
let demoKey: string;
let demo2Key: string;
let readOnly: string;
let agentAll: string;
let agentDemo2: string;
let demoId: number;
let demo2Id: number;

beforeAll(async () => {
  h = await createHarness();
  const [demo, demo2, agent] = await Promise.all(['demo', 'demo2', 'agent'].map((n) => h.login(n)));
  demoId = await customerIdOf(h, 'DEMO');
  demo2Id = await customerIdOf(h, 'DEMO2');
  demoKey = (await makeKey(h, demo!)).key;
  demo2Key = (await makeKey(h, demo2!)).key;
  readOnly = (await makeKey(h, demo!, { scopes: ['orders:read'] })).key;
  agentAll = (await makeKey(h, agent!)).key;
  agentDemo2 = (await makeKey(h, agent!, { customerIds: [demo2Id] })).key;
});

describe('creating an order', () => {
  it("creates with the console's rules and answers in its envelope; its refusals are the console's", async () => {
    const body = jpOrderBody('V1A');
    const r = await v1(h.app, 'POST', 'orders', demoKey, { body });
    expect(r.status, r.raw).toBe(200);
    expect(r.body).toMatchObject({ code: 200, data: { orderNo: body.orderNo } });
    const row = await h.db.selectFrom('orders').selectAll().where('id', '=', r.body.data.id).executeTakeFirstOrThrow();
    expect(row.customer_id).toBe(demoId);
    // The same number again: the console's own refusal, 422 on orderNo.
    const again = await v1(h.app, 'POST', 'orders', demoKey, { body, headers: { 'accept-language': 'en' } });
    expect([again.status, again.body.key, Object.keys(again.body.data)]).toEqual([
      422,
      'validationFailed',
      ['orderNo'],
    ]);
    const bad = await v1(h.app, 'POST', 'orders', demoKey, { body: { ...body, orderNo: 'V1B1', items: [] } });
    expect([bad.status, Object.keys(bad.body.data)]).toEqual([422, ['items']]);
  });

  it('an agent key names one of its customers, within its limit', async () => {
    const none = await v1(h.app, 'POST', 'orders', agentAll, { body: jpOrderBody('V1G') });
    expect([none.status, Object.keys(none.body.data)]).toEqual([422, ['customerId']]);
    const outside = await v1(h.app, 'POST', 'orders', agentDemo2, { body: jpOrderBody('V1G', { customerId: demoId }) });
    expect([outside.status, Object.keys(outside.body.data)]).toEqual([422, ['customerId']]);
    const inside = await v1(h.app, 'POST', 'orders', agentDemo2, { body: jpOrderBody('V1G', { customerId: demo2Id }) });
    expect(inside.status, inside.raw).toBe(200);
  });

  it('refuses a key without orders:write', async () => {
    const r = await v1(h.app, 'POST', 'orders', readOnly, { body: jpOrderBody('V1R') });
    expect([r.status, r.body.key]).toEqual([403, 'scopeMissing']);
    expect(r.body.message).toContain('orders:write');
  });
});

describe('reading orders', () => {
  it("never gives a key another tenant's order, by id or in a list", async () => {
    const mine = await v1(h.app, 'POST', 'orders', demoKey, { body: jpOrderBody('V1T') });
    const id = mine.body.data.id as number;
    const got = await v1(h.app, 'GET', `orders/${id}`, readOnly);
    expect(got.status).toBe(200);
    expect(got.body.data).toMatchObject({ id, customerId: demoId, orderNo: mine.body.data.orderNo, status: 'created' });
    // Another customer's key and an agent's key limited to that other customer: as if it did not exist.
    for (const key of [demo2Key, agentDemo2]) {
      const r = await v1(h.app, 'GET', `orders/${id}`, key);
      expect([r.status, r.body.key]).toEqual([404, 'notFound']);
      const byNo = await v1(h.app, 'GET', `orders?orderNo=${mine.body.data.orderNo}`, key);
      expect(byNo.body.data.list).toEqual([]);
    }
    expect((await v1(h.app, 'GET', `orders/${id}`, agentAll)).status).toBe(200);
    // Every order a list gives is the key's tenant's.
    for (const [key, allowed] of [
      [demoKey, [demoId]],
      [demo2Key, [demo2Id]],
      [agentDemo2, [demo2Id]],
      [agentAll, [demoId, demo2Id]],
    ] as const) {
      const r = await v1(h.app, 'GET', 'orders?limit=200', key);
      expect(r.body.data.list.length).toBeGreaterThan(0);
      expect(new Set(r.body.data.list.map((o: { customerId: number }) => o.customerId))).toEqual(new Set(allowed));
    }
  });

  it('finds an order by its number', async () => {
    const made = await v1(h.app, 'POST', 'orders', demoKey, { body: jpOrderBody('V1N') });
    const r = await v1(h.app, 'GET', `orders?orderNo=${made.body.data.orderNo}`, demoKey);
    expect(r.body.data.list.map((o: { id: number }) => o.id)).toEqual([made.body.data.id]);
  });

  it('pages with a cursor that stays right while orders are inserted', async () => {
    const seen: number[] = [];
    let cursor: string | null = null;
    let inserted = false;
    do {
      const q: string = `orders?limit=7&status=created${cursor ? `&cursor=${cursor}` : ''}`;
      const r = await v1(h.app, 'GET', q, demoKey);
      expect(r.status, r.raw).toBe(200);
      seen.push(...r.body.data.list.map((o: { id: number }) => o.id));
      cursor = r.body.data.nextCursor;
      if (!inserted) {
        // An order made between pages comes once, at the end; none is skipped or repeated.
        h.clock.now = new Date(h.clock.now.getTime() + 1000);
        await v1(h.app, 'POST', 'orders', demoKey, { body: jpOrderBody('V1P') });
        inserted = true;
      }
    } while (cursor);
    const all = await h.db
      .selectFrom('orders')
      .select('id')
      .where('customer_id', '=', demoId)
      .where('status', '=', 'created')
      .orderBy('updated_at')
      .orderBy('id')
      .execute();
    expect(seen).toEqual(all.map((o) => o.id));
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('filters by updatedSince and channel, and refuses a bad cursor or filter in the console’s words', async () => {
    const since = new Date(h.clock.now.getTime() + 5000);
    h.clock.now = since;
    const made = await v1(h.app, 'POST', 'orders', demoKey, { body: jpOrderBody('V1S') });
    const r = await v1(
      h.app,
      'GET',
      `orders?updatedSince=${encodeURIComponent(since.toISOString())}&channel=JP`,
      demoKey,
    );
    expect(r.body.data.list.map((o: { id: number }) => o.id)).toEqual([made.body.data.id]);
    const usa = await v1(
      h.app,
      'GET',
      `orders?updatedSince=${encodeURIComponent(since.toISOString())}&channel=USA`,
      demoKey,
    );
    expect(usa.body.data.list).toEqual([]);
    const badCursor = await v1(h.app, 'GET', 'orders?cursor=bm90LWpzb24', demoKey);
    expect([badCursor.status, Object.keys(badCursor.body.data)]).toEqual([422, ['query.cursor']]);
    const badTime = await v1(h.app, 'GET', 'orders?updatedSince=yesterday', demoKey);
    expect([badTime.status, Object.keys(badTime.body.data)]).toEqual([422, ['query.updatedSince']]);
  });

  it('refuses a key without orders:read', async () => {
    const writeOnly = (await makeKey(h, await h.login('demo'), { scopes: ['orders:write'] })).key;
    for (const path of ['orders', 'orders/1']) {
      const r = await v1(h.app, 'GET', path, writeOnly);
      expect([r.status, r.body.key]).toEqual([403, 'scopeMissing']);
    }
  });
});

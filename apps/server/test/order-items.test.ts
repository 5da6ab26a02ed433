import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';
import { createOrder, jpOrderBody } from './support/orders.ts';

/**
 * Issue 11 #15: the order items page lists, adds, changes and removes items through
 * `order/items` and `order/item/*`. The server keeps the order's lock, its tenant, and at least
 * one item, also when two removals are sent at once. SQLite and PostgreSQL (TEST_DATABASE_URL).
 */
let h: Harness;
let demo: string;
let demo2: string;
let operator: string;
let base: string;

beforeAll(async () => {
  h = await createHarness();
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}/api/`;
  [demo, demo2, operator] = await Promise.all(['demo', 'demo2', 'operator'].map((n) => h.login(n)));
});

async function newOrder(items = 2) {
  const { id, waybillNo } = await createOrder(
    h.post,
    demo,
    jpOrderBody('ITM', {
      sender: { name: 'S', address: 'Tokyo', phone: '03-1234-5678' },
      items: Array.from({ length: items }, (_, i) => ({ name: `Item ${i + 1}`, quantity: 1, unitPrice: '1000' })),
    }),
  );
  const list = await h.post('order/items', { orderId: id }, demo);
  return { id, waybillNo, items: list.body.data as { id: number }[] };
}
const post = (path: string, body: unknown, token: string) =>
  fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
const itemCount = async (orderId: number) =>
  (await h.db.selectFrom('order_items').select('id').where('order_id', '=', orderId).execute()).length;

describe('order items', () => {
  it('add, change and remove an item; the total follows', async () => {
    const o = await newOrder(1);
    const add = await h.post(
      'order/item/create',
      { orderId: o.id, name: 'Extra', quantity: 2, unitPrice: '500' },
      demo,
    );
    expect(add.status).toBe(200);
    expect(add.body.data).toMatchObject({ name: 'Extra', quantity: 2, unitPrice: '500', lineNo: 2 });
    const upd = await h.post(
      'order/item/update',
      { id: add.body.data.id, name: 'Extra 2', quantity: 3, unitPrice: '500' },
      demo,
    );
    expect(upd.body.data).toMatchObject({ name: 'Extra 2', quantity: 3 });
    const total = await h.db
      .selectFrom('orders')
      .select('total_amount')
      .where('id', '=', o.id)
      .executeTakeFirstOrThrow();
    expect(Number(total.total_amount)).toBe(1000 + 1500);
    expect((await h.post('order/item/delete', { id: add.body.data.id }, demo)).status).toBe(200);
    expect(await itemCount(o.id)).toBe(1);
    // The last item stays.
    expect((await h.post('order/item/delete', { id: o.items[0]!.id }, demo)).status).toBe(409);
  });

  it('another customer sees neither the items nor can change them', async () => {
    const o = await newOrder(2);
    expect((await h.post('order/items', { orderId: o.id }, demo2)).status).toBe(404);
    expect(
      (await h.post('order/item/create', { orderId: o.id, name: 'X', quantity: 1, unitPrice: '1' }, demo2)).status,
    ).toBe(404);
    expect((await h.post('order/item/delete', { id: o.items[0]!.id }, demo2)).status).toBe(404);
    expect(await itemCount(o.id)).toBe(2);
  });

  it('a received order’s items cannot change', async () => {
    const o = await newOrder(2);
    expect((await h.post('order/orderScan', { code: o.waybillNo }, operator)).body.data.outcome).toBe('received');
    expect((await h.post('order/item/delete', { id: o.items[0]!.id }, demo)).status).toBe(409);
    expect(
      (await h.post('order/item/create', { orderId: o.id, name: 'X', quantity: 1, unitPrice: '1' }, demo)).status,
    ).toBe(409);
    expect(await itemCount(o.id)).toBe(2);
  });

  it('removing both items of a two-item order at once: one is removed, the order keeps the other', async () => {
    for (let i = 0; i < 10; i++) {
      const o = await newOrder(2);
      const results = await Promise.all(o.items.map((it) => post('order/item/delete', { id: it.id }, demo)));
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 409]);
      expect(await itemCount(o.id)).toBe(1);
    }
  });
});

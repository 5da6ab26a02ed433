import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

/**
 * Deleting an order that other records name (found while writing issue 36 #6's test): an order
 * with an export declaration or in an address batch answered 400 "a value … cannot be stored"
 * (the database's foreign key). Its declaration is its own and goes with it; a batch row keeps
 * its text; a charge on a bill must outlive it, so that delete is refused in words.
 */
let h: Harness;
let demo: string;
let customerId: number;

beforeAll(async () => {
  h = await createHarness();
  demo = await h.login('demo');
  customerId = (await h.db.selectFrom('customers').select('id').where('code', '=', 'DEMO').executeTakeFirstOrThrow())
    .id;
});

const created = () =>
  h.db
    .selectFrom('orders')
    .select(['id', 'order_no'])
    .where('customer_id', '=', customerId)
    .where('status', '=', 'created')
    .where('intercepted', '=', 0)
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom('charges').select('id').whereRef('charges.order_id', '=', 'orders.id'))),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom('shipment_orders').select('order_id').whereRef('shipment_orders.order_id', '=', 'orders.id'),
        ),
      ),
    )
    .orderBy('id')
    .execute();

describe('deleting an order other records name', () => {
  it('its export declaration goes with it', async () => {
    const [o] = await created();
    const at = new Date().toISOString();
    await h.db
      .insertInto('export_declarations')
      .values({
        order_id: o.id,
        customer_id: customerId,
        product_name: 'Green tea',
        amount_jpy: 1200,
        updated_at: at,
      } as never)
      .execute();
    const r = await h.post('order/order/delete', { ids: [o.id] }, demo);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await h.db.selectFrom('orders').select('id').where('id', '=', o.id).execute()).toEqual([]);
    expect(
      await h.db.selectFrom('export_declarations').select('order_id').where('order_id', '=', o.id).execute(),
    ).toEqual([]);
  });

  it('one with a charge on a bill is refused with its number, and nothing is deleted', async () => {
    const [, o, other] = await created();
    const at = new Date().toISOString();
    const bill = await h.db
      .insertInto('bills')
      .values({ customer_id: customerId, period: '1999-01', status: 'open', created_at: at, updated_at: at } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    await h.db
      .insertInto('charges')
      .values({
        bill_id: bill.id,
        customer_id: customerId,
        order_id: o.id,
        kind: 'freight',
        charge_key: `test-${o.id}`,
        amount_minor: 1000,
        currency: 'CNY',
        at,
      } as never)
      .execute();
    const r = await h.post('order/order/delete', { ids: [other.id, o.id] }, demo, { 'accept-language': 'en' });
    expect(r.status, JSON.stringify(r.body)).toBe(409);
    expect(r.body).toMatchObject({ key: 'orderCharged' });
    expect(r.body.message).toContain(o.order_no);
    expect(await h.db.selectFrom('orders').select('id').where('id', 'in', [o.id, other.id]).execute()).toHaveLength(2);
  });
});

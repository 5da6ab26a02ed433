import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';
import { aes, itemBody } from './items/helpers.ts';

/**
 * Issue 12 "Orders use the catalogue": `order/getItemByJan` answers from the customer's
 * approved catalogue first, says the JAN's review status, and never from another
 * customer's catalogue.
 */
let h: Harness;
let demo: string;
let demo2: string;
let operator: string;

beforeAll(async () => {
  h = await createHarness();
  [demo, demo2, operator] = await Promise.all(['demo', 'demo2', 'operator'].map((n) => h.login(n)));
});

describe('order/getItemByJan and the catalogue', () => {
  it('an approved item wins over earlier orders; pending is reported but not used; other customers see nothing', async () => {
    // A JAN demo has already ordered: the lookup first answers from those orders.
    const ordered = await h.db
      .selectFrom('order_items as i')
      .innerJoin('orders as o', 'o.id', 'i.order_id')
      .innerJoin('customers as c', 'c.id', 'o.customer_id')
      .select(['i.jan', 'i.name'])
      .where('c.code', '=', 'DEMO')
      .where('i.jan', 'is not', null)
      .executeTakeFirstOrThrow();
    const before = await h.post('order/getItemByJan', { jan: ordered.jan }, demo);
    expect(before.body.data).toMatchObject({ found: true, source: 'orders', catalogueStatus: null });

    const created = await aes(
      h,
      'item/create',
      itemBody({ jan: ordered.jan, nameZh: '目录中的名称', specs: '500ml', declarationPrice: '1280' }),
      demo,
    );
    expect(created.status).toBe(200);
    const pending = await h.post('order/getItemByJan', { jan: ordered.jan }, demo);
    expect(pending.body.data).toMatchObject({ found: true, source: 'orders', catalogueStatus: 'pending' });
    expect(pending.body.data.item.name).toBe(ordered.name);

    await aes(h, 'item/approve', { id: created.data.id }, operator);
    const approved = await h.post('order/getItemByJan', { jan: ordered.jan }, demo);
    expect(approved.body.data).toMatchObject({
      found: true,
      validJan: true,
      source: 'catalogue',
      catalogueStatus: 'approved',
      item: {
        jan: ordered.jan,
        name: '目录中的名称',
        spec: '500ml',
        unitPrice: '1280.00',
        currency: 'JPY',
        origin: 'JP',
      },
    });
    // The prices of earlier orders are still all there for the several-prices check.
    expect(approved.body.data.prices.length).toBeGreaterThan(0);

    const other = await h.post('order/getItemByJan', { jan: ordered.jan }, demo2);
    expect(other.body.data).toMatchObject({ found: false, catalogueStatus: null, source: null });
  });

  it('an approved catalogue item is found even when no order ever had its JAN', async () => {
    const c = await aes(h, 'item/create', itemBody({ nameZh: '新品' }), demo);
    const none = await h.post('order/getItemByJan', { jan: c.data.jan }, demo);
    expect(none.body.data).toMatchObject({ found: false, catalogueStatus: 'pending' });
    await aes(h, 'item/approve', { id: c.data.id }, operator);
    const found = await h.post('order/getItemByJan', { jan: c.data.jan }, demo);
    expect(found.body.data).toMatchObject({ found: true, source: 'catalogue', item: { name: '新品' } });
  });
});

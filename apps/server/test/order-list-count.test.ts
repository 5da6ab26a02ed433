/**
 * The order list's count stops at a bound that grows with the page (issue 29): "1,000+" on the
 * first pages, the exact count once the pages reach it (docs/api.md, paged answers).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { countBound } from '../src/modules/orders/orders.list.repository.ts';
import { createHarness, type Harness } from './harness.ts';

const MATCHES = 2_050;
let h: Harness;
let operator: string;
let customerId: number;

beforeAll(async () => {
  h = await createHarness();
  operator = await h.login('operator');
  const at = new Date().toISOString();
  customerId = (
    await h.db
      .insertInto('customers')
      .values({ code: 'COUNT', name: 'COUNT', agent_user_id: null, created_at: at })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const rows = Array.from({ length: MATCHES }, (_, i) => ({
    customer_id: customerId,
    channel_code: 'JP',
    order_no: `CNT${i}`,
    system_no: `SCNT${i}`,
    // 20 shipped orders: a filter well under the bound.
    status: i % 100 === 0 ? 'shipped' : 'created',
    recipient_name: '王伟',
    recipient_id_card: '11010519900101123X',
    recipient_phone: '13800000000',
    recipient_province: '浙江省',
    recipient_city: '杭州市',
    recipient_district: '西湖区',
    recipient_address: '文三路1号',
    currency: 'JPY',
    created_at: new Date(Date.UTC(2026, 10, 1) + i * 60_000).toISOString(),
    updated_at: at,
  }));
  for (let i = 0; i < rows.length; i += 500)
    await h.db
      .insertInto('orders')
      .values(rows.slice(i, i + 500))
      .execute();
});

const page = async (body: object) => {
  const r = await h.post('order/orderList', { customerId, ...body }, operator);
  expect(r.status).toBe(200);
  return r.body.data as { total: number; exact: boolean; list: { orderNo: string }[] };
};

describe('order list count', () => {
  it('says "1,000+" on the first pages and counts further as the pages go deeper', async () => {
    expect([countBound(0, 20), countBound(960, 20), countBound(980, 20), countBound(2000, 50)]).toEqual([
      1_000, 1_000, 2_000, 3_000,
    ]);
    const first = await page({ offset: 0, limit: 20 });
    expect(first).toMatchObject({ total: 1_000, exact: false });
    expect(first.list.map((o) => o.orderNo)).toEqual(Array.from({ length: 20 }, (_, i) => `CNT${MATCHES - 1 - i}`));
    // The last page under the bound still says more; the next one counts to the next bound.
    expect(await page({ offset: 960, limit: 20 })).toMatchObject({ total: 1_000, exact: false });
    expect(await page({ offset: 980, limit: 20 })).toMatchObject({ total: 2_000, exact: false });
    const last = await page({ offset: 2_000, limit: 100 });
    expect(last).toMatchObject({ total: MATCHES, exact: true });
    expect(last.list).toHaveLength(MATCHES - 2_000);
  });
  it('counts exactly under the bound', async () => {
    expect(await page({ status: 'shipped', limit: 5 })).toMatchObject({ total: Math.ceil(MATCHES / 100), exact: true });
  });
});

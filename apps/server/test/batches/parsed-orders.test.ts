import { describe, expect, it } from 'vitest';
import { type OrderInput, packOrder, unpackOrder } from '../../src/domain/order-input.ts';
import {
  decodeParsedOrders,
  encodeParsedOrders,
  ORDERS_PER_FRAME,
  parsedChannels,
} from '../../src/modules/batches/parsed-orders.ts';

/** The stored form of a preview's orders (parsed-orders.ts): what the commit reads back. */
const order = (i: number, channel: 'JP' | 'USA' = 'JP'): OrderInput => ({
  customerId: 1 + (i % 2),
  channel: channel as OrderInput['channel'],
  orderNo: `N-${i}`,
  boxNo: null,
  userRefNo: i % 3 ? null : `REF-${i}`,
  orderType: 'normal',
  exportNominationId: null,
  clearanceCompanyCode: null,
  recipient: {
    name: '王伟',
    idCard: '11010519900101123X',
    phone: '13800138000',
    email: null,
    province: '浙江省',
    city: '杭州市',
    district: '西湖区',
    street: null,
    address: `文三路 ${i} 号 \u{1F4E6}`,
    postcode: '310000',
  },
  sender: { name: 'DEMO', address: null, phone: '03-1234-5678' },
  items: [
    {
      jan: '4901234567894',
      name: '明治 奶粉',
      brand: null,
      spec: null,
      quantity: 2,
      unitPrice: 1500 + i,
      currency: 'JPY',
      origin: 'JP',
      hazardCode: null,
    },
  ],
  insuredAmount: 0,
  remark: null,
  taxEstimate: '12.30',
});

describe('parsed orders, stored between preview and commit', () => {
  it('round-trip: every order back, in order, in frames of ORDERS_PER_FRAME, counted per waybill group', () => {
    const orders = Array.from({ length: ORDERS_PER_FRAME * 2 + 7 }, (_, i) => order(i, i < 10 ? 'USA' : 'JP'));
    const { data, sha256 } = encodeParsedOrders(orders);
    expect(sha256).toMatch(/^[0-9a-f]{64}$/);
    const parsed = decodeParsedOrders(data);
    expect(parsed.total).toBe(orders.length);
    const packs = [...parsed.packs()];
    expect(packs.map((p) => p.length)).toEqual([ORDERS_PER_FRAME, ORDERS_PER_FRAME, 7]);
    expect(packs.flat().map((p) => unpackOrder(p))).toEqual(orders.map((o) => unpackOrder(packOrder(o))));
    const groups = parsed.waybills.map((g) => `${g.channel}/${g.customerId}:${g.count}`).sort();
    expect(groups).toEqual(['JP/1:1999', 'JP/2:1998', 'USA/1:5', 'USA/2:5']);
    expect(parsedChannels(data)?.sort()).toEqual(['JP', 'USA']);
  });

  it('a file stored in the earlier JSON form (before V8 frames) still decodes', () => {
    const orders = [order(1), order(2), order(3)];
    const head = {
      orders: 3,
      waybills: [
        ['JP', 2, null, 2],
        ['JP', 1, null, 1],
      ],
    };
    const legacy = Buffer.from([JSON.stringify(head), JSON.stringify(orders.map(packOrder))].join('\n'));
    const parsed = decodeParsedOrders(legacy);
    expect(parsed.total).toBe(3);
    expect(parsed.waybills).toEqual([
      { channel: 'JP', customerId: 2, numberSegmentId: null, count: 2 },
      { channel: 'JP', customerId: 1, numberSegmentId: null, count: 1 },
    ]);
    expect([...parsed.packs()].flat().map((p) => unpackOrder(p).orderNo)).toEqual(['N-1', 'N-2', 'N-3']);
    // Its channels are not read from the head: the confirm falls back to the decoded groups.
    expect(parsedChannels(legacy)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { type OrderInput, packOrder, unpackOrder } from '../src/domain/order-input.ts';

const order: OrderInput = {
  customerId: 7,
  channel: 'JP',
  orderNo: 'A-1',
  boxNo: 'BOX-1',
  userRefNo: null,
  orderType: 'normal',
  exportNominationId: 3,
  numberSegmentId: 9,
  clearanceCompanyCode: 'CC',
  recipient: {
    name: '王伟',
    idCard: '11010519900101123X',
    phone: '13800138000',
    email: 'a@b.cn',
    province: '浙江省',
    city: '杭州市',
    district: '西湖区',
    street: null,
    address: '文三路 1 号',
    postcode: '310000',
  },
  sender: { name: 'DEMO', address: null, phone: '03-1234-5678' },
  items: [
    {
      jan: '4901234567894',
      name: 'A',
      brand: null,
      spec: '1',
      quantity: 2,
      unitPrice: 500,
      currency: 'JPY',
      origin: 'JP',
      hazardCode: null,
    },
    {
      jan: null,
      name: 'B',
      brand: 'b',
      spec: null,
      quantity: 1,
      unitPrice: 1,
      currency: 'JPY',
      origin: null,
      hazardCode: 'H',
    },
  ],
  insuredAmount: 100,
  remark: 'r',
};

describe('packed orders (worker → main thread)', () => {
  it('round-trip to an equal order, with and without a chosen number segment', () => {
    expect(unpackOrder(structuredClone(packOrder(order)))).toEqual(order);
    const { numberSegmentId: _, ...without } = order;
    const back = unpackOrder(structuredClone(packOrder(without)));
    expect(back).toEqual(without);
    expect('numberSegmentId' in back).toBe(false);
  });
});

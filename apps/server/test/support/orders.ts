import { idCardCheckChar } from '@console/contract';
import type { Harness } from '../harness.ts';

/** A recipient every order rule accepts (a real GB 11643 number for an adult), for order bodies in tests. */
export const validRecipient = {
  name: '王小明',
  idCard: '11010519800101123' + idCardCheckChar('11010519800101123'),
  phone: '13812345678',
  province: '浙江省',
  city: '杭州市',
  district: '西湖区',
  address: '文三路100号',
};

let serial = 0;
/**
 * A valid JP order created through `order/createImport` as `token`; its number is `prefix`, the
 * time and a serial, so tests sharing a database never collide.
 */
export async function createJpOrder(h: Harness, token: string, prefix: string) {
  serial += 1;
  const r = await h.post(
    'order/createImport',
    {
      channel: 'JP',
      orderNo: `${prefix}${Date.now().toString(36).toUpperCase()}${serial}`,
      recipient: validRecipient,
      sender: { name: '山田商事', address: '東京都千代田区丸の内1-1-1', phone: '03-1234-5678' },
      items: [{ jan: '4901234567894', name: '明治 奶粉', quantity: 2, unitPrice: '1500' }],
      confirm: ['minorId', 'crossBorderLimit', 'multiplePricesPerJan'],
    },
    token,
  );
  if (r.status !== 200) throw new Error(`create failed: ${JSON.stringify(r.body)}`);
  return r.body.data as { id: number; orderNo: string; waybillNo: string };
}

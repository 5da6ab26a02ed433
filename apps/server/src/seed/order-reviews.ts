import { chinaDate, eanCheckDigit, idCardCheckChar } from '@console/contract';
import type { Database } from '../db/database.ts';
import type { OrderInput } from '../domain/order-input.ts';
import { createOrderReviewsRepository } from '../modules/order-reviews/order-reviews.repository.ts';
import { buildReviewRows } from '../modules/order-reviews/order-reviews.rows.ts';

/**
 * Demo order reviews for `demo` and `demo2` (embedded default only, after the demo items): a
 * pending review whose orders meet every catalogue case (approved, pending, failed, unknown
 * JAN, a price off the declared one) and a completed one with an operator's remarks. The
 * findings are the review checks' own (`buildReviewRows`).
 */
const jan = (data12: string) => data12 + eanCheckDigit(data12);
const idCard = (first17: string) => first17 + idCardCheckChar(first17);

function order(
  customerId: number,
  orderNo: string,
  items: [jan: string | null, name: string, fen: number][],
): OrderInput {
  return {
    customerId,
    channel: 'JP' as OrderInput['channel'],
    orderNo,
    boxNo: null,
    userRefNo: null,
    orderType: 'normal',
    exportNominationId: null,
    clearanceCompanyCode: null,
    recipient: {
      name: '王小明',
      idCard: idCard('31011519900101123'),
      phone: '13800138000',
      email: null,
      province: '上海市',
      city: '上海市',
      district: '浦东新区',
      street: null,
      address: '世纪大道 100 号 8 楼',
      postcode: '200120',
    },
    sender: { name: 'Demo Shop', address: '東京都港区芝公園 4-2-8', phone: '03-1234-5678' },
    items: items.map(([j, name, fen]) => ({
      jan: j,
      name,
      brand: null,
      spec: null,
      quantity: 1,
      unitPrice: fen,
      currency: 'CNY',
      origin: 'JP',
      hazardCode: null,
    })),
    insuredAmount: 0,
    remark: null,
  };
}

export async function seedDemoOrderReviews(db: Database, now: Date): Promise<void> {
  const repo = createOrderReviewsRepository(db);
  const users = await db.selectFrom('users').select(['id', 'name', 'customer_id']).execute();
  const operator = users.find((u) => u.name === 'operator')!.id;
  const day = chinaDate(now).replaceAll('-', '');
  for (const [k, name] of (['demo', 'demo2'] as const).entries()) {
    const user = users.find((u) => u.name === name)!;
    const customerId = user.customer_id!;
    // The demo items' JANs (seed/items.ts): 1, 2 and 5 approved, 3 pending, 4 failed.
    const item = (i: number) => jan(`49${k + 1}0000000${String(i).padStart(2, '0')}`);
    const reviews = [
      [
        order(customerId, `RV${k + 1}-0001`, [
          [item(1), '资生堂 洗面奶 120g', 58_00],
          [item(5), '狮王 牙膏 150g', 18_00],
        ]),
        order(customerId, `RV${k + 1}-0002`, [
          [item(2), '明治 奶粉 800g', 250_00],
          [item(3), '花王 纸尿裤 L 54片', 109_00],
        ]),
        order(customerId, `RV${k + 1}-0003`, [
          [item(4), '乐敦 眼药水 12ml', 32_00],
          [jan('4990000099990'.slice(0, 12)), '未备案商品 Undeclared item', 45_00],
        ]),
      ],
      [order(customerId, `RV${k + 1}-0101`, [[item(1), '资生堂 洗面奶 120g', 58_00]])],
    ];
    for (const [n, orders] of reviews.entries()) {
      const at = new Date(now.getTime() - (2 - n) * 3_600_000);
      const t = at.toISOString();
      const rows = await buildReviewRows(db, customerId, [orders], at);
      const completed = n === 1;
      await repo.insertReview(
        {
          review_no: `R${day}${k + 1}0000000${n + 1}`,
          customer_id: customerId,
          status: completed ? 1 : 0,
          file_id: null,
          file_name: completed ? 'review-ok.xlsx' : 'review-demo.xlsx',
          order_count: rows.orders.length,
          item_count: rows.items.length,
          flagged_orders: rows.flagged,
          row_error_count: 0,
          row_errors: '[]',
          remarks: completed ? '已核对，可以发货 / Checked, ready to ship' : null,
          completed_by: completed ? operator : null,
          completed_at: completed ? t : null,
          created_by: user.id,
          created_at: t,
          updated_at: t,
        },
        rows.orders,
        rows.items,
      );
    }
  }
}

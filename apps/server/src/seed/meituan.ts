import { eanCheckDigit, idCardCheckChar } from '@console/contract';
import type { Database } from '../db/database.ts';

/**
 * Demo rows of lane meituan for `demo` and `demo2` (embedded default only): two recipients in
 * each address book, one self-send with two tracking numbers (one arrived), and one uploaded
 * Meituan batch of three orders (one completed), so a newcomer sees each page working.
 */
export async function seedDemoMeituan(db: Database, now: Date) {
  const operator = await db.selectFrom('users').select('id').where('name', '=', 'operator').executeTakeFirstOrThrow();
  const customers = await db
    .selectFrom('users')
    .innerJoin('customers as c', 'c.id', 'users.customer_id')
    .select(['users.id as user_id', 'c.id as customer_id', 'c.code'])
    .where('users.name', 'in', ['demo', 'demo2'])
    .orderBy('c.id')
    .execute();
  const iso = now.toISOString();
  const day = iso.slice(0, 10);
  const jan = (d12: string) => d12 + eanCheckDigit(d12);
  const id = (first17: string) => first17 + idCardCheckChar(first17);
  await db.transaction().execute(async (trx) => {
    for (const [k, c] of customers.entries()) {
      const n = k + 1;
      await trx
        .insertInto('recipients')
        .values([
          {
            customer_id: c.customer_id,
            name: k ? '赵敏' : '王小明',
            id_card: id(k ? '31010119850505234' : '11010519800101123'),
            phone: k ? '13700001234' : '13812345678',
            email: null,
            province: '浙江省',
            city: '杭州市',
            district: '西湖区',
            street: null,
            address: `文三路${100 + k}号`,
            postcode: '310000',
            created_at: iso,
            updated_at: iso,
          },
          {
            customer_id: c.customer_id,
            name: k ? '周芷若' : '李华',
            id_card: id(k ? '44030419920315456' : '32010219900720345'),
            phone: k ? '13600005678' : '13900001111',
            email: null,
            province: '广东省',
            city: '深圳市',
            district: '南山区',
            street: null,
            address: `科技园${20 + k}栋`,
            postcode: '518000',
            created_at: iso,
            updated_at: iso,
          },
        ])
        .execute();

      const { id: selfSendId } = await trx
        .insertInto('self_sends')
        .values({
          customer_id: c.customer_id,
          express_company: k ? 'sagawa' : 'yamato',
          express_name: null,
          send_date: day,
          expected_pieces: 2,
          remark: null,
          created_by: c.user_id,
          created_at: iso,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('self_send_parcels')
        .values([
          {
            self_send_id: selfSendId,
            customer_id: c.customer_id,
            tracking_no: `DEMO${n}SS0001`,
            arrived_at: iso,
            storage_order_id: null,
          },
          {
            self_send_id: selfSendId,
            customer_id: c.customer_id,
            tracking_no: `DEMO${n}SS0002`,
            arrived_at: null,
            storage_order_id: null,
          },
        ])
        .execute();

      const batch = `MT${day.replaceAll('-', '')}DEMO${n}`;
      for (let i = 1; i <= 3; i++) {
        const done = i === 1;
        const { id: orderId } = await trx
          .insertInto('meituan_orders')
          .values({
            customer_id: c.customer_id,
            system_no: `SYS-${c.code}-${i}`,
            meituan_no: `MT${n}0000${i}`,
            express_no: `77${n}00000000${i}`,
            order_ref: `OID-${c.code}-${i}`,
            receiver_name: i === 2 ? '韩梅梅' : '李雷',
            receiver_address: '上海市浦东新区世纪大道100号',
            receiver_phone: '13900002222',
            status: done ? 1 : 0,
            operation_location: i === 3 ? 'osaka' : 'tokyo',
            batch_number: batch,
            item_count: 3,
            total_fen: 2 * 3550 + 1000,
            created_by: c.user_id,
            created_at: iso,
            completed_at: done ? iso : null,
            completed_by: done ? operator.id : null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('meituan_order_items')
          .values([
            {
              meituan_order_id: orderId,
              barcode: jan('490123456789'),
              name: '抹茶饼干',
              specs: '12枚',
              price_fen: 3550,
              count: 2,
            },
            {
              meituan_order_id: orderId,
              barcode: jan('450000000001'),
              name: '绿茶',
              specs: null,
              price_fen: 1000,
              count: 1,
            },
          ])
          .execute();
      }
    }
  });
}

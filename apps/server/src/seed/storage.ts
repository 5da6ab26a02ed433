import type { Database } from '../db/database.ts';
import { demoWeightG } from './bills.ts';

/**
 * Demo storage orders and shipments for `demo` and `demo2` (embedded default only, after the
 * demo orders). They record the history the demo orders already have: the orders the seed made
 * received (or further) came in through a storage order the warehouse (the demo operator) entered
 * for each customer — receiving and weighing are the warehouse's (issue 26) — with one unknown
 * waybill and one scanned twice refused beside them, and the shipped ones left in a shipment.
 * No order changes here: their statuses and tracking events are the seed's.
 */
export async function seedDemoStorage(db: Database, now: Date) {
  const operator = await db.selectFrom('users').select('id').where('name', '=', 'operator').executeTakeFirstOrThrow();
  const customers = await db
    .selectFrom('users')
    .innerJoin('customers as c', 'c.id', 'users.customer_id')
    .select(['users.id as user_id', 'c.id as customer_id', 'c.code'])
    .where('users.name', 'in', ['demo', 'demo2'])
    .orderBy('c.id')
    .execute();
  const day = now.toISOString().slice(0, 10).replaceAll('-', '');
  await db.transaction().execute(async (trx) => {
    for (const [k, c] of customers.entries()) {
      const orders = await trx
        .selectFrom('orders')
        .select(['id', 'waybill_no', 'status', 'received_at'])
        .where('customer_id', '=', c.customer_id)
        .where('status', 'in', ['received', 'shipped', 'released'])
        .where('waybill_no', 'is not', null)
        .orderBy('id')
        .limit(8)
        .execute();
      if (!orders.length) continue;
      const at = orders[0]!.received_at ?? now.toISOString();
      const lines = [
        ...orders.map((o) => ({
          code: o.waybill_no!,
          order_id: o.id,
          outcome: 'received',
          message_key: 'storageReceived',
          // Weighed at the scan: the weight the bills seed gives the order.
          gross_weight_g: demoWeightG(o.id),
        })),
        {
          code: `NOSUCH${k + 1}0001`,
          order_id: null,
          outcome: 'notFound',
          message_key: 'storageNotFound',
          gross_weight_g: null,
        },
        {
          code: orders[0]!.waybill_no!,
          order_id: orders[0]!.id,
          outcome: 'duplicate',
          message_key: 'storageDuplicate',
          gross_weight_g: null,
        },
      ];
      const so = await trx
        .insertInto('storage_orders')
        .values({
          storage_no: `SO${day}DEMO${k + 1}`,
          customer_id: c.customer_id,
          method: 'entry',
          origin: k ? 'selfSend' : 'pickup',
          line_count: lines.length,
          received_count: orders.length,
          refused_count: lines.length - orders.length,
          file_name: null,
          created_by: operator.id,
          created_at: at,
          updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('storage_order_lines')
        .values(lines.map((l) => ({ ...l, storage_order_id: so.id, created_at: at })))
        .execute();

      const shipped = await trx
        .selectFrom('orders')
        .select(['id', 'shipped_at'])
        .where('customer_id', '=', c.customer_id)
        .where('status', 'in', ['shipped', 'released'])
        .orderBy('id')
        .limit(5)
        .execute();
      if (!shipped.length) continue;
      const sh = await trx
        .insertInto('shipments')
        .values({
          shipment_no: `SH${day}DEMO${k + 1}`,
          method: 'batch',
          order_count: shipped.length,
          created_by: operator.id,
          created_at: at,
          updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('shipment_orders')
        .values(shipped.map((o) => ({ shipment_id: sh.id, order_id: o.id, created_at: at })))
        .execute();
    }
  });
}

import type { Database } from '../db/database.ts';

/**
 * Demo export declarations (issue 15) for `demo` and `demo2`, embedded default only (server.ts,
 * after the demo data; not part of `seedDemo`, so the server tests' order counts stay as they
 * were). The demo orders are all under JPY 200,000, so each customer gets declarable Japan parcels
 * of its own, copied from one of its JP orders with dearer lines: one declared, one not yet, and
 * for `demo` one under the threshold it chose to declare anyway.
 */
export async function seedDemoDeclarations(db: Database, now: Date) {
  const customers = await db
    .selectFrom('users')
    .innerJoin('customers as c', 'c.id', 'users.customer_id')
    .select(['users.id as user_id', 'users.name', 'c.id as customer_id'])
    .where('users.name', 'in', ['demo', 'demo2'])
    .orderBy('c.id')
    .execute();
  const at = now.toISOString();
  await db.transaction().execute(async (trx) => {
    for (const c of customers) {
      const model = await trx
        .selectFrom('orders')
        .selectAll()
        .where('customer_id', '=', c.customer_id)
        .where('currency', '=', 'JPY')
        .where('export_nomination_id', 'is not', null)
        .orderBy('id')
        .executeTakeFirst();
      const fallback =
        model ??
        (await trx
          .selectFrom('orders')
          .selectAll()
          .where('customer_id', '=', c.customer_id)
          .where('currency', '=', 'JPY')
          .orderBy('id')
          .executeTakeFirst());
      if (!fallback) continue;
      const nomination =
        fallback.export_nomination_id ??
        (
          await trx
            .selectFrom('export_nominations')
            .select('id')
            .where('customer_id', '=', c.customer_id)
            .where('deleted_at', 'is', null)
            .orderBy('id')
            .executeTakeFirst()
        )?.id ??
        null;
      const prefix = c.name === 'demo' ? 'DMX' : 'D2X';
      const plans =
        c.name === 'demo'
          ? [
              { price: 98_000, qty: 3, declare: { name: 'Wristwatch', amount: 294_000 } },
              { price: 75_000, qty: 4, declare: null },
              { price: 45_000, qty: 2, declare: { name: 'Camera lens', amount: 90_000 } },
            ]
          : [
              { price: 120_000, qty: 2, declare: { name: 'Handbag', amount: 240_000 } },
              { price: 66_000, qty: 4, declare: null },
            ];
      for (const [k, p] of plans.entries()) {
        const { id: _id, ...rest } = fallback;
        const no = `${prefix}${String(100001 + k)}`;
        const order = await trx
          .insertInto('orders')
          .values({
            ...rest,
            batch_id: null,
            order_no: no,
            waybill_no: `${prefix}W${String(100001 + k)}JP`,
            split_waybill_no: null,
            system_no: `${prefix}S${String(100001 + k)}`,
            export_nomination_id: nomination,
            status: 'created',
            intercepted: 0,
            released: 0,
            print_count: 0,
            print_flag: 0,
            error_reason: null,
            error_at: null,
            abnormal_rule: null,
            abnormal_reason: null,
            abnormal_at: null,
            currency: 'JPY',
            total_amount: p.price * p.qty,
            tax_estimate: null,
            created_at: at,
            updated_at: at,
            received_at: null,
            shipped_at: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('order_items')
          .values({
            order_id: order.id,
            line_no: 1,
            jan: null,
            name: p.declare?.name ?? 'Designer goods',
            brand: null,
            spec: '1件',
            quantity: p.qty,
            unit_price: p.price,
            currency: 'JPY',
            origin: 'JP',
            hazard_code: null,
          })
          .execute();
        if (p.declare)
          await trx
            .insertInto('export_declarations')
            .values({
              order_id: order.id,
              customer_id: c.customer_id,
              product_name: p.declare.name,
              amount_jpy: p.declare.amount,
              updated_by: c.user_id,
              updated_at: at,
            })
            .execute();
      }
    }
  });
}

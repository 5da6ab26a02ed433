import type { Database } from '../db/database.ts';

/**
 * A demo address-modification batch for `demo` and `demo2` (embedded default only, after the
 * demo orders): a dry run left as a draft, so the Modify Address pages show a batch with its
 * old and new addresses, one order refused as already shipped and one number not found. No
 * order changes here (other pages count the seed's orders); confirming it on the page applies it.
 */
export async function seedDemoLabelB(db: Database, now: Date) {
  const customers = await db
    .selectFrom('users')
    .innerJoin('customers as c', 'c.id', 'users.customer_id')
    .select(['users.id as user_id', 'c.id as customer_id'])
    .where('users.name', 'in', ['demo', 'demo2'])
    .orderBy('c.id')
    .execute();
  const iso = now.toISOString();
  const day = iso.slice(0, 10).replaceAll('-', '');
  const columns = [
    'id',
    'order_no',
    'status',
    'recipient_name',
    'recipient_phone',
    'recipient_province',
    'recipient_city',
    'recipient_district',
    'recipient_address',
  ] as const;
  await db.transaction().execute(async (trx) => {
    for (const [k, c] of customers.entries()) {
      const open = await trx
        .selectFrom('orders')
        .select(columns)
        .where('customer_id', '=', c.customer_id)
        .where('status', '=', 'created')
        .where('intercepted', '=', 0)
        .orderBy('id', 'desc')
        .limit(2)
        .execute();
      const shipped = await trx
        .selectFrom('orders')
        .select(columns)
        .where('customer_id', '=', c.customer_id)
        .where('status', '=', 'shipped')
        .orderBy('id')
        .limit(1)
        .execute();
      if (!open.length) continue;
      const old = (o: (typeof open)[number]) =>
        JSON.stringify({
          name: o.recipient_name,
          phone: o.recipient_phone,
          province: o.recipient_province,
          city: o.recipient_city,
          district: o.recipient_district,
          address: o.recipient_address,
        });
      const newAddress = {
        new_name: k === 0 ? '陈新' : '赵安',
        new_phone: k === 0 ? '13700001234' : '13600005678',
        new_province: '上海市',
        new_city: '上海市',
        new_district: '浦东新区',
        new_address: k === 0 ? '世纪大道100号' : '张杨路500号',
        division_code: '310115',
      };
      const rows = [
        ...open.map((o) => ({
          order_no: o.order_no,
          order_id: o.id,
          old_address: old(o),
          ...newAddress,
          outcome: 'ok',
          reason_key: null,
          warning_key: null,
        })),
        ...shipped.map((o) => ({
          order_no: o.order_no,
          order_id: o.id,
          old_address: old(o),
          ...newAddress,
          outcome: 'refused',
          reason_key: 'lifeAlready_shipped',
          warning_key: null,
        })),
        {
          order_no: `NOSUCH${k + 1}0002`,
          order_id: null,
          old_address: null,
          ...newAddress,
          outcome: 'refused',
          reason_key: 'labelBOrderNotFound',
          warning_key: null,
        },
      ];
      const { id } = await trx
        .insertInto('label_b_batches')
        .values({
          batch_no: `LB${day}DEMO${k + 1}`,
          customer_id: c.customer_id,
          status: 'draft',
          file_name: 'demo-addresses.xlsx',
          row_count: rows.length,
          refused_count: rows.filter((r) => r.outcome === 'refused').length,
          created_by: c.user_id,
          created_at: iso,
          updated_at: iso,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('label_b_rows')
        .values(rows.map((r, i) => ({ ...r, batch_id: id, row_no: i + 2, reason_field: null })))
        .execute();
    }
  });
}

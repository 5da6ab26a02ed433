import { idCardCheckChar } from '@console/contract';
import type { Insertable } from 'kysely';
import type { Database } from '../../src/db/database.ts';
import type { DB } from '../../src/db/schema.ts';

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

let created = 0;

/**
 * A Japan-parcel single create every order rule accepts, its order number fresh under `prefix`
 * (unique within the run, whatever the clock): `over` replaces whole fields.
 */
export const jpOrderBody = (prefix: string, over: Record<string, unknown> = {}) => ({
  channel: 'JP',
  orderNo: `${prefix}${Date.now().toString(36).toUpperCase()}${++created}`,
  recipient: validRecipient,
  sender: { name: 'DEMO Trading', address: 'Tokyo', phone: '03-1234-5678' },
  items: [{ jan: '4901234567894', name: '明治 奶粉', quantity: 1, unitPrice: '1500' }],
  confirm: ['minorId', 'crossBorderLimit', 'multiplePricesPerJan'],
  ...over,
});

type Post = (path: string, body: unknown, token: string) => Promise<{ status: number; body: any }>;

/** Creates an order through the API, as a customer does (`post`: a harness's or a listening server's); any answer but 200 fails the test. */
export async function createOrder(post: Post, token: string, body: Record<string, unknown>) {
  const r = await post('order/createImport', body, token);
  if (r.status !== 200) throw new Error(`create failed: ${JSON.stringify(r.body)}`);
  return r.body.data as { id: number; orderNo: string; waybillNo: string };
}

let cloned = 0;

/**
 * `n` new orders of a customer written straight into the database (status created, in no batch,
 * untouched by the warehouse), each a copy of the customer's first order — of `channel`, if given
 * — with numbers of its own under `prefix` (order `<prefix>000001`, waybill `<prefix>W…`, system
 * `<prefix>S…`) and, with `items`, that order's items: for tests that need orders in numbers or
 * at a given state faster than creating each through the API.
 */
export async function cloneOrders(
  db: Database,
  customerId: number,
  n: number,
  prefix: string,
  opts: { channel?: string; items?: boolean; over?: Partial<Insertable<DB['orders']>> } = {},
) {
  let q = db.selectFrom('orders').selectAll().where('customer_id', '=', customerId);
  if (opts.channel) q = q.where('channel_code', '=', opts.channel);
  const { id: modelId, ...model } = await q.orderBy('id').executeTakeFirstOrThrow();
  const items = opts.items
    ? await db.selectFrom('order_items').selectAll().where('order_id', '=', modelId).execute()
    : [];
  const out: { id: number; order_no: string; waybill_no: string }[] = [];
  for (let i = 0; i < n; i++) {
    const seq = ++cloned;
    const row = await db
      .insertInto('orders')
      .values({
        ...model,
        batch_id: null,
        order_no: `${prefix}${String(seq).padStart(6, '0')}`,
        waybill_no: `${prefix}W${String(seq).padStart(9, '0')}`,
        system_no: `${prefix}S${seq}`,
        split_waybill_no: null,
        status: 'created',
        intercepted: 0,
        released: 0,
        error_at: null,
        error_reason: null,
        received_at: null,
        shipped_at: null,
        ...opts.over,
      })
      .returning(['id', 'order_no', 'waybill_no'])
      .executeTakeFirstOrThrow();
    if (items.length) {
      await db
        .insertInto('order_items')
        .values(items.map(({ id: _id, ...it }) => ({ ...it, order_id: row.id })))
        .execute();
    }
    out.push(row as (typeof out)[number]);
  }
  return out;
}

import { pageOf } from '../../db/paged.ts';
import type { meituan as C } from '@console/contract';
import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { inScope, type Scope } from '../../lib/scope.ts';
import { chinaDayStart } from '../orders/index.ts';
import type { ParsedOrder } from './meituan.sheet.ts';

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
const SORT = { createdAt: 'm.created_at', systemNo: 'm.system_no', completedAt: 'm.completed_at' } as const;
/** Values per IN list / INSERT: under both databases' bound-parameter limits. */
const CHUNK = 400;

/** SQL of Meituan reservation orders; every read goes through the caller's scope. */
export function createMeituanRepository(db: Database) {
  const filtered = (scope: Scope, f: Partial<C.MeituanFilters>) => {
    let q = inScope(
      db
        .selectFrom('meituan_orders as m')
        .innerJoin('customers as c', 'c.id', 'm.customer_id')
        .leftJoin('users as u', 'u.id', 'm.completed_by'),
      'm.customer_id',
      scope,
    );
    if (f.customerId) q = q.where('m.customer_id', '=', f.customerId);
    if (f.status !== undefined) q = q.where('m.status', '=', f.status);
    if (f.operationLocation) q = q.where('m.operation_location', '=', f.operationLocation);
    if (f.batchNumber) q = q.where('m.batch_number', '=', f.batchNumber);
    if (f.dateFrom) q = q.where('m.created_at', '>=', chinaDayStart(f.dateFrom));
    if (f.dateTo) q = q.where('m.created_at', '<', chinaDayStart(nextDay(f.dateTo)));
    if (f.number) {
      const n = f.number.trim();
      q = q.where((eb) =>
        eb.or([
          eb('m.system_no', '=', n),
          eb('m.meituan_no', '=', n),
          eb('m.express_no', '=', n),
          eb('m.order_ref', '=', n),
        ]),
      );
    }
    return q;
  };
  const columns = [
    'm.id',
    'm.customer_id',
    'c.code as customer_code',
    'm.system_no',
    'm.meituan_no',
    'm.express_no',
    'm.order_ref',
    'm.receiver_name',
    'm.receiver_phone',
    'm.receiver_address',
    'm.status',
    'm.operation_location',
    'm.batch_number',
    'm.item_count',
    'm.total_fen',
    'm.created_at',
    'm.completed_at',
    'u.display_name as completed_by_name',
  ] as const;

  return {
    async page(scope: Scope, f: C.MeituanListRequest) {
      const q = filtered(scope, f);
      return pageOf(q, (q) => q.select(columns).orderBy(SORT[f.sort], f.order).orderBy('m.id', f.order), f);
    },

    find: (scope: Scope, id: number) => filtered(scope, {}).where('m.id', '=', id).select(columns).executeTakeFirst(),

    items: (orderId: number) =>
      db
        .selectFrom('meituan_order_items')
        .select(['id', 'barcode', 'name', 'specs', 'price_fen', 'count'])
        .where('meituan_order_id', '=', orderId)
        .orderBy('id')
        .execute(),

    /** The system numbers among `nos` the customer uploaded before. */
    async existing(customerId: number, nos: string[]) {
      const out: string[] = [];
      for (let i = 0; i < nos.length; i += CHUNK) {
        const rows = await db
          .selectFrom('meituan_orders')
          .select('system_no')
          .where('customer_id', '=', customerId)
          .where('system_no', 'in', nos.slice(i, i + CHUNK))
          .execute();
        out.push(...rows.map((r) => r.system_no));
      }
      return out;
    },

    async insertAll(
      trx: Transaction<DB>,
      head: { customerId: number; location: string; batchNumber: string; by: number; at: string },
      orders: ParsedOrder[],
    ) {
      for (const o of orders) {
        const { id } = await trx
          .insertInto('meituan_orders')
          .values({
            customer_id: head.customerId,
            system_no: o.systemNo,
            meituan_no: o.meituanNo,
            express_no: o.expressNo,
            order_ref: o.orderRef,
            receiver_name: o.receiverName,
            receiver_address: o.receiverAddress,
            receiver_phone: o.receiverPhone,
            status: 0,
            operation_location: head.location,
            batch_number: head.batchNumber,
            item_count: o.items.reduce((s, it) => s + it.count, 0),
            total_fen: o.totalFen,
            created_by: head.by,
            created_at: head.at,
            completed_at: null,
            completed_by: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('meituan_order_items')
          .values(
            o.items.map((it) => ({
              meituan_order_id: id,
              barcode: it.barcode,
              name: it.name,
              specs: it.specs,
              price_fen: it.priceFen,
              count: it.count,
            })),
          )
          .execute();
      }
    },

    /**
     * Completes the pending orders among `ids` in scope: the status is in the statement's
     * condition, so of two operators completing one order at once exactly one completes it.
     */
    async complete(scope: Scope, ids: number[], by: number, at: string) {
      const done = await inScope(db.updateTable('meituan_orders'), 'customer_id', scope)
        .set({ status: 1, completed_at: at, completed_by: by })
        .where('id', 'in', ids)
        .where('status', '=', 0)
        .returning('id')
        .execute();
      return done.map((r) => r.id);
    },

    /** How many of `ids` exist in scope. */
    async countIn(scope: Scope, ids: number[]) {
      const { n } = await inScope(db.selectFrom('meituan_orders'), 'customer_id', scope)
        .where('id', 'in', ids)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(n);
    },

    batchNumbers: (scope: Scope) =>
      inScope(db.selectFrom('meituan_orders'), 'customer_id', scope)
        .select('batch_number')
        .select((eb) => eb.fn.max('created_at').as('last'))
        .groupBy('batch_number')
        .orderBy('last', 'desc')
        .limit(500)
        .execute(),

    /** The export's query: one row per item of the filtered orders, in the list's order. */
    forExport: (scope: Scope, f: C.MeituanFilters) =>
      filtered(scope, f)
        .innerJoin('meituan_order_items as i', 'i.meituan_order_id', 'm.id')
        .select([
          'm.system_no',
          'm.meituan_no',
          'm.express_no',
          'm.order_ref',
          'i.barcode',
          'i.name as item_name',
          'i.specs',
          'i.price_fen',
          'i.count',
          'm.receiver_name',
          'm.receiver_address',
          'm.receiver_phone',
          'm.status',
          'm.operation_location',
          'm.batch_number',
          'c.code as customer_code',
          'm.created_at',
          'm.completed_at',
        ])
        .orderBy(SORT[f.sort], f.order)
        .orderBy('m.id', f.order)
        .orderBy('i.id', 'asc')
        .compile(),
  };
}
export type MeituanRepository = ReturnType<typeof createMeituanRepository>;
export type MeituanRecord = NonNullable<Awaited<ReturnType<MeituanRepository['find']>>>;
void sql;

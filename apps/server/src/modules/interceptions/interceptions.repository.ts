import { pageOf } from '../../db/paged.ts';
import type { interceptions as C } from '@console/contract';
import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { visibleOrders } from '../../domain/order-writer.ts';
import { inScope, type Scope } from '../../lib/scope.ts';
import { chinaDayStart, numberColumn } from '../orders/index.ts';
import { rowsInOrder } from '../../db/rows-in-order.ts';

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

const SORT = {
  createdAt: 'i.created_at',
  orderNo: 'i.order_no',
  cancelledAt: 'i.cancelled_at',
} as const;

/** Every query of interception; every read goes through the caller's scope. */
export function createInterceptionsRepository(db: Database) {
  const base = (q: Database | Transaction<DB>) =>
    q
      .selectFrom('order_interceptions as i')
      .innerJoin('customers as c', 'c.id', 'i.customer_id')
      .leftJoin('orders as o', 'o.id', 'i.order_id')
      .leftJoin('users as cu', 'cu.id', 'i.created_by')
      .leftJoin('users as xu', 'xu.id', 'i.cancelled_by')
      .selectAll('i')
      .select([
        'c.code as customer_code',
        'o.waybill_no',
        'o.status as order_status',
        'cu.display_name as created_by_name',
        'xu.display_name as cancelled_by_name',
      ]);

  return {
    /**
     * The orders in scope that one of the numbers names by the kind given (each number in the
     * case entered or upper case, as scanners and the lists write them). Another tenant's
     * order is simply not among them.
     */
    async ordersByNumbers(scope: Scope, noType: C.InterceptNoType, numbers: readonly string[]) {
      const col = numberColumn[noType];
      const wanted = [...new Set(numbers.flatMap((n) => [n, n.toUpperCase()]))];
      const out: { id: number; customer_id: number; order_no: string; matched: string }[] = [];
      for (let i = 0; i < wanted.length; i += 1000) {
        const rows = await inScope(
          db
            .selectFrom('orders as o')
            .select(['o.id', 'o.customer_id', 'o.order_no', `${col} as matched`])
            .where(col, 'in', wanted.slice(i, i + 1000))
            .$call(visibleOrders(db, 'o')),
          'o.customer_id',
          scope,
        ).execute();
        out.push(...(rows as typeof out));
      }
      return out;
    },

    async insert(
      trx: Transaction<DB>,
      rows: {
        customer_id: number;
        order_id: number;
        order_no: string;
        no_type: string;
        number: string;
        reason: string;
        created_by: number;
        created_at: string;
      }[],
    ) {
      const ids: { id: number; order_id: number }[] = [];
      for (let i = 0; i < rows.length; i += 500) {
        ids.push(
          ...(await trx
            .insertInto('order_interceptions')
            .values(rows.slice(i, i + 500))
            .returning(['id', 'order_id'])
            .execute()),
        );
      }
      return ids;
    },

    find: (scope: Scope, id: number, q: Database | Transaction<DB> = db) =>
      inScope(base(q), 'i.customer_id', scope).where('i.id', '=', id).executeTakeFirst(),

    /** Marks an active interception cancelled; false when it no longer is active (a race lost). */
    async markCancelled(trx: Transaction<DB>, id: number, reason: string, by: number, at: string) {
      const r = await trx
        .updateTable('order_interceptions')
        .set({ cancel_reason: reason, cancelled_by: by, cancelled_at: at })
        .where('id', '=', id)
        .where('cancelled_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    async page(scope: Scope, f: C.InterceptionListRequest) {
      // On the interceptions alone (covering indexes, migration 2026-11-28T0100); the page's rows
      // are joined after. A join to orders here kept SQLite off those indexes: 100-150 ms for an
      // agent's page at 200,000, 0.5 ms without (bench:lists).
      let q = inScope(db.selectFrom('order_interceptions as i'), 'i.customer_id', scope);
      if (f.number) {
        const n = [f.number, f.number.toUpperCase()];
        // Each kind of number on its own index, then the union: one OR across the three columns
        // (one of them the joined order's) read every interception, 100-160 ms at 200,000 (bench:lists).
        q = q.where('i.id', 'in', (eb) =>
          eb
            .selectFrom('order_interceptions')
            .select('id')
            .where('number', 'in', n)
            .union(eb.selectFrom('order_interceptions').select('id').where('order_no', 'in', n))
            .union(
              eb
                .selectFrom('order_interceptions as n')
                .innerJoin('orders as no', 'no.id', 'n.order_id')
                .select('n.id')
                .where('no.waybill_no', 'in', n),
            ),
        );
      }
      if (f.status === 'active') q = q.where('i.cancelled_at', 'is', null);
      if (f.status === 'cancelled') q = q.where('i.cancelled_at', 'is not', null);
      if (f.customerId) q = q.where('i.customer_id', '=', f.customerId);
      if (f.dateFrom) q = q.where('i.created_at', '>=', chinaDayStart(f.dateFrom));
      if (f.dateTo) q = q.where('i.created_at', '<', chinaDayStart(nextDay(f.dateTo)));
      const { total, rows: ids } = await pageOf(
        q,
        (q) =>
          q
            .select('i.id')
            // Nulls (active ones, for "cancelled at") last both ways on both engines.
            .$if(f.sort === 'cancelledAt', (qb) => qb.orderBy(sql`case when i.cancelled_at is null then 1 else 0 end`))
            .orderBy(SORT[f.sort], f.order)
            .orderBy('i.id', f.order),
        f,
        db,
      );
      const rows = await rowsInOrder(ids, (page) => base(db).where('i.id', 'in', page).execute());
      return { total, rows };
    },
  };
}
export type InterceptionsRepository = ReturnType<typeof createInterceptionsRepository>;
export type InterceptionRecord = NonNullable<Awaited<ReturnType<InterceptionsRepository['find']>>>;

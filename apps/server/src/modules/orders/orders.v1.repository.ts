import type { Database } from '../../db/database.ts';
import { visibleOrders } from '../../domain/order-writer.ts';
import { V1_ORDER_COLUMNS } from '../../domain/v1-order.ts';
import { inScope, type Scope } from '../../lib/scope.ts';

/**
 * What the v1 API reads of an order (contract v1.ts `v1Order`), and what its actions check
 * (system number, error flag).
 */
const COLUMNS = ['o.system_no', 'o.error_at', ...V1_ORDER_COLUMNS] as const;

export interface V1OrderFilter {
  /** The position after the last order of the previous page. */
  after?: { updatedAt: string; id: number };
  updatedSince?: string;
  status?: string;
  channel?: string;
  orderNo?: string;
  customerId?: number;
  limit: number;
}

/** The SQL of the v1 order calls (issue 39): one order, and pages in (updated_at, id) order. */
export function createOrdersV1Repository(db: Database) {
  return {
    byId(scope: Scope, id: number) {
      return db
        .selectFrom('orders as o')
        .select(COLUMNS)
        .where('o.id', '=', id)
        .$call((q) => inScope(q, 'o.customer_id', scope))
        .$call(visibleOrders(db, 'o'))
        .executeTakeFirst();
    },

    /**
     * A page in (updated_at, id) order: keyset paging, so an order inserted while a client pages
     * lands after its position (never shifting what is left to read, as an offset would), and an
     * order changed meanwhile comes again later with its new time, which is what a sync wants.
     * Read through orders_customer_updated (migration 2026-12-06T2141).
     */
    page(scope: Scope, f: V1OrderFilter) {
      let q = db
        .selectFrom('orders as o')
        .select(COLUMNS)
        .$call((qb) => inScope(qb, 'o.customer_id', scope))
        .$call(visibleOrders(db, 'o'));
      if (f.customerId !== undefined) q = q.where('o.customer_id', '=', f.customerId);
      if (f.updatedSince) q = q.where('o.updated_at', '>=', f.updatedSince);
      if (f.status) q = q.where('o.status', '=', f.status);
      if (f.channel) q = q.where('o.channel_code', '=', f.channel);
      if (f.orderNo) q = q.where('o.order_no', '=', f.orderNo);
      const after = f.after;
      if (after) {
        q = q.where((eb) =>
          eb.or([
            eb('o.updated_at', '>', after.updatedAt),
            eb.and([eb('o.updated_at', '=', after.updatedAt), eb('o.id', '>', after.id)]),
          ]),
        );
      }
      return q.orderBy('o.updated_at').orderBy('o.id').limit(f.limit).execute();
    },
  };
}
export type OrdersV1Repository = ReturnType<typeof createOrdersV1Repository>;

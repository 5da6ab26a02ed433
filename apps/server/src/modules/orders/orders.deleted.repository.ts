import type { Database } from '../../db/database.ts';
import { pageTotal } from '../../db/page-total.ts';
import { inScope, type Scope } from '../../lib/scope.ts';

/**
 * The tombstones of deleted orders (issue 36 #6): the `order.delete` rows of the audit log, which
 * name the order's customer (`customer_id`) so that customer reads its own and no one else's.
 */
export function createDeletedOrdersRepository(db: Database) {
  return {
    async page(scope: Scope, f: { offset: number; limit: number; order: 'asc' | 'desc'; orderNo?: string }) {
      const filter = <Q>(q: Q): Q => {
        let out = inScope((q as any).where('action', '=', 'order.delete'), 'customer_id', scope);
        if (f.orderNo) out = out.where('target', '=', `order:${f.orderNo}`);
        return out as Q;
      };
      const list = await filter(db.selectFrom('audit_log').select(['id', 'at', 'user_name', 'customer_id', 'detail']))
        .orderBy('at', f.order)
        .orderBy('id', f.order)
        .limit(f.limit)
        .offset(f.offset)
        .execute();
      const total = await pageTotal(f.offset, f.limit, list.length, async () => {
        const { n } = await filter(
          db.selectFrom('audit_log').select((eb) => eb.fn.countAll<number>().as('n')),
        ).executeTakeFirstOrThrow();
        return Number(n);
      });
      return { total, list };
    },
  };
}

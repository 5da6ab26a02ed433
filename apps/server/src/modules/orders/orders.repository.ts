import type { Paging } from '@console/contract';
import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { chinaDay } from '../../db/dialect.ts';
import { inScope, type Scope } from '../../lib/scope.ts';

/** Columns of an order list row (joined with its customer and batch). */
export function orderListQuery(db: Database, scope: Scope) {
  return inScope(
    db
      .selectFrom('orders as o')
      .innerJoin('customers as c', 'c.id', 'o.customer_id')
      .leftJoin('batches as b', 'b.id', 'o.batch_id')
      .select([
        'o.id',
        'o.order_no',
        'o.waybill_no',
        'o.channel_code',
        'o.customer_id',
        'c.code as customer_code',
        'b.batch_no',
        'o.status',
        'o.recipient_name',
        'o.recipient_phone',
        'o.recipient_province',
        'o.recipient_city',
        'o.print_count',
        'o.print_flag',
        'o.intercepted',
        'o.released',
        'o.error_reason',
        'o.abnormal_reason',
        'o.created_at',
      ]),
    'o.customer_id',
    scope,
  );
}
export type OrderListRow = Awaited<ReturnType<ReturnType<typeof orderListQuery>['execute']>>[number];

export function createOrdersRepository(db: Database) {
  return {
    /** Orders in error (kind 'error') or abnormal and unresolved (kind 'abnormal'). */
    async attentionPage(scope: Scope, kind: 'error' | 'abnormal', p: Paging & { keyword?: string }) {
      const at = kind === 'error' ? 'o.error_at' : 'o.abnormal_at';
      let q = orderListQuery(db, scope).where(at, 'is not', null);
      if (p.keyword) q = q.where((eb) => eb.or([eb('o.order_no', '=', p.keyword!), eb('o.waybill_no', '=', p.keyword!)]));
      const { total } = await q
        .clearSelect()
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .executeTakeFirstOrThrow();
      const list = await q.orderBy(at, p.order).orderBy('o.id', p.order).offset(p.offset).limit(p.limit).execute();
      return { total: Number(total), list };
    },
    async countByStatus(scope: Scope) {
      return inScope(db.selectFrom('orders as o'), 'o.customer_id', scope)
        .select(['o.status', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('o.status')
        .execute();
    },
    async countAttention(scope: Scope) {
      return inScope(db.selectFrom('orders as o'), 'o.customer_id', scope)
        .select([
          sql<number>`sum(case when o.error_at is not null then 1 else 0 end)`.as('errors'),
          sql<number>`sum(case when o.abnormal_at is not null then 1 else 0 end)`.as('abnormal'),
        ])
        .executeTakeFirstOrThrow();
    },
    async perDay(scope: Scope, since: string) {
      const day = chinaDay(db, 'o.created_at');
      return inScope(db.selectFrom('orders as o'), 'o.customer_id', scope)
        .select([day.as('day'), (eb) => eb.fn.countAll<number>().as('n')])
        .where('o.created_at', '>=', since)
        .groupBy(day)
        .execute();
    },
  };
}

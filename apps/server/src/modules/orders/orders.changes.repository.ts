import type { Insertable, Transaction, Updateable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { recordOrderEvents } from '../../domain/order-events.ts';
import { visibleOrders } from '../../domain/order-writer.ts';
import { inScope, type Scope } from '../../lib/scope.ts';
import { CHANGEABLE_STATUSES } from './orders.repository.ts';

/** The SQL of the bulk changes (batch sender, updates): finding the orders, and the guarded apply. */
export function createOrderChangesRepository(db: Database) {
  return {
    /** The orders in scope with any of these order numbers (several customers may share one). */
    async byOrderNos(scope: Scope, orderNos: readonly string[], customerId?: number) {
      const out = [];
      for (let i = 0; i < orderNos.length; i += 500) {
        let q = inScope(
          db
            .selectFrom('orders as o')
            .innerJoin('customers as c', 'c.id', 'o.customer_id')
            .leftJoin('batches as b', 'b.id', 'o.batch_id')
            .selectAll('o')
            .select(['c.code as customer_code', 'b.batch_no', 'b.receive_status as batch_receive_status'])
            .where('o.order_no', 'in', orderNos.slice(i, i + 500))
            .$call(visibleOrders(db, 'o')),
          'o.customer_id',
          scope,
        );
        if (customerId) q = q.where('o.customer_id', '=', customerId);
        out.push(...(await q.orderBy('o.id').execute()));
      }
      return out;
    },
    async itemsOf(orderIds: readonly number[]) {
      const out = [];
      for (let i = 0; i < orderIds.length; i += 500) {
        out.push(
          ...(await db
            .selectFrom('order_items')
            .selectAll()
            .where('order_id', 'in', orderIds.slice(i, i + 500))
            .orderBy('order_id')
            .orderBy('line_no')
            .orderBy('id')
            .execute()),
        );
      }
      return out;
    },
    plan: (id: number, kind: string, userId: number) =>
      db
        .selectFrom('files')
        .select(['storage_key', 'created_at'])
        .where('id', '=', id)
        .where('kind', '=', kind)
        .where('owner_user_id', '=', userId)
        .executeTakeFirst(),
    /**
     * Writes one order's change only if it is still as the preview saw it: in scope, changeable
     * (the same statuses every other change allows) and not written since (`updated_at`).
     */
    async applyGuarded(
      trx: Transaction<DB>,
      scope: Scope,
      id: number,
      seenUpdatedAt: string,
      set: Updateable<DB['orders']>,
    ) {
      const r = await inScope(
        trx
          .updateTable('orders')
          .set(set)
          .where('id', '=', id)
          .where('updated_at', '=', seenUpdatedAt)
          .where('status', 'in', [...CHANGEABLE_STATUSES])
          .where('intercepted', '=', 0),
        'customer_id',
        scope,
      )
        .returning('id')
        .executeTakeFirst();
      return r !== undefined;
    },
    state: (trx: Transaction<DB>, id: number) =>
      trx
        .selectFrom('orders')
        .select(['id', 'order_no', 'status', 'intercepted', 'updated_at'])
        .where('id', '=', id)
        .executeTakeFirst(),
    async addEvents(trx: Transaction<DB>, events: Insertable<DB['tracking_events']>[]) {
      for (let i = 0; i < events.length; i += 500)
        await trx
          .insertInto('tracking_events')
          .values(events.slice(i, i + 500))
          .execute();
      // The webhook outbox beside the tracking events (domain/order-events.ts).
      await recordOrderEvents(
        trx,
        events.map((e) => ({ orderId: e.order_id, kind: e.kind, note: e.note ?? null })),
        String(events[0]?.at ?? ''),
      );
    },
  };
}
export type OrderChangesRepository = ReturnType<typeof createOrderChangesRepository>;

import { refusal, transition } from '../../domain/order-life.ts';
import { AppError } from '../../lib/errors.ts';
import type { Actor, Scope } from '../../lib/scope.ts';
import type { OrderWrites } from './orders.write.ts';

/**
 * Cancelling one order (issue 39, first asked by the v1 API; the console deletes instead): the
 * order life's `cancel` (created or printed, not intercepted → cancelled, a `cancelled` tracking
 * event), so the rule and its refusal keys are the ones every other move uses.
 */
export function orderCancelling(w: OrderWrites) {
  const { db, now, load } = w;
  return {
    async cancel(actor: Actor, scope: Scope, id: number, reason: string | null) {
      const o = await load(scope, id);
      // Said before writing (the same rule the guarded UPDATE checks), with the order's number.
      const early = refusal(o, 'cancel');
      if (early) throw AppError.conflict(early, { orderNo: o.order_no });
      await db.transaction().execute(async (trx) => {
        const moved = await transition(trx, 'cancel', [o.id], { at: now(), by: actor.userId, note: reason });
        // Moved meanwhile (intercepted, received): the guarded UPDATE left it, and says why.
        const r = moved.refused[0];
        if (r) throw AppError.conflict(r.key, { orderNo: r.orderNo ?? o.order_no });
      });
    },

    /** The order's trail (tracking events, oldest first) as its owner sees it in the detail. */
    async trail(scope: Scope, id: number) {
      const o = await load(scope, id);
      return { order: o, events: await w.repo.events(o.id) };
    },
  };
}

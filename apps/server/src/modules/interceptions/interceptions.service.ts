import { type ApiLanguage, ErrorCode, type interceptions as C } from '@console/contract';
import type { Database } from '../../db/database.ts';
import { transition } from '../../domain/order-life.ts';
import { AppError } from '../../lib/errors.ts';
import { translate } from '../../lib/messages.ts';
import type { Actor, Scope } from '../../lib/scope.ts';
import '../orders/index.ts';
import { createInterceptionsRepository, type InterceptionRecord } from './interceptions.repository.ts';

/**
 * Order interception: the record of what was asked (number as entered, reason, who/when, and
 * the cancellation) beside the order's own flag, which only the order's life changes
 * (domain/order-life.ts `intercept` / `cancelInterception`), in the same transaction as the
 * record. The guarded UPDATE of `transition()` decides a race with a scan or a second
 * interception: a record is written only for the orders it moved.
 */
export function createInterceptionsService(db: Database, clock: () => Date) {
  const repo = createInterceptionsRepository(db);
  const now = () => clock().toISOString();

  const present = (r: InterceptionRecord): C.InterceptionRow => ({
    id: r.id,
    orderId: r.order_id,
    orderNo: r.order_no,
    waybillNo: r.waybill_no ?? null,
    orderStatus: (r.order_status as C.InterceptionRow['orderStatus']) ?? null,
    customerId: r.customer_id,
    customerCode: r.customer_code,
    noType: r.no_type as C.InterceptNoType,
    number: r.number,
    reason: r.reason,
    status: r.cancelled_at ? 'cancelled' : 'active',
    createdBy: r.created_by_name ?? null,
    createdAt: new Date(r.created_at).toISOString(),
    cancelReason: r.cancel_reason,
    cancelledBy: r.cancelled_by_name ?? null,
    cancelledAt: r.cancelled_at ? new Date(r.cancelled_at).toISOString() : null,
  });

  return {
    async create(
      actor: Actor,
      scope: Scope,
      lang: ApiLanguage,
      p: { noType: C.InterceptNoType; numbers: string[]; reason: string },
    ) {
      const found = await repo.ordersByNumbers(scope, p.noType, p.numbers);
      const at = now();
      // A number entered names the orders whose number is it, as entered or upper-cased.
      const ordersOf = (n: string) => found.filter((o) => o.matched === n || o.matched === n.toUpperCase());
      const results: C.CreateInterceptionResponse['results'] = [];
      await db.transaction().execute(async (trx) => {
        const ids = found.map((o) => o.id);
        const moved = await transition(trx, 'intercept', ids, { at, by: actor.userId, note: p.reason });
        const done = new Set(moved.done);
        const refused = new Map(moved.refused.map((r) => [r.id, r]));
        const byOrder = new Map<number, string>();
        for (const n of p.numbers) for (const o of ordersOf(n)) if (!byOrder.has(o.id)) byOrder.set(o.id, n);
        const inserted = await repo.insert(
          trx,
          found
            .filter((o) => done.has(o.id) && byOrder.has(o.id))
            .filter((o, i, all) => all.findIndex((x) => x.id === o.id) === i)
            .map((o) => ({
              customer_id: o.customer_id,
              order_id: o.id,
              order_no: o.order_no,
              no_type: p.noType,
              number: byOrder.get(o.id)!,
              reason: p.reason,
              created_by: actor.userId,
              created_at: at,
            })),
        );
        const recordOf = new Map(inserted.map((r) => [r.order_id, r.id]));
        for (const n of p.numbers) {
          const hits = ordersOf(n).filter((o, i, all) => all.findIndex((x) => x.id === o.id) === i);
          if (!hits.length) {
            results.push({
              number: n,
              outcome: 'notFound',
              orderNo: null,
              message: translate(lang, 'interceptNumberNotFound'),
              interceptionId: null,
            });
            continue;
          }
          for (const o of hits) {
            const r = refused.get(o.id);
            const id = recordOf.get(o.id);
            results.push(
              id !== undefined && byOrder.get(o.id) === n
                ? { number: n, outcome: 'intercepted', orderNo: o.order_no, message: null, interceptionId: id }
                : {
                    number: n,
                    outcome: 'refused',
                    orderNo: o.order_no,
                    // The same order named twice in one request: the second asks what the first did.
                    message: translate(lang, r?.key ?? 'lifeIntercepted', { orderNo: o.order_no }),
                    interceptionId: null,
                  },
            );
          }
        }
        return inserted.length;
      });
      return { intercepted: results.filter((r) => r.outcome === 'intercepted').length, results };
    },

    async page(scope: Scope, p: C.InterceptionListRequest) {
      const { total, rows } = await repo.page(scope, p);
      return { total, list: rows.map(present) };
    },

    async cancel(actor: Actor, scope: Scope, lang: ApiLanguage, p: { id: number; cancelReason: string }) {
      const r = await repo.find(scope, p.id);
      // Another tenant's id is "not found", never "forbidden": ids say nothing.
      if (!r) throw new AppError(ErrorCode.NOT_FOUND, 'interceptionNotFound');
      if (r.cancelled_at) throw AppError.conflict('interceptionAlreadyCancelled');
      const at = now();
      await db.transaction().execute(async (trx) => {
        if (!(await repo.markCancelled(trx, r.id, p.cancelReason, actor.userId, at))) {
          throw AppError.conflict('interceptionAlreadyCancelled');
        }
        const moved = await transition(trx, 'cancelInterception', [r.order_id], {
          at,
          by: actor.userId,
          note: p.cancelReason,
        });
        const refused = moved.refused[0];
        if (refused) {
          throw AppError.conflict('interceptionCancelRefused', {
            reason: translate(lang, refused.key, { orderNo: refused.orderNo ?? r.order_no }),
          });
        }
      });
      return present((await repo.find(scope, r.id))!);
    },
  };
}
export type InterceptionsService = ReturnType<typeof createInterceptionsService>;

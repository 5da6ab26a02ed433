import { ErrorCode, type ParsedRequest, storageOrders as C } from '@console/contract';
import type { Database } from '../../db/database.ts';
import { fromMinor, repriceFreight } from '../../domain/pricing/index.ts';
import { audit } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import type { Actor } from '../../lib/scope.ts';
import type { StorageOrdersRepository } from './storage-orders.repository.ts';

/**
 * A re-weigh after receipt (issue 26): the warehouse's move (operators; the route's permission),
 * for a parcel weighed wrong or not at all at the scan. In one transaction: the order's measured
 * weight, the audit row, and the freight's re-pricing when it was already charged
 * (`repriceFreight`: an adjustment line, never an edit of a statement).
 */
export function createReweigh(deps: { db: Database; clock: () => Date; repo: StorageOrdersRepository }) {
  const { db, clock, repo } = deps;
  return async (actor: Actor, ip: string, input: ParsedRequest<typeof C.reweighOrder>) => {
    const at = clock();
    return db.transaction().execute(async (trx) => {
      const o = await repo.receivedWeight(trx, input.orderId);
      if (!o) throw new AppError(ErrorCode.NOT_FOUND, 'reweighOrderNotFound');
      if (o.received_at === null) throw AppError.conflict('reweighNotReceived');
      await repo.setGrossWeights(trx, [{ id: o.id, weightG: input.grossWeightG }]);
      // Language-neutral: the statement line shows it to whoever reads the bill.
      const reason = `${o.gross_weight_g ?? '-'} g → ${input.grossWeightG} g: ${input.reason}`;
      const adj = await repriceFreight(trx, o.id, input.grossWeightG, reason, at.toISOString(), actor.userId);
      const adjustment = adj
        ? {
            id: adj.id,
            amount: fromMinor(adj.amountMinor, await repo.currencyDecimals(trx, adj.currency)),
            currency: adj.currency,
          }
        : null;
      await audit(
        trx,
        { actor, ip },
        {
          action: 'order.reweigh',
          target: `order:${o.id}`,
          detail: { from: o.gross_weight_g, to: input.grossWeightG, reason: input.reason, adjustment },
        },
        at,
      );
      return { orderId: o.id, previousWeightG: o.gross_weight_g, grossWeightG: input.grossWeightG, adjustment };
    });
  };
}

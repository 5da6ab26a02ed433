import { type ApiLanguage, ErrorCode, type items as C, type ParsedRequest } from '@console/contract';
import type { Database } from '../../db/database.ts';
import { classifyDatabaseError } from '../../http/error-handler.ts';
import { AppError } from '../../lib/errors.ts';
import type { Actor, Scope } from '../../lib/scope.ts';
import { type Change, type ClearanceKey, COLUMNS, OPERATORS } from './items.fields.ts';
import type { Db, ItemRecord, ItemsRepository } from './items.repository.ts';

/** An adjustment as the item's page and the adjustment list show it. */
export function presentAdjustment(
  a: Awaited<ReturnType<ItemsRepository['adjustmentsOfItem']>>[number],
): C.AdjustmentRow {
  return {
    id: a.id,
    itemId: a.item_id,
    customerId: a.customer_id,
    customerCode: a.customer_code,
    jan: a.jan,
    itemName: a.name_zh,
    status: a.status as C.AdjustmentRow['status'],
    changes: JSON.parse(a.changes) as Change[],
    note: a.note,
    adjustedBy: a.adjusted_by_name,
    adjustedAt: a.adjusted_at,
    decidedBy: a.decided_by_name,
    decidedAt: a.decided_at,
    decisionNote: a.decision_note,
  };
}

/** What adjustments use of the item service: its repository, checks and presenter. */
export interface AdjustmentDeps {
  db: Database;
  now: () => string;
  repo: ItemsRepository;
  loadOr404: (q: Db, scope: Scope, id: number) => Promise<ItemRecord>;
  clearanceColumns: (
    fields: Partial<Record<ClearanceKey, unknown>>,
    customerId: number,
  ) => Promise<Record<string, unknown>>;
  diff: (item: ItemRecord, cols: Record<string, unknown>) => Change[];
  out: (r: ItemRecord, lang: ApiLanguage) => Promise<C.ItemRow>;
}

/**
 * An operator's adjustment of an item's clearance data, which waits for the customer to adopt
 * (apply) or reject it; one open adjustment per item.
 */
export function createItemAdjustments({ db, now, repo, loadOr404, clearanceColumns, diff, out }: AdjustmentDeps) {
  return {
    async adjust(actor: Actor, id: number, changes: C.AdjustmentChanges, note: string | undefined) {
      const at = now();
      const adjustmentId = await db
        .transaction()
        .execute(async (trx) => {
          const item = await loadOr404(trx, { all: true }, id);
          const cols = await clearanceColumns(changes, item.customer_id);
          const diffs = diff(item, cols);
          if (!diffs.length) throw AppError.field('changes', 'itemAdjustNoChange');
          if (await repo.openAdjustment(trx, id)) throw AppError.conflict('itemAdjustmentOpen');
          const adjustmentId = await repo.insertAdjustment(trx, {
            item_id: id,
            customer_id: item.customer_id,
            changes: diffs,
            note: note ?? null,
            adjusted_by: actor.userId,
            adjusted_at: at,
          });
          await repo.addEvent(trx, {
            item_id: id,
            kind: 'adjusted',
            user_id: actor.userId,
            note: note ?? null,
            status: item.status,
            changes: diffs,
            at,
          });
          return adjustmentId;
        })
        .catch((e: unknown) => {
          // Two operators at once: the one-open-adjustment index refuses the second.
          if (classifyDatabaseError(e)?.kind === 'unique') throw AppError.conflict('itemAdjustmentOpen');
          throw e;
        });
      return presentAdjustment((await repo.findAdjustment(db, { all: true }, adjustmentId))!);
    },

    async adjustments(scope: Scope, f: ParsedRequest<typeof C.itemAdjustments>) {
      const { total, rows } = await repo.adjustments(scope, f);
      return { total, list: rows.map(presentAdjustment) };
    },

    /** The customer (or its agent) adopts: the adjusted values become the item's, and it is approved. */
    async adopt(actor: Actor, scope: Scope, lang: ApiLanguage, adjustmentId: number) {
      if (OPERATORS.has(actor.role)) throw AppError.forbidden('adjustmentOperatorOnlyCustomer');
      const at = now();
      const itemId = await db.transaction().execute(async (trx) => {
        const adj = await repo.findAdjustment(trx, scope, adjustmentId);
        if (!adj) throw new AppError(ErrorCode.NOT_FOUND, 'adjustmentNotFound');
        const decided = await repo.decideAdjustment(trx, adjustmentId, {
          status: 'adopted',
          decided_by: actor.userId,
          decided_at: at,
          decision_note: null,
        });
        if (!decided) throw AppError.conflict('adjustmentNotPending');
        const changes = JSON.parse(adj.changes) as Change[];
        const cols: Record<string, unknown> = {};
        for (const c of changes) cols[COLUMNS[c.field as ClearanceKey]] = c.after;
        await repo.update(trx, adj.item_id, { ...cols, status: 'approved', reason: null, updated_at: at });
        await repo.addEvent(trx, {
          item_id: adj.item_id,
          kind: 'adopted',
          user_id: actor.userId,
          note: null,
          status: 'approved',
          changes,
          at,
        });
        return adj.item_id;
      });
      return out((await repo.find(db, scope, itemId))!, lang);
    },

    async reject(actor: Actor, scope: Scope, adjustmentId: number, reason: string | undefined) {
      if (OPERATORS.has(actor.role)) throw AppError.forbidden('adjustmentOperatorOnlyCustomer');
      const at = now();
      await db.transaction().execute(async (trx) => {
        const adj = await repo.findAdjustment(trx, scope, adjustmentId);
        if (!adj) throw new AppError(ErrorCode.NOT_FOUND, 'adjustmentNotFound');
        const decided = await repo.decideAdjustment(trx, adjustmentId, {
          status: 'rejected',
          decided_by: actor.userId,
          decided_at: at,
          decision_note: reason ?? null,
        });
        if (!decided) throw AppError.conflict('adjustmentNotPending');
        const item = await loadOr404(trx, scope, adj.item_id);
        await repo.addEvent(trx, {
          item_id: adj.item_id,
          kind: 'rejected',
          user_id: actor.userId,
          note: reason ?? null,
          status: item.status,
          changes: [],
          at,
        });
      });
      return presentAdjustment((await repo.findAdjustment(db, scope, adjustmentId))!);
    },
  };
}

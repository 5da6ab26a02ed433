import { type ApiLanguage, ErrorCode, orders } from '@console/contract';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { OrderInput } from '../../domain/order-input.ts';
import { itemRow } from '../../domain/order-writer.ts';
import { audit, type AuditWho } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import { StaleVersion, versionedSave } from '../../lib/versions.ts';
import type { StaffWrite } from '../../lib/staff-writes.ts';
import type { Actor, Scope } from '../../lib/scope.ts';
import { presentItem } from './orders.presenter.ts';
import { DELETABLE_STATUSES, type Guard, type OrderFlag } from './orders.repository.ts';
import type { OrderFinding } from './orders.find.ts';
import { type Confirm, type OrderWrites, type Req, lockKey } from './orders.write.ts';

/** One line of an order created, changed or deleted on its own (`order/item/*`). */
type ItemChange =
  | { kind: 'create'; orderId: number; item: orders.ItemInputOut; confirm: Confirm; orderVersion?: number }
  | { kind: 'update'; id: number; item: orders.ItemInputOut; confirm: Confirm; orderVersion?: number }
  | { kind: 'delete'; id: number };

/** Changing orders: the edit form, items one at a time, deletes and the list's flags. */
export function orderEdits(w: OrderWrites, detail: OrderFinding['detail']) {
  const {
    db,
    repo,
    now,
    validationContext,
    load,
    assertChangeable,
    refuse,
    toItems,
    money,
    inputOf,
    writeChanged,
    event,
  } = w;
  return {
    async update(actor: Actor, scope: Scope, lang: ApiLanguage, p: Req<typeof orders.orderUpdate>, staff?: StaffWrite) {
      return versionedSave(
        () => this.writeUpdate(actor, scope, lang, p, staff),
        () => detail(scope, lang, p.id),
      );
    },
    async writeUpdate(
      actor: Actor,
      scope: Scope,
      lang: ApiLanguage,
      p: Req<typeof orders.orderUpdate>,
      staff?: StaffWrite,
    ) {
      const o = await load(scope, p.id);
      assertChangeable(o);
      // Refused before any validation: the user's values were entered over a record that is gone.
      if (p.version !== undefined && p.version !== o.version) throw new StaleVersion();
      const ctx = await validationContext();
      const current = inputOf(o, await repo.items(o.id));
      const next: OrderInput = {
        ...current,
        userRefNo: p.userRefNo,
        orderType: p.orderType ?? current.orderType,
        clearanceCompanyCode: p.clearanceCompany,
        recipient: p.recipient,
        sender: p.sender,
        insuredAmount: money(p.insuredAmount, o.currency, ctx, 'insuredAmount'),
        remark: p.remark,
        items: p.items ? toItems(p.items, o.currency, ctx) : current.items,
      };
      const w = await writeChanged(actor, lang, o, current, next, p.confirm, ctx, {
        replaceItems: !!p.items,
        version: p.version,
        staff,
      });
      return { id: o.id, version: w.version, warnings: w.warnings, taxEstimate: w.taxEstimate };
    },
    async remove(who: AuditWho, scope: Scope, requested: number[]) {
      const ids = [...new Set(requested)];
      const rows = await repo.idsInScope(scope, ids);
      const missing = ids.filter((id) => !rows.some((r) => r.id === id));
      if (missing.length) throw new AppError(ErrorCode.NOT_FOUND, 'orderNotFound', { ids: missing });
      for (const r of rows) {
        const key = lockKey(r);
        if (key && key !== 'orderLockedCancelled') throw AppError.conflict(key, { orderNo: r.order_no });
      }
      // A bill's charge and a shipment's line name the order: refused in words, where the database's
      // foreign key answered "a value … cannot be stored".
      const kept = await repo.kept(ids);
      for (const r of rows) {
        if (kept.charged.has(r.id)) throw AppError.conflict('orderCharged', { orderNo: r.order_no });
        if (kept.shipped.has(r.id)) throw AppError.conflict('orderLockedShipped', { orderNo: r.order_no });
      }
      // The checks above give the reason early; the claim is what makes it safe: a parcel scanned
      // (or an order deleted by another call) meanwhile is not claimed, and nothing is deleted.
      const guard: Guard = { statuses: DELETABLE_STATUSES };
      const deleted = await db.transaction().execute(async (trx) => {
        const claimed = await repo.claim(trx, ids, guard, now());
        if (claimed.length !== ids.length) await refuse(ids, claimed, guard);
        // A tombstone per order, whoever deletes it: a deleted order's events go with it, so this
        // row is what says it existed, whose it was and who removed it.
        const at = now();
        for (const t of await repo.tombstones(trx, claimed))
          await audit(
            trx,
            who,
            {
              action: 'order.delete',
              target: `order:${t.order_no}`,
              customerId: t.customer_id,
              detail: {
                customerId: t.customer_id,
                orderNo: t.order_no,
                waybillNo: t.waybill_no,
                systemNo: t.system_no,
                status: t.status,
                channel: t.channel_code,
                createdAt: t.created_at,
              },
            },
            new Date(at),
          );
        return repo.deleteClaimed(trx, claimed);
      });
      return { deleted };
    },
    async itemChange(actor: Actor, scope: Scope, lang: ApiLanguage, op: ItemChange, staff?: StaffWrite) {
      let orderId: number;
      if (op.kind === 'create') orderId = op.orderId;
      else {
        const row = await repo.itemOrder(op.id);
        if (!row) throw new AppError(ErrorCode.NOT_FOUND, 'itemNotFound');
        orderId = row.order_id;
      }
      // A line saved from the order's version the page was loaded from: stale is a 409 with the order now.
      return versionedSave(
        () => this.writeItemChange(actor, scope, lang, op, orderId, staff),
        () => detail(scope, lang, orderId),
      );
    },
    async writeItemChange(
      actor: Actor,
      scope: Scope,
      lang: ApiLanguage,
      op: ItemChange,
      orderId: number,
      staff?: StaffWrite,
    ) {
      const version = op.kind === 'delete' ? undefined : op.orderVersion;
      // An item of an order outside the scope is reported exactly like a missing one. The recipient
      // does not change here, so a minor's ID confirmed when the order was written is not asked again.
      const o = await repo.find(scope, orderId);
      if (!o) throw new AppError(ErrorCode.NOT_FOUND, op.kind === 'create' ? 'orderNotFound' : 'itemNotFound');
      assertChangeable(o);
      if (version !== undefined && version !== o.version) throw new StaleVersion();
      const ctx = await validationContext();
      const rows = await repo.items(o.id);
      const current = inputOf(o, rows);
      let items = current.items;
      // Targeted writes keep the other items' ids stable for the console.
      let write: (trx: Transaction<DB>) => Promise<void>;
      let itemId = 0;
      if (op.kind === 'delete') {
        if (rows.length <= 1) throw AppError.conflict('lastItem');
        items = items.filter((_, i) => rows[i]!.id !== op.id);
        // Counted again after the claim, which waits for any other writer of this order: two
        // removals sent at once each saw two items before it, and on PostgreSQL both won.
        write = async (trx) => {
          const left = await repo.deleteItem(trx, op.id, o.id);
          if (left < 1) throw AppError.conflict('lastItem');
        };
      } else {
        const [it] = toItems([op.item], o.currency, ctx);
        if (op.kind === 'create') {
          items = [...items, it!];
          const lineNo = Math.max(0, ...rows.map((r) => r.line_no)) + 1;
          write = async (trx) => {
            itemId = await repo.insertItem(trx, itemRow(o.id, lineNo, it!));
          };
        } else {
          const index = rows.findIndex((r) => r.id === op.id);
          items = items.map((x, i) => (i === index ? it! : x));
          itemId = op.id;
          const { order_id: _o, line_no: _l, ...changes } = itemRow(o.id, 0, it!);
          write = (trx) => repo.updateItem(trx, op.id, changes);
        }
      }
      await writeChanged(
        actor,
        lang,
        o,
        current,
        { ...current, items },
        op.kind === 'delete' ? ['minorId', 'multiplePricesPerJan', 'crossBorderLimit'] : ['minorId', ...op.confirm],
        ctx,
        { itemsWrite: write, version, staff },
      );
      if (op.kind === 'delete') return null;
      const after = await repo.item(itemId);
      return presentItem(after, ctx.currencies);
    },
    /**
     * A flag set by hand. No status guard: the spec names no statuses for it. The order's own
     * audit, as for its other changes: an `updated` event (who, when, which flag) in the same
     * transaction; the public tracking page leaves such events out.
     */
    async setFlag(actor: Actor, scope: Scope, ids: number[], flag: OrderFlag, value: boolean) {
      const rows = await repo.idsInScope(scope, ids);
      if (!rows.length) throw new AppError(ErrorCode.NOT_FOUND, 'orderNotFound');
      const inScope = rows.map((x) => x.id);
      const updated = await db.transaction().execute(async (trx) => {
        const n = await repo.setFlag(trx, inScope, flag, value, now());
        await repo.addEvents(
          trx,
          inScope.map((id) => event(id, 'updated', actor, `${flag}=${value}`)),
        );
        return n;
      });
      return { updated };
    },
  };
}

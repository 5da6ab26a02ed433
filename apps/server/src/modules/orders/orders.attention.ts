import { type ApiLanguage, ErrorCode, orders } from '@console/contract';
import { validateOrder } from '../../domain/order-input.ts';
import { audit, type AuditWho } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import { translate } from '../../lib/messages.ts';
import { storedReasonText } from '../../lib/reasons.ts';
import type { Actor, Scope } from '../../lib/scope.ts';
import {
  ABNORMAL_RULES,
  enabledAbnormalRules,
  saveAbnormalRule,
  SAME_RECIPIENT_MAX,
} from '../../domain/order-checks.ts';
import { presentOrderRow } from './orders.presenter.ts';
import { SHIPPED_FIX_FIELDS, standingAfterBoxFix, standingErrors } from './order-errors.ts';
import { transition } from '../../domain/order-life.ts';
import { CHANGEABLE_STATUSES, type Guard } from './orders.repository.ts';
import { OPERATOR_ROLES, type OrderWrites, type Req } from './orders.write.ts';

/** Orders that need attention: error orders fixed or re-checked, abnormal orders and their rules. */
export function orderAttention(w: OrderWrites) {
  const {
    db,
    clock,
    repo,
    now,
    validationContext,
    load,
    assertChangeable,
    refuse,
    SHIPPED_ERROR,
    inputOf,
    event,
    writeChanged,
  } = w;
  return {
    // ---- attention -----------------------------------------------------
    async attention(scope: Scope, lang: ApiLanguage, kind: 'error' | 'abnormal', p: orders.AttentionRequest) {
      const { total, list } = await repo.attentionPage(scope, kind, p);
      return { total, list: list.map((r) => presentOrderRow(r, lang)) };
    },
    async fixError(actor: Actor, scope: Scope, lang: ApiLanguage, p: Req<typeof orders.errorUpdate>) {
      const o = await load(scope, p.id);
      if (!o.error_at) throw AppError.conflict('notErrorOrder');
      // A clearance refusal arrives after shipping: a shipped error order may still have its
      // recipient's identity, phone and address fixed (SHIPPED_FIX_FIELDS); nothing else moves.
      const shippedFix = o.status === 'shipped' && o.intercepted === 0;
      if (!shippedFix) assertChangeable(o);
      const ctx = await validationContext();
      const current = inputOf(o, await repo.items(o.id));
      if (shippedFix) {
        for (const k of Object.keys(p.recipient) as (keyof typeof p.recipient)[]) {
          if (SHIPPED_FIX_FIELDS.includes(k)) continue;
          if ((p.recipient[k] ?? null) !== (current.recipient[k] ?? null))
            throw AppError.field(`recipient.${k}`, translate(lang, 'shippedFixFieldLocked'));
        }
      }
      const { errorCleared } = await writeChanged(
        actor,
        lang,
        o,
        current,
        { ...current, recipient: p.recipient },
        p.confirm,
        ctx,
        shippedFix ? { guard: SHIPPED_ERROR } : {},
      );
      return { id: o.id, cleared: errorCleared };
    },
    /**
     * Re-checks error orders as they are. Errors found downstream stand until a field they name
     * changes (each change clears them as it is saved, see writeChanged), so a re-check alone
     * clears only what an operator clears by hand (`clear`, recorded with the note). Locked
     * orders are refused as a whole (409), like a delete of several.
     */
    async recheckErrors(actor: Actor, scope: Scope, lang: ApiLanguage, p: Req<typeof orders.errorUpdate2>) {
      if (p.clear && !OPERATOR_ROLES.has(actor.role)) throw AppError.forbidden('operatorsOnly');
      // Clearing by hand overrides a downstream check: the event must say why (issue 11).
      if (p.clear && !p.note?.trim()) throw AppError.field('note', 'clearNeedsReason');
      const ids = [...new Set(p.ids)];
      const ctx = await validationContext();
      const found = new Map((await repo.idsInScope(scope, ids)).map((r) => [r.id, r]));
      // A shipped order refused by clearance is re-checked or cleared like an unshipped one.
      for (const r of found.values()) if (r.status !== 'shipped' || r.intercepted) assertChangeable(r);
      const toClear: number[] = [];
      const failed: { id: number; reason: string }[] = [];
      for (const id of ids) {
        const o = found.has(id) ? await repo.find(scope, id) : undefined;
        if (!o) {
          failed.push({ id, reason: translate(lang, 'orderNotFound') });
          continue;
        }
        if (!o.error_at) {
          failed.push({ id, reason: translate(lang, 'notErrorOrder') });
          continue;
        }
        if (p.clear) {
          toClear.push(id);
          continue;
        }
        const current = inputOf(o, await repo.items(o.id));
        const v = validateOrder(current, ctx);
        if (v.errors.length) {
          const e = v.errors[0]!;
          failed.push({ id, reason: translate(lang, e.messageKey, e.params) });
          continue;
        }
        const standing = standingErrors(o.error_reason, current, current);
        if (standing !== null) {
          failed.push({
            id,
            reason: translate(lang, 'errorUnchanged', { reason: storedReasonText(lang, standing) ?? '' }),
          });
          continue;
        }
        toClear.push(id);
      }
      const guard: Guard = { statuses: [...CHANGEABLE_STATUSES, 'shipped'], error: true };
      await db.transaction().execute(async (trx) => {
        const claimed = await repo.claim(trx, toClear, guard, now());
        if (claimed.length !== toClear.length) await refuse(toClear, claimed, guard);
        if (!claimed.length) return;
        // The order's life clears the flag and queues the push; an operator's clearing by hand
        // is an errorCleared event with the note (issue 11: the event must say why).
        const moved = await transition(trx, 'clearError', claimed, {
          at: now(),
          by: actor.userId,
          note: p.clear ? (p.note ?? null) : null,
          byHand: p.clear,
        });
        if (moved.refused.length) await refuse(claimed, moved.done, guard);
      });
      return { cleared: toClear, failed };
    },
    async fixBoxcError(actor: Actor, scope: Scope, p: Req<typeof orders.errorBoxcUpdate>) {
      const o = await load(scope, p.id);
      if (!o.error_at) throw AppError.conflict('notErrorOrder');
      assertChangeable(o);
      const ctx = await validationContext();
      if (ctx.channels.get(o.channel_code)?.has_boxes !== 1) throw AppError.field('boxNo', 'notBoxChannel');
      const guard: Guard = { statuses: CHANGEABLE_STATUSES, error: true };
      // A recipient's error stands (issue 28 #16): the box numbers are saved, the error is not
      // cleared, as any change that leaves the fields it names alone.
      const standing = standingAfterBoxFix(o.error_reason);
      await db.transaction().execute(async (trx) => {
        const claimed = await repo.claim(trx, [o.id], guard, now());
        if (!claimed.length) await refuse([o.id], claimed, guard);
        await repo.updateOrder(trx, o.id, {
          box_no: p.boxNo,
          split_waybill_no: p.splitWaybillNo,
          updated_at: now(),
          ...(standing === null ? {} : { error_reason: standing }),
        });
        if (standing === null) await transition(trx, 'clearError', [o.id], { at: now(), by: actor.userId });
        else await repo.addEvents(trx, [event(o.id, 'updated', actor)]);
      });
      return { id: o.id, cleared: standing === null };
    },
    async abnormalRules() {
      const enabled = await enabledAbnormalRules(db);
      return ABNORMAL_RULES.map((code) => ({
        code,
        name: { zh: translate('zh-CN', `rule_${code}`), en: translate('en', `rule_${code}`) },
        description: {
          zh: translate('zh-CN', `rule_${code}_desc`, { max: SAME_RECIPIENT_MAX }),
          en: translate('en', `rule_${code}_desc`, { max: SAME_RECIPIENT_MAX }),
        },
        enabled: enabled.has(code),
      }));
    },
    /** Operators switch a rule; the next create, update or import reads the switch. */
    async switchAbnormalRule(who: AuditWho & { actor: Actor }, p: Req<typeof orders.abnormalRuleSwitch>) {
      if (!OPERATOR_ROLES.has(who.actor.role)) throw AppError.forbidden('operatorsOnly');
      if (!(ABNORMAL_RULES as readonly string[]).includes(p.code)) throw AppError.field('code', 'abnormalRuleUnknown');
      // A global rule of every customer's orders: audited with the switch.
      await db.transaction().execute(async (trx) => {
        await saveAbnormalRule(trx, p.code, p.enabled, who.actor.userId, now());
        await audit(
          trx,
          who,
          { action: 'abnormalRule.update', target: `abnormalRule:${p.code}`, detail: { enabled: p.enabled } },
          clock(),
        );
      });
      return (await this.abnormalRules()).find((r) => r.code === p.code)!;
    },
    async resolveAbnormal(actor: Actor, scope: Scope, p: Req<typeof orders.abnormalUpdate>) {
      if (!OPERATOR_ROLES.has(actor.role)) throw AppError.forbidden('operatorsOnly');
      const rows = await repo.idsInScope(scope, p.ids);
      if (!rows.length) throw new AppError(ErrorCode.NOT_FOUND, 'orderNotFound');
      const release = p.action === 'release';
      // Events only for the rows the statement changed (finding 10 of issue 10): a 'released'
      // event on an order that was never abnormal showed on the public tracking page.
      const changed = await db.transaction().execute(async (trx) => {
        const ids = await repo.settleAbnormal(
          trx,
          rows.map((r) => r.id),
          now(),
        );
        await repo.addEvents(
          trx,
          ids.map((id) => event(id, release ? 'abnormalReleased' : 'abnormalResolved', actor, p.note)),
        );
        return ids;
      });
      return { updated: changed.length };
    },
  };
}

import { type ApiLanguage, ErrorCode, orders } from '@console/contract';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { type OrderInput, type ValidateContext, validateOrder } from '../../domain/order-input.ts';
import { itemRow } from '../../domain/order-writer.ts';
import { AppError } from '../../lib/errors.ts';
import { StaleVersion } from '../../lib/versions.ts';
import { translate } from '../../lib/messages.ts';
import type { Actor, Scope } from '../../lib/scope.ts';
import type { Files } from '../../lib/files.ts';
import type { StaffWrite } from '../../lib/staff-writes.ts';
import { evaluateAbnormal, loadValidationContext } from '../../domain/order-checks.ts';
import { orderInputOf } from './orders.record-input.ts';
import { type CatalogueEntries, createOrderPricing } from '../../domain/pricing/index.ts';
import { presentTax } from './orders.presenter.ts';
import { toMinor } from './orders.presenter.ts';
import { standingErrors } from './order-errors.ts';
import { transition } from '../../domain/order-life.ts';
import { CHANGEABLE_STATUSES, createOrdersRepository, type Guard, type OrderRecord } from './orders.repository.ts';

export type Req<C> = C extends { request: { _zod: { output: infer O } } } ? O : never;
export type Confirm = orders.ConfirmationKind[];

export interface OrdersDeps {
  files: Files;
  /** Ordering calls first check that no notice is waiting (spec §5). */
  assertClear: (actor: Actor) => Promise<void>;
  /** The customer's catalogue entry for a JAN (modules/items), asked first by `order/getItemByJan`. */
  catalogueByJan?: (customerId: number, jan: string) => Promise<CatalogueEntry | null>;
  /** The customer's catalogue status and tax data of many JANs (modules/items/items.catalogue.ts). */
  catalogueEntries?: CatalogueEntries;
}
export interface CatalogueEntry {
  status: 'pending' | 'approved' | 'failed';
  name: string;
  brand: string | null;
  spec: string;
  /** Declaration price in JPY, a decimal string. */
  price: string;
  origin: string;
}

export const OPERATOR_ROLES = new Set(['operator', 'admin-none']);

/** Why an order can no longer be changed or deleted (spec: received, intercepted or shipped), or null. */
export function lockKey(o: { status: string; intercepted: number }): string | null {
  if (o.intercepted === 1) return 'orderLockedIntercepted';
  if (o.status === 'received') return 'orderLockedReceived';
  if (o.status === 'shipped' || o.status === 'released') return 'orderLockedShipped';
  if (o.status === 'cancelled') return 'orderLockedCancelled';
  return null;
}

/**
 * What every use case of orders shares (orders.find.ts, orders.edit.ts, orders.create.ts,
 * orders.attention.ts): the repository, the checks of an order's input and the one write
 * every change of an order goes through.
 */
export function createOrderWrites(db: Database, clock: () => Date, deps: OrdersDeps) {
  const repo = createOrdersRepository(db);
  const now = () => clock().toISOString();

  const validationContext = () => loadValidationContext(db, clock());
  const pricing = createOrderPricing(db, deps.catalogueEntries);
  type Ctx = Awaited<ReturnType<typeof validationContext>>;

  async function load(scope: Scope, id: number) {
    const o = await repo.find(scope, id);
    if (!o) throw new AppError(ErrorCode.NOT_FOUND, 'orderNotFound');
    return o;
  }
  function assertChangeable(o: { status: string; intercepted: number; order_no: string }) {
    const key = lockKey(o);
    if (key) throw AppError.conflict(key, { orderNo: o.order_no });
  }
  /**
   * A guarded write claimed fewer orders than it was given (see repo.claim): says why, as the
   * checks before the write would have — 404 for an order gone meanwhile, 409 with the reason
   * for one locked meanwhile. Thrown inside the write's transaction, so nothing is kept.
   */
  async function refuse(
    ids: readonly number[],
    claimed: readonly number[],
    guard: Guard,
    version?: number,
  ): Promise<never> {
    const rest = ids.filter((id) => !claimed.includes(id));
    const states = await repo.states(rest);
    for (const id of rest) {
      const s = states.find((x) => x.id === id);
      if (!s) throw new AppError(ErrorCode.NOT_FOUND, 'orderNotFound', { ids: [id] });
      if (s.intercepted === 1 || !guard.statuses.includes(s.status))
        throw AppError.conflict(lockKey(s) ?? 'orderChangedMeanwhile', { orderNo: s.order_no });
      if (guard.error && !s.error_at) throw AppError.conflict('notErrorOrder');
    }
    // Still changeable, so it was the version the form was loaded from that no longer holds.
    if (version !== undefined) throw new StaleVersion();
    throw AppError.conflict('orderChangedMeanwhile', { orderNo: '' });
  }
  const CHANGEABLE: Guard = { statuses: CHANGEABLE_STATUSES };
  /** A shipped order's error fix: still shipped, not intercepted, still an error order. */
  const SHIPPED_ERROR: Guard = { statuses: ['shipped'], error: true };

  /** Form items (decimal prices) → domain items (minor units), or 422 on a price the currency cannot hold. */
  function toItems(items: orders.ItemInputOut[], currency: string, ctx: Ctx, base = 'items') {
    const decimals = ctx.currencies.get(currency) ?? 2;
    return items.map((it, i) => {
      const unitPrice = toMinor(it.unitPrice, decimals);
      if (unitPrice === null)
        throw AppError.field(`${base}.${i}.unitPrice`, translate('en', 'priceDecimals', { currency }));
      return { ...it, unitPrice, currency };
    });
  }
  function money(v: string, currency: string, ctx: Ctx, field: string) {
    const n = toMinor(v, ctx.currencies.get(currency) ?? 2);
    if (n === null || n < 0) throw AppError.field(field, 'priceMustBePositive');
    return n;
  }

  /** The domain's validation → 422 (errors, translated with their parameters) or 409 (confirmations not given). */
  async function check(
    input: OrderInput,
    ctx: Ctx & Pick<ValidateContext, 'allowedChannels'>,
    lang: ApiLanguage,
    confirm: Confirm,
    /** Runs when the order has no errors, before confirmations are asked (a refusal comes first). */
    afterErrors?: () => Promise<void>,
  ) {
    const v = validateOrder(input, ctx);
    if (v.errors.length) {
      const fields: Record<string, string[]> = {};
      for (const e of v.errors) {
        const field = e.field === 'clearanceCompanyCode' ? 'clearanceCompany' : e.field;
        (fields[field] ??= []).push(translate(lang, e.messageKey, e.params));
      }
      throw AppError.validation(fields);
    }
    await afterErrors?.();
    const missing = v.confirmations.filter((c) => !confirm.includes(c.kind));
    if (missing.length) {
      throw AppError.conflict('confirmationRequired', undefined, {
        confirmations: missing.map((c) => ({
          kind: c.kind,
          field: c.field,
          message: translate(lang, c.messageKey, c.params),
        })),
      });
    }
  }

  const abnormalOf = (input: OrderInput, ctx: Ctx, excludeOrderId?: number) =>
    evaluateAbnormal(db, clock(), input, ctx, excludeOrderId);
  const inputOf = orderInputOf;
  const recipientColumns = (r: OrderInput['recipient']) => ({
    recipient_name: r.name,
    recipient_id_card: r.idCard.toUpperCase(),
    recipient_phone: r.phone,
    recipient_email: r.email,
    recipient_province: r.province,
    recipient_city: r.city,
    recipient_district: r.district,
    recipient_street: r.street,
    recipient_address: r.address,
    recipient_postcode: r.postcode,
  });
  /** An order's editable fields, flat, as an audit row compares them; items as short lines. */
  const orderImage = (i: OrderInput): Record<string, unknown> => ({
    userRefNo: i.userRefNo,
    orderType: i.orderType,
    clearanceCompanyCode: i.clearanceCompanyCode,
    insuredAmount: i.insuredAmount,
    remark: i.remark,
    ...Object.fromEntries(Object.entries(i.recipient).map(([k, v]) => [`recipient.${k}`, v])),
    ...Object.fromEntries(Object.entries(i.sender).map(([k, v]) => [`sender.${k}`, v])),
    items: i.items.map((it) => `${it.jan ?? '-'} ${it.name} x${it.quantity} @${it.unitPrice} ${it.currency}`),
  });
  const event = (
    orderId: number,
    kind: string,
    actor: Actor | null,
    note: string | null = null,
    location: string | null = null,
  ) => ({
    order_id: orderId,
    kind,
    at: now(),
    location,
    note,
    created_by: actor?.userId ?? null,
  });

  /**
   * Re-validates an order with changed parts and writes it (items replaced when given). An
   * error found downstream clears when a field it names changes here (order-errors.ts); the
   * answer says whether the order is still an error order. The write claims the order first,
   * so an order received or deleted meanwhile is a 409/404, not a silent change.
   */
  async function writeChanged(
    actor: Actor,
    lang: ApiLanguage,
    o: NonNullable<OrderRecord>,
    current: OrderInput,
    next: OrderInput,
    confirm: Confirm,
    ctx: Ctx,
    opts: {
      replaceItems?: boolean;
      itemsWrite?: (trx: Transaction<DB>) => Promise<void>;
      /** The claim's guard: changeable orders unless the caller allows more (a shipped order's error fix). */
      guard?: Guard;
      /** The version the edit form was loaded from (none: the spec's last save wins). */
      version?: number;
      /** The call's staff record: staff's edit of a customer's order is audited before/after (issue 36 #6). */
      staff?: StaffWrite;
    } = {},
  ) {
    const guard = opts.guard ?? CHANGEABLE;
    // Items given are checked against the catalogue (refused on a channel that needs registered
    // items); the tax estimate follows every change.
    let assessed: Awaited<ReturnType<typeof pricing.price>> | undefined;
    await check(next, ctx, lang, confirm, async () => {
      // The yearly limit too: an update can move an order onto a recipient near it (a warning,
      // as on create; the order's own value is left out of the recipient's sum).
      assessed = await pricing.price(next, ctx.currencies, clock(), lang, {
        excludeOrderId: o.id,
        yearly: true,
        refuse: !!(opts.replaceItems || opts.itemsWrite),
      });
    });
    const abnormal = o.abnormal_at ? {} : await abnormalOf(next, ctx, o.id);
    const standing = o.error_at ? standingErrors(o.error_reason, current, next) : null;
    const errorCleared = o.error_at !== null && standing === null;
    // A standing error keeps its remaining reasons; a cleared one is cleared by the order's life
    // (order-life.ts clearError: the flag, the push queue and the event), never here.
    const errors = o.error_at && !errorCleared ? { error_reason: standing } : {};
    const version = await db.transaction().execute(async (trx) => {
      const claimed = await repo.claim(trx, [o.id], guard, now(), opts.version);
      if (!claimed.length) await refuse([o.id], claimed, guard, opts.version);
      const total = next.items.reduce((s, it) => s + it.unitPrice * it.quantity, 0);
      await repo.updateOrder(trx, o.id, {
        ...recipientColumns(next.recipient),
        sender_name: next.sender.name,
        sender_address: next.sender.address,
        sender_phone: next.sender.phone,
        user_ref_no: next.userRefNo,
        order_type: next.orderType,
        clearance_company_code: next.clearanceCompanyCode,
        insured_amount: next.insuredAmount,
        remark: next.remark,
        total_amount: total,
        tax_estimate: assessed!.taxEstimate,
        updated_at: now(),
        ...abnormal,
        ...errors,
      });
      if (opts.replaceItems) {
        await repo.replaceItems(
          trx,
          o.id,
          next.items.map((it, i) => itemRow(o.id, i + 1, it)),
        );
      }
      await opts.itemsWrite?.(trx);
      if (errorCleared) {
        const moved = await transition(trx, 'clearError', [o.id], { at: now(), by: actor.userId });
        // The claim held the row: only a concurrent fix of the same error gets here.
        if (!moved.done.length) throw AppError.conflict('orderChangedMeanwhile', { orderNo: o.order_no });
      } else await repo.addEvents(trx, [event(o.id, 'updated', actor)]);
      await opts.staff?.record(trx, {
        target: `order:${o.order_no}`,
        customerId: o.customer_id,
        before: orderImage(current),
        after: orderImage(next),
      });
      // Read inside the write: a later writer's version would let the form overwrite what it never saw.
      return repo.versionIn(trx, o.id);
    });
    return { errorCleared, version, warnings: assessed!.warnings, taxEstimate: presentTax(assessed!.estimate) };
  }

  return {
    db,
    clock,
    deps,
    repo,
    now,
    validationContext,
    pricing,
    load,
    assertChangeable,
    refuse,
    CHANGEABLE,
    SHIPPED_ERROR,
    toItems,
    money,
    check,
    abnormalOf,
    inputOf,
    event,
    writeChanged,
  };
}
export type OrderWrites = ReturnType<typeof createOrderWrites>;

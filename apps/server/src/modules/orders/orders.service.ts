import { type ApiLanguage, ErrorCode, isValidJan, orders, type Paging } from '@console/contract';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { allowedChannelsOf } from '../../domain/customer-channels.ts';
import { defaultSenderOf } from '../../domain/default-sender.ts';
import { type OrderInput, type ValidateContext, validateOrder } from '../../domain/order-input.ts';
import { insertOrders, itemRow } from '../../domain/order-writer.ts';
import { audit, type AuditWho } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import { StaleVersion, versionedSave } from '../../lib/versions.ts';
import { translate } from '../../lib/messages.ts';
import { storedReasonText } from '../../lib/reasons.ts';
import { type Actor, customerFor, type Scope } from '../../lib/scope.ts';
import type { Files } from '../../lib/files.ts';
import type { ProgressTracker } from '../../lib/export-progress.ts';
import { buildWorkbookStream, SMALL_JOB_ROWS } from '../../lib/workbook-job.ts';
import { orderExportJob } from './orders.export.ts';
import {
  ABNORMAL_RULES,
  enabledAbnormalRules,
  saveAbnormalRule,
  evaluateAbnormal,
  loadValidationContext,
  orderInputOf,
  SAME_RECIPIENT_MAX,
} from './orders.input.ts';
import { type CatalogueEntries, createOrderTax, presentTax } from './orders.tax.ts';
import './orders.messages.ts';
import { fromMinor, presentDetail, presentItem, presentOrderRow, toMinor } from './orders.presenter.ts';
import { SHIPPED_FIX_FIELDS, standingAfterBoxFix, standingErrors } from './order-errors.ts';
import { transition } from '../../domain/order-life.ts';
import {
  CHANGEABLE_STATUSES,
  createOrdersRepository,
  DELETABLE_STATUSES,
  type Guard,
  type OrderRecord,
} from './orders.repository.ts';

type Req<C> = C extends { request: { _zod: { output: infer O } } } ? O : never;
type Confirm = orders.ConfirmationKind[];

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

const EXPORT_MAX_ROWS = 100_000;
export { SAME_RECIPIENT_MAX };
const OPERATOR_ROLES = new Set(['operator', 'admin-none']);

/** Why an order can no longer be changed or deleted (spec: received, intercepted or shipped), or null. */
export function lockKey(o: { status: string; intercepted: number }): string | null {
  if (o.intercepted === 1) return 'orderLockedIntercepted';
  if (o.status === 'received') return 'orderLockedReceived';
  if (o.status === 'shipped' || o.status === 'released') return 'orderLockedShipped';
  if (o.status === 'cancelled') return 'orderLockedCancelled';
  return null;
}

type SearchRow = Parameters<typeof presentOrderRow>[0] & {
  order_no: string;
  waybill_no: string | null;
  split_waybill_no: string | null;
  system_no: string | null;
  user_ref_no: string | null;
  batch_no: string | null;
};
const NUMBER_KINDS = ['orderNo', 'waybillNo', 'splitWaybillNo', 'systemNo', 'userRefNo', 'batchNo'] as const;
/** A row's numbers, in the order of NUMBER_KINDS. */
const numbersOf = (r: SearchRow) => [
  r.order_no,
  r.waybill_no,
  r.split_waybill_no,
  r.system_no,
  r.user_ref_no,
  r.batch_no,
];
/** A search hit with the first number kind that matched, or null when none did. */
function foundRow(r: SearchRow, wanted: Set<string>, lang: ApiLanguage): orders.SearchFound | null {
  const values = numbersOf(r);
  const i = values.findIndex((v) => v !== null && wanted.has(v));
  if (i < 0) return null;
  return { ...presentOrderRow(r, lang), matchedBy: NUMBER_KINDS[i]!, matched: values[i]! };
}

export function createOrdersService(db: Database, clock: () => Date, deps: OrdersDeps) {
  const repo = createOrdersRepository(db);
  const now = () => clock().toISOString();

  const validationContext = () => loadValidationContext(db, clock());
  const orderTax = createOrderTax(db, deps.catalogueEntries);
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
    } = {},
  ) {
    const guard = opts.guard ?? CHANGEABLE;
    // Items given are checked against the catalogue (refused on a channel that needs registered
    // items); the tax estimate follows every change.
    let assessed: Awaited<ReturnType<typeof orderTax.assess>> | undefined;
    await check(next, ctx, lang, confirm, async () => {
      // The yearly limit too: an update can move an order onto a recipient near it (a warning,
      // as on create; the order's own value is left out of the recipient's sum).
      assessed = await orderTax.assess(next, ctx.currencies, clock(), lang, {
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
      // Read inside the write: a later writer's version would let the form overwrite what it never saw.
      return repo.versionIn(trx, o.id);
    });
    return { errorCleared, version, warnings: assessed!.warnings, taxEstimate: presentTax(assessed!.estimate) };
  }

  return {
    // ---- finding -------------------------------------------------------
    async list(scope: Scope, lang: ApiLanguage, p: Req<typeof orders.orderList>) {
      const { total, exact, list } = await repo.listPage(scope, p);
      return { total, exact, list: list.map((r) => presentOrderRow(r, lang)) };
    },
    async exportExcel(
      scope: Scope,
      lang: ApiLanguage,
      p: Req<typeof orders.downloadOrderExcel>,
      progress?: ProgressTracker,
    ) {
      // A one-page export must not wait behind other customers' big files: counted up to the
      // small size, it gets a small job's turn when it is one.
      const rowsAtMost = await repo.exportRowsUpTo(scope, p, SMALL_JOB_ROWS + 1);
      const job = { ...orderExportJob(repo.exportQuery(scope, p, EXPORT_MAX_ROWS), lang), rowsAtMost };
      const body = await buildWorkbookStream(db, job, progress);
      const day = new Date(clock().getTime() + 8 * 3_600_000).toISOString().slice(0, 10);
      return { filename: `${lang !== 'en' ? '订单' : 'orders'}-${day}.xlsx`, body };
    },
    /** Every order the numbers name (up to 5,000), for the batch search's result workbook. */
    async search(scope: Scope, lang: ApiLanguage, numbers: string[]) {
      const rows = await repo.findByAnyNumber(scope, numbers);
      const wanted = new Set(numbers);
      const seen = new Set<string>();
      const found: orders.SearchFound[] = [];
      for (const r of rows) {
        const f = foundRow(r, wanted, lang);
        if (!f) continue;
        for (const v of numbersOf(r)) if (v !== null && wanted.has(v)) seen.add(v);
        found.push(f);
      }
      return { found, notFound: numbers.filter((n) => !seen.has(n)) };
    },
    /** One page of what the numbers name, the count, and the numbers that name nothing. */
    async searchPage(scope: Scope, lang: ApiLanguage, numbers: string[], p: Paging) {
      const [page, matched] = await Promise.all([
        repo.searchPage(scope, numbers, p),
        repo.matchedNumbers(scope, numbers),
      ]);
      const wanted = new Set(numbers);
      return {
        total: page.total,
        list: page.list.map((r) => foundRow(r, wanted, lang)).filter((f) => f !== null),
        notFound: numbers.filter((n) => !matched.has(n)),
      };
    },

    // ---- one order -----------------------------------------------------
    async detail(scope: Scope, lang: ApiLanguage, id: number) {
      const o = await load(scope, id);
      const [items, events, ctx] = await Promise.all([repo.items(id), repo.events(id), validationContext()]);
      const key = lockKey(o);
      const tax = await orderTax.current(
        o,
        items.map((i) => ({ jan: i.jan, quantity: i.quantity, unitPrice: Number(i.unit_price), currency: i.currency })),
        ctx.currencies,
      );
      return presentDetail(
        o,
        items,
        events,
        ctx.currencies,
        key ? translate(lang, key, { orderNo: o.order_no }) : null,
        lang,
        tax,
      );
    },
    async items(scope: Scope, orderId: number) {
      const o = await load(scope, orderId);
      const [items, ctx] = await Promise.all([repo.items(o.id), validationContext()]);
      return items.map((i) => presentItem(i, ctx.currencies));
    },
    async update(actor: Actor, scope: Scope, lang: ApiLanguage, p: Req<typeof orders.orderUpdate>) {
      return versionedSave(
        () => this.writeUpdate(actor, scope, lang, p),
        () => this.detail(scope, lang, p.id),
      );
    },
    async writeUpdate(actor: Actor, scope: Scope, lang: ApiLanguage, p: Req<typeof orders.orderUpdate>) {
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
      });
      return { id: o.id, version: w.version, warnings: w.warnings, taxEstimate: w.taxEstimate };
    },
    async remove(scope: Scope, requested: number[]) {
      const ids = [...new Set(requested)];
      const rows = await repo.idsInScope(scope, ids);
      const missing = ids.filter((id) => !rows.some((r) => r.id === id));
      if (missing.length) throw new AppError(ErrorCode.NOT_FOUND, 'orderNotFound', { ids: missing });
      for (const r of rows) {
        const key = lockKey(r);
        if (key && key !== 'orderLockedCancelled') throw AppError.conflict(key, { orderNo: r.order_no });
      }
      // The checks above give the reason early; the claim is what makes it safe: a parcel scanned
      // (or an order deleted by another call) meanwhile is not claimed, and nothing is deleted.
      const guard: Guard = { statuses: DELETABLE_STATUSES };
      const deleted = await db.transaction().execute(async (trx) => {
        const claimed = await repo.claim(trx, ids, guard, now());
        if (claimed.length !== ids.length) await refuse(ids, claimed, guard);
        return repo.deleteClaimed(trx, claimed);
      });
      return { deleted };
    },
    async itemChange(
      actor: Actor,
      scope: Scope,
      lang: ApiLanguage,
      op:
        | { kind: 'create'; orderId: number; item: orders.ItemInputOut; confirm: Confirm; orderVersion?: number }
        | { kind: 'update'; id: number; item: orders.ItemInputOut; confirm: Confirm; orderVersion?: number }
        | { kind: 'delete'; id: number },
    ) {
      let orderId: number;
      if (op.kind === 'create') orderId = op.orderId;
      else {
        const row = await repo.itemOrder(op.id);
        if (!row) throw new AppError(ErrorCode.NOT_FOUND, 'itemNotFound');
        orderId = row.order_id;
      }
      // A line saved from the order's version the page was loaded from: stale is a 409 with the order now.
      return versionedSave(
        () => this.writeItemChange(actor, scope, lang, op, orderId),
        () => this.detail(scope, lang, orderId),
      );
    },
    async writeItemChange(
      actor: Actor,
      scope: Scope,
      lang: ApiLanguage,
      op:
        | { kind: 'create'; orderId: number; item: orders.ItemInputOut; confirm: Confirm; orderVersion?: number }
        | { kind: 'update'; id: number; item: orders.ItemInputOut; confirm: Confirm; orderVersion?: number }
        | { kind: 'delete'; id: number },
      orderId: number,
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
      const itemRow = (it: OrderInput['items'][number], lineNo: number) => ({
        order_id: o.id,
        line_no: lineNo,
        jan: it.jan,
        name: it.name,
        brand: it.brand,
        spec: it.spec,
        quantity: it.quantity,
        unit_price: it.unitPrice,
        currency: it.currency,
        origin: it.origin,
        hazard_code: it.hazardCode,
      });
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
            itemId = await repo.insertItem(trx, itemRow(it!, lineNo));
          };
        } else {
          const index = rows.findIndex((r) => r.id === op.id);
          items = items.map((x, i) => (i === index ? it! : x));
          itemId = op.id;
          const { order_id: _o, line_no: _l, ...changes } = itemRow(it!, 0);
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
        { itemsWrite: write, version },
      );
      if (op.kind === 'delete') return null;
      const after = await repo.item(itemId);
      return presentItem(after, ctx.currencies);
    },
    async setFlag(
      scope: Scope,
      ids: number[],
      column: 'gns_updated' | 'push_s' | 'push_price' | 'whole_set' | 'print_flag',
      value: boolean,
    ) {
      const rows = await repo.idsInScope(scope, ids);
      if (!rows.length) throw new AppError(ErrorCode.NOT_FOUND, 'orderNotFound');
      const updated = await repo.setFlag(
        rows.map((x) => x.id),
        column,
        value,
        now(),
      );
      return { updated };
    },

    // ---- creating one --------------------------------------------------
    async create(actor: Actor, scope: Scope, lang: ApiLanguage, p: Req<typeof orders.createImport>) {
      await deps.assertClear(actor);
      const customerId = customerFor(actor, scope, p.customerId);
      const ctx = await validationContext();
      const channel = ctx.channels.get(p.channel)!;
      // A chosen segment is checked early so the user hears of it before any confirmation is asked;
      // the allocation checks it again inside the write, which is what makes it safe.
      if (p.numberSegmentId) {
        const segs = await repo.numberSegments(p.channel, customerId);
        if (!segs.some((s) => s.id === p.numberSegmentId)) throw AppError.field('numberSegmentId', 'segmentNotUsable');
      }
      if (p.exportNominationId) {
        const en = await repo.exportNomination(customerId, p.exportNominationId);
        if (!en) throw AppError.field('exportNominationId', 'notFound');
      }
      const input: OrderInput = {
        customerId,
        channel: p.channel,
        orderNo: p.orderNo,
        boxNo: null,
        userRefNo: p.userRefNo,
        orderType: p.orderType,
        exportNominationId: p.exportNominationId ?? null,
        numberSegmentId: p.numberSegmentId ?? null,
        clearanceCompanyCode: p.clearanceCompany,
        recipient: p.recipient,
        sender: p.sender,
        items: toItems(p.items, channel.currency, ctx),
        insuredAmount: money(p.insuredAmount, channel.currency, ctx, 'insuredAmount'),
        remark: p.remark,
      };
      let assessed: Awaited<ReturnType<typeof orderTax.assess>> | undefined;
      const allowedChannels = await allowedChannelsOf(db, customerId);
      await check(input, { ...ctx, allowedChannels }, lang, p.confirm, async () => {
        assessed = await orderTax.assess(input, ctx.currencies, clock(), lang, { yearly: true, refuse: true });
      });
      input.taxEstimate = assessed!.taxEstimate;
      if (await repo.orderNoExists(customerId, p.orderNo)) {
        throw AppError.field('orderNo', translate(lang, 'orderNoExists', { value: p.orderNo }));
      }
      const abnormal = await abnormalOf(input, ctx);
      const [created] = await db.transaction().execute(async (trx) => {
        const out = await insertOrders(trx, [input], { batchId: null, createdBy: actor.userId, now: now() });
        if (abnormal.abnormal_at) await repo.updateOrder(trx, out[0]!.id, abnormal);
        return out;
      });
      return {
        id: created!.id,
        orderNo: created!.orderNo,
        waybillNo: created!.waybillNo,
        warnings: assessed!.warnings,
        taxEstimate: presentTax(assessed!.estimate),
      };
    },
    async sendAddress(actor: Actor, scope: Scope, requested?: number) {
      const customerId = customerFor(actor, scope, requested);
      return (await defaultSenderOf(db, customerId)) ?? { name: null, address: null, phone: null };
    },
    async itemByJan(actor: Actor, scope: Scope, jan: string, requested?: number) {
      const customerId = customerFor(actor, scope, requested);
      const [rows, ctx, entry] = await Promise.all([
        repo.itemByJan(customerId, jan),
        validationContext(),
        deps.catalogueByJan?.(customerId, jan.trim()) ?? null,
      ]);
      const validJan = isValidJan(jan);
      const catalogueStatus = entry?.status ?? null;
      const d = (c: string) => ctx.currencies.get(c) ?? 2;
      const prices = [...new Set(rows.map((r) => fromMinor(r.unit_price, d(r.currency))))];
      // An approved catalogue entry is what the operators checked: it wins over what earlier orders said.
      if (entry?.status === 'approved') {
        return {
          found: true,
          validJan,
          item: {
            jan: jan.trim(),
            name: entry.name,
            brand: entry.brand,
            spec: entry.spec || null,
            unitPrice: entry.price,
            currency: 'JPY' as const,
            origin: entry.origin,
            hazardCode: rows[0]?.hazard_code ?? null,
          },
          prices,
          source: 'catalogue' as const,
          catalogueStatus,
        };
      }
      if (!rows.length) return { found: false, validJan, item: null, prices: [], source: null, catalogueStatus };
      const latest = rows[0]!;
      return {
        found: true,
        validJan,
        source: 'orders' as const,
        catalogueStatus,
        item: {
          jan: latest.jan,
          name: latest.name,
          brand: latest.brand,
          spec: latest.spec,
          unitPrice: fromMinor(latest.unit_price, d(latest.currency)),
          currency: latest.currency as orders.OrderItem['currency'],
          origin: latest.origin,
          hazardCode: latest.hazard_code,
        },
        prices,
      };
    },
    async orderNumber(actor: Actor, scope: Scope, requested?: number) {
      const customerId = customerFor(actor, scope, requested);
      // Operators may name any customer id: one that does not exist is the field's fault, as in storage orders.
      const c = await repo.customer(customerId);
      if (!c) throw AppError.field('customerId', 'orderCustomerUnknown');
      const day = new Date(clock().getTime() + 8 * 3_600_000).toISOString().slice(2, 10).replaceAll('-', '');
      for (let i = 0; i < 20; i++) {
        const n = `${c.code}${day}${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`;
        if (!(await repo.orderNoExists(customerId, n))) return { orderNo: n };
      }
      throw AppError.conflict('orderNoExists', { value: c.code });
    },
    async numberSegments(actor: Actor, scope: Scope, channel: string, requested?: number) {
      const customerId = customerFor(actor, scope, requested);
      return (await repo.numberSegments(channel, customerId)).map((s) => ({
        id: s.id,
        name: s.name,
        prefix: s.prefix,
        remaining: Math.max(0, Number(s.last_seq) - Number(s.next_seq) + 1),
      }));
    },
    async setDefaultNumber(actor: Actor, channel: string, segmentId: number | null) {
      if (segmentId !== null) {
        const seg = await repo.numberSegment(segmentId, channel);
        if (!seg || (seg.customer_id !== null && actor.role === 'customer' && seg.customer_id !== actor.customerId)) {
          throw AppError.field('numberSegmentId', 'segmentNotUsable');
        }
      }
      await repo.putSetting(actor.userId, `order.defaultNumber.${channel}`, segmentId, now());
      return null;
    },
    async getDefaultNumber(actor: Actor, channel: string) {
      const v = await repo.getSetting(actor.userId, `order.defaultNumber.${channel}`);
      return { numberSegmentId: typeof v === 'number' ? v : null };
    },

    async stats(scope: Scope) {
      const since = new Date(clock().getTime() - 30 * 86_400_000);
      const [byStatusRows, attention, perDay] = await Promise.all([
        repo.countByStatus(scope),
        repo.countAttention(scope),
        repo.perDay(scope, since.toISOString()),
      ]);
      const byStatus = Object.fromEntries(orders.orderStatus.options.map((s) => [s, 0])) as Record<string, number>;
      for (const r of byStatusRows) byStatus[r.status] = Number(r.n);
      const counts = new Map(perDay.map((r) => [r.day, Number(r.n)]));
      const last30Days = Array.from({ length: 30 }, (_, i) => {
        // Days as seen in China (UTC+8), oldest first.
        const d = new Date(clock().getTime() + 8 * 3_600_000 - (29 - i) * 86_400_000).toISOString().slice(0, 10);
        return { day: d, count: counts.get(d) ?? 0 };
      });
      return {
        byStatus: byStatus as never,
        errors: Number(attention.errors ?? 0),
        abnormal: Number(attention.abnormal ?? 0),
        last30Days,
      };
    },

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
export type OrdersService = ReturnType<typeof createOrdersService>;

import { type ApiLanguage, ErrorCode, orders } from '@console/contract';
import type { Database } from '../../db/database.ts';
import { validateOrder } from '../../domain/order-input.ts';
import { AppError } from '../../lib/errors.ts';
import { loadGeneratedFile, saveGeneratedFile, XLSX_MIME } from '../../lib/generated-files.ts';
import { translate } from '../../lib/messages.ts';
import type { Actor, Scope } from '../../lib/scope.ts';
import { readSheetRows } from '../../lib/sheet-rows.ts';
import type { Files } from '../../lib/files.ts';
import { buildWorkbookBuffer } from '../../lib/workbook-job.ts';
import { transition } from '../../domain/order-life.ts';
import { standingErrors } from './order-errors.ts';
import { createOrderChangesRepository } from './orders.changes.repository.ts';
import { evaluateAbnormal, loadValidationContext } from '../../domain/order-checks.ts';
import { orderInputOf } from './orders.record-input.ts';
import { lockKey } from './orders.write.ts';
import {
  type ChangeKind,
  type Field,
  FIELDS,
  fieldLabel,
  KIND_FIELDS,
  ORDER_NO_HEADERS,
} from './orders.changes.fields.ts';

export { type ChangeKind, FIELDS, KIND_FIELDS };

/**
 * Changing many orders at once (issue 11 #15): the batch sender (orders.batch-sender.ts) and
 * the updates sheet (orders.updates.ts) are one engine with different fields. A preview finds
 * each order in the caller's scope, says what would change (old and new value per field) or
 * why it will not (not found, locked by its status, a value the order rules refuse), and keeps
 * the changes as a file of the caller; applying it writes every one of them in one transaction,
 * each only if the order is still as the preview saw it, or none.
 */

/** Rows of a sheet, at most this many (the page shows each in the preview). */
export const MAX_SHEET_ROWS = 5_000;
/** An unapplied preview is refused after this long: the orders it read may have moved on. */
const PREVIEW_TTL_MS = 24 * 3_600_000;

/** One order the caller asked to change: a sheet row or a pasted number with the values to set. */
export interface ChangeRequest {
  row: number | null;
  orderNo: string;
  /** A value to set; null empties an optional field. Fields left out keep their value. */
  values: Partial<Record<Field, string | null>>;
}
interface PlannedOrder {
  id: number;
  orderNo: string;
  updatedAt: string;
  set: Record<string, string | null>;
  /** The change clears the order's error (order-life.ts clearError on apply). */
  clearError?: boolean;
}
interface Plan {
  kind: ChangeKind;
  orders: PlannedOrder[];
}
/** A sheet as uploaded, kept to write the refused rows back with their reason. */
interface UploadedSheet {
  header: string[];
  rows: Map<number, string[]>;
}

const planKind = (kind: ChangeKind) => `${kind}Preview`;
const errorsKind = (kind: ChangeKind) => `${kind}Errors`;

export function createOrderChanges(db: Database, clock: () => Date, files: Files) {
  const repo = createOrderChangesRepository(db);
  const now = () => clock().toISOString();

  /** The sheet's header → fields (either language, or the field's own key); 422 on a sheet that names no order. */
  function readSheet(
    lang: ApiLanguage,
    kind: ChangeKind,
    rows: { row: number; cells: string[] }[],
  ): { requests: ChangeRequest[]; sheet: UploadedSheet } {
    const [head, ...body] = rows;
    if (!head) throw AppError.field('file', 'bulkSheetEmpty');
    const norm = (s: string) => s.trim().toLowerCase();
    let orderNoAt = -1;
    const at = new Map<number, Field>();
    const notAllowed: string[] = [];
    head.cells.forEach((text, i) => {
      const h = norm(text);
      if (!h) return;
      if (ORDER_NO_HEADERS.has(h)) {
        if (orderNoAt < 0) orderNoAt = i;
        return;
      }
      const field = orders.bulkField.options.find(
        (f) => norm(FIELDS[f].zh) === h || norm(FIELDS[f].en) === h || norm(f) === h,
      );
      if (!field) return; // other columns (the error workbook's own) are ignored
      if (!KIND_FIELDS[kind].includes(field)) notAllowed.push(text);
      else if (![...at.values()].includes(field)) at.set(i, field);
    });
    if (orderNoAt < 0) throw AppError.field('file', translate(lang, 'bulkNoOrderNoColumn'));
    if (notAllowed.length)
      throw AppError.field('file', translate(lang, 'bulkColumnsNotAllowed', { columns: notAllowed.join(', ') }));
    if (!at.size) throw AppError.field('file', translate(lang, 'bulkNoFieldColumns'));
    if (!body.length) throw AppError.field('file', 'bulkSheetEmpty');
    const requests = body.map((r) => {
      const values: ChangeRequest['values'] = {};
      // A blank cell keeps the order's value: a sheet of only the columns one changes, sparsely filled.
      for (const [i, f] of at) if (r.cells[i]) values[f] = r.cells[i]!;
      return { row: r.row, orderNo: r.cells[orderNoAt] ?? '', values };
    });
    return {
      requests,
      sheet: { header: head.cells, rows: new Map(body.map((r) => [r.row, r.cells])) },
    };
  }

  async function preview(
    actor: Actor,
    scope: Scope,
    lang: ApiLanguage,
    kind: ChangeKind,
    requests: ChangeRequest[],
    opts: { customerId?: number; sheet?: UploadedSheet } = {},
  ): Promise<orders.BulkPreview> {
    const t = (key: string, params?: Record<string, string | number>) => translate(lang, key, params);
    const numbers = [...new Set(requests.map((r) => r.orderNo).filter(Boolean))];
    const found = await repo.byOrderNos(scope, numbers, opts.customerId);
    const byNo = new Map<string, typeof found>();
    for (const o of found) byNo.set(o.order_no, [...(byNo.get(o.order_no) ?? []), o]);
    const itemRows = await repo.itemsOf(found.map((o) => o.id));
    const itemsOf = new Map<number, typeof itemRows>();
    for (const i of itemRows) itemsOf.set(i.order_id, [...(itemsOf.get(i.order_id) ?? []), i]);
    const ctx = await loadValidationContext(db, clock());

    const rows: orders.BulkPreview['rows'] = [];
    const plan: PlannedOrder[] = [];
    const seen = new Set<number>();
    for (const req of requests) {
      const base: orders.BulkPreview['rows'][number] = {
        row: req.row,
        orderNo: req.orderNo,
        orderId: null,
        customerCode: null,
        status: null,
        changes: [],
        refusal: null,
      };
      const out = (refusal: string | null) => rows.push({ ...base, refusal });
      if (!req.orderNo) {
        out(t('bulkNoOrderNo'));
        continue;
      }
      const matches = byNo.get(req.orderNo) ?? [];
      if (!matches.length) {
        out(t('bulkOrderNotFound', { orderNo: req.orderNo }));
        continue;
      }
      if (matches.length > 1) {
        out(t('bulkOrderNoAmbiguous', { customers: matches.map((m) => m.customer_code).join(', ') }));
        continue;
      }
      const o = matches[0]!;
      Object.assign(base, { orderId: o.id, customerCode: o.customer_code, status: o.status });
      if (seen.has(o.id)) {
        out(t('bulkDuplicateOrder'));
        continue;
      }
      seen.add(o.id);
      const current = orderInputOf(o, itemsOf.get(o.id) ?? []);
      const next = structuredClone(current);
      let problem: string | null = null;
      for (const [f, raw] of Object.entries(req.values) as [Field, string | null][]) {
        const def = FIELDS[f];
        const v = raw === null ? null : raw.trim() || null;
        if (v === null && def.required) problem ??= t('bulkFieldRequired', { field: fieldLabel(lang, f) });
        else if (v !== null && v.length > def.max)
          problem ??= t('bulkFieldTooLong', { field: fieldLabel(lang, f), max: def.max });
        else def.put(next, f === 'recipientIdCard' && v ? v.toUpperCase() : v);
      }
      base.changes = (Object.keys(req.values) as Field[])
        .filter((f) => FIELDS[f].get(current) !== FIELDS[f].get(next))
        .map((f) => ({ field: f, old: FIELDS[f].get(current), new: FIELDS[f].get(next) }));
      if (problem) {
        out(problem);
        continue;
      }
      // The same lock every other change of an order obeys (received, shipped, cancelled, intercepted).
      const lock = lockKey(o);
      if (lock) {
        out(t(lock, { orderNo: o.order_no }));
        continue;
      }
      if (!base.changes.length) {
        out(null);
        continue;
      }
      // The order rules, as single update runs them: what the change breaks is refused; what was
      // already wrong with the order and is not touched here is not this sheet's business.
      const before = validateOrder(current, ctx);
      const after = validateOrder(next, ctx);
      const had = new Set(before.errors.map((e) => `${e.field}|${e.messageKey}`));
      const broken = after.errors.find((e) => !had.has(`${e.field}|${e.messageKey}`));
      if (broken) {
        out(t(broken.messageKey, broken.params));
        continue;
      }
      const asked = new Set(before.confirmations.map((c) => c.kind));
      const confirm = after.confirmations.find((c) => !asked.has(c.kind));
      if (confirm) {
        out(t('bulkNeedsConfirmation', { reason: t(confirm.messageKey, confirm.params) }));
        continue;
      }
      const set: Record<string, string | null> = {};
      for (const c of base.changes) set[FIELDS[c.field].column] = c.new;
      // The abnormal rules, as single update runs them, when the recipient changed: an order
      // already abnormal waits for an operator as it is.
      if (!o.abnormal_at && base.changes.some((c) => c.field.startsWith('recipient'))) {
        const abnormal = await evaluateAbnormal(db, clock(), next, ctx, o.id);
        if (abnormal.abnormal_at) Object.assign(set, abnormal);
      }
      // An error found downstream clears when a field it names changes, as on single update:
      // through the order's life when the plan is applied (the flag, the push queue, the event).
      let clearError = false;
      if (o.error_at) {
        const standing = standingErrors(o.error_reason, current, next);
        if (standing === null) clearError = true;
        else set.error_reason = standing;
      }
      plan.push({ id: o.id, orderNo: o.order_no, updatedAt: o.updated_at, set, ...(clearError && { clearError }) });
      out(null);
    }

    const at = now();
    const refused = rows.filter((r) => r.refusal !== null);
    const previewId = plan.length
      ? await saveGeneratedFile(db, files, {
          kind: planKind(kind),
          name: `${kind}-preview.json`,
          mime: 'application/json',
          customerId: actor.customerId,
          ownerUserId: actor.userId,
          data: Buffer.from(JSON.stringify({ kind, orders: plan } satisfies Plan)),
          at,
        })
      : null;
    // A page shows one preview at a time: the caller's earlier ones of this kind go.
    if (previewId !== null)
      await files.removeOwned({
        kinds: [planKind(kind), `${planKind(kind)}Applied`],
        ownerUserId: actor.userId,
        keepId: previewId,
      });
    const errorFileId =
      opts.sheet && refused.length ? await errorWorkbook(actor, lang, kind, opts.sheet, refused, at) : null;
    return {
      previewId,
      changing: plan.length,
      unchanged: rows.length - plan.length - refused.length,
      refused: refused.length,
      rows,
      errorFileId,
    };
  }

  /** The refused rows as uploaded, with the reason and the row's number in the upload: fix and upload again. */
  async function errorWorkbook(
    actor: Actor,
    lang: ApiLanguage,
    kind: ChangeKind,
    sheet: UploadedSheet,
    refused: orders.BulkPreview['rows'],
    at: string,
  ) {
    const width = Math.max(sheet.header.length, ...refused.map((r) => sheet.rows.get(r.row ?? 0)?.length ?? 0));
    const pad = (cells: string[]) => Array.from({ length: width }, (_, i) => cells[i] ?? '');
    const data = await buildWorkbookBuffer(db, {
      sheet: {
        name: translate(lang, 'bulkErrorsSheet'),
        boldHeader: true,
        frozenHeader: true,
        sharedStrings: true,
        columns: [
          ...pad(sheet.header).map((header) => ({ header, width: 18 })),
          { header: translate(lang, 'bulkErrorColumn'), width: 50 },
          { header: translate(lang, 'bulkRowColumn'), width: 8 },
        ],
      },
      rows: refused.map((r) => [...pad(sheet.rows.get(r.row ?? 0) ?? []), r.refusal, r.row]),
    });
    return saveGeneratedFile(db, files, {
      kind: errorsKind(kind),
      name: `${translate(lang, kind === 'batchSender' ? 'bulkSenderErrorsName' : 'bulkUpdatesErrorsName')}.xlsx`,
      mime: XLSX_MIME,
      customerId: actor.customerId,
      ownerUserId: actor.userId,
      data,
      at,
    });
  }

  return {
    /** Batch sender from a saved (or typed) sender: the same sender on every pasted order; empty parts empty the order's. */
    previewSender(
      actor: Actor,
      scope: Scope,
      lang: ApiLanguage,
      orderNos: string[],
      s: { name: string | null; address: string | null; phone: string | null },
      customerId?: number,
    ) {
      const values = { senderName: s.name, senderAddress: s.address, senderPhone: s.phone };
      const requests = orderNos.map((orderNo) => ({ row: null, orderNo, values }));
      return preview(actor, scope, lang, 'batchSender', requests, { customerId });
    },
    /** An uploaded sheet → its rows (read in a worker) → a preview. */
    async previewSheet(
      actor: Actor,
      scope: Scope,
      lang: ApiLanguage,
      kind: ChangeKind,
      file: { data: Buffer } | undefined,
      customerId?: number,
    ) {
      if (!file) throw AppError.field('file', 'fileRequired');
      const read = await readSheetRows(file.data, MAX_SHEET_ROWS);
      if (read.type === 'problem') throw AppError.field('file', translate(lang, read.key, read.params));
      const { requests, sheet } = readSheet(lang, kind, read.rows);
      return preview(actor, scope, lang, kind, requests, { customerId, sheet });
    },
    /**
     * Applies a preview: all its orders or none. The preview's own row is taken first (so two
     * applies of one preview cannot both run), then each order is written only if it is still
     * in scope, changeable and unchanged since the preview; otherwise 404/409 and nothing is kept.
     */
    async apply(actor: Actor, scope: Scope, kind: ChangeKind, previewId: number) {
      const f = await repo.plan(previewId, planKind(kind), actor.userId);
      if (!f) throw new AppError(ErrorCode.NOT_FOUND, 'bulkPreviewNotFound');
      if (clock().getTime() - Date.parse(f.created_at) > PREVIEW_TTL_MS) throw AppError.conflict('bulkPreviewExpired');
      const plan = JSON.parse((await files.read(f.storage_key)).toString('utf8')) as Plan;
      const at = now();
      await db.transaction().execute(async (trx) => {
        if (!(await files.claim({ id: previewId, kind: planKind(kind), ownerUserId: actor.userId }, trx)))
          throw AppError.conflict('bulkPreviewUsed');
        for (const p of plan.orders) {
          if (await repo.applyGuarded(trx, scope, p.id, p.updatedAt, { ...p.set, updated_at: at })) continue;
          const s = await repo.state(trx, p.id);
          if (!s) throw new AppError(ErrorCode.NOT_FOUND, 'bulkOrderGone', { orderNo: p.orderNo });
          throw AppError.conflict(lockKey(s) ?? 'bulkChangedSincePreview', { orderNo: p.orderNo });
        }
        const fixed = plan.orders.filter((p) => p.clearError).map((p) => p.id);
        const cleared = await transition(trx, 'clearError', fixed, { at, by: actor.userId });
        // The guarded apply held each row unchanged since the preview, error flag included.
        if (cleared.refused.length)
          throw AppError.conflict('bulkChangedSincePreview', { orderNo: cleared.refused[0]!.orderNo ?? '' });
        await repo.addEvents(
          trx,
          plan.orders.map((p) => ({
            order_id: p.id,
            kind: 'updated',
            at,
            location: null,
            note: null,
            created_by: actor.userId,
          })),
        );
      });
      await files.discard(f.storage_key).catch(() => {});
      return { updated: plan.orders.length };
    },
    /** The refused rows' workbook, for the user who uploaded the sheet. */
    async errorFile(actor: Actor, kind: ChangeKind, fileId: number) {
      const f = await loadGeneratedFile(db, files, { id: fileId, kind: errorsKind(kind), userId: actor.userId });
      if (!f) throw new AppError(ErrorCode.NOT_FOUND, 'notFound');
      return f;
    },
    /** An empty sheet with the kind's headers in the caller's language (the reader takes either language). */
    async template(lang: ApiLanguage, kind: ChangeKind) {
      const fields = KIND_FIELDS[kind];
      const body = await buildWorkbookBuffer(db, {
        sheet: {
          name: translate(lang, kind === 'batchSender' ? 'bulkSenderTemplateName' : 'bulkUpdatesTemplateName'),
          boldHeader: true,
          frozenHeader: true,
          columns: [
            { header: lang === 'en' ? 'Order number' : '订单号', width: 22 },
            ...fields.map((f) => ({ header: fieldLabel(lang, f), width: Math.min(40, 10 + FIELDS[f].max / 8) })),
          ],
        },
        rows: [],
      });
      return {
        filename: `${translate(lang, kind === 'batchSender' ? 'bulkSenderTemplateName' : 'bulkUpdatesTemplateName')}.xlsx`,
        body,
      };
    },
  };
}
export type OrderChanges = ReturnType<typeof createOrderChanges>;

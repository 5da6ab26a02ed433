import { type ApiLanguage, ErrorCode, lastPlaces, type ParsedRequest, storageOrders as C } from '@console/contract';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import type { UploadedFile } from '../../http/call-context.ts';
import { documentNumber } from '../../lib/document-numbers.ts';
import { AppError } from '../../lib/errors.ts';
import { loadGeneratedFile, saveGeneratedFile, XLSX_MIME } from '../../lib/generated-files.ts';
import { translate } from '../../lib/messages.ts';
import { readSheetRows } from '../../lib/sheet-rows.ts';
import { type Actor, customerFor, type Scope, scopeAllows } from '../../lib/scope.ts';
import type { Files } from '../../lib/files.ts';
import { buildWorkbookBuffer } from '../../lib/workbook-job.ts';
import { checkXlsxUpload } from '../../lib/xlsx-guard.ts';
import '../batches/index.ts';
import { createOutbound } from './storage-orders.outbound.ts';
import { createReweigh } from './storage-orders.reweigh.ts';
import { isOk, type Planned, preAlert, receive } from './storage-orders.lines.ts';
import { normalCode, type SheetWaybill, waybillsOfSheet } from './storage-orders.sheet.ts';
import {
  createStorageOrdersRepository,
  type FoundOrder,
  type StorageOrderRecord,
} from './storage-orders.repository.ts';

export const STORAGE_ERRORS_KIND = 'storageErrors';
type OrderStatus = NonNullable<C.StorageLine['order']>['status'];

export interface StorageOrdersDeps {
  db: Database;
  clock: () => Date;
  files: Files;
  uploadLimitBytes: number;
  /**
   * Runs in the transaction that stores lines, once its lines are written, with the codes
   * entered: what else arrives with them (app.ts wires pickups, whose booked boxes arriving mark
   * the booking picked up, and self-sends, whose declared parcels are marked arrived). Storage
   * knows neither module; a failure there rolls the storage back with it.
   */
  afterStore?: (
    trx: Transaction<DB>,
    so: { id: number; storage_no: string; customer_id: number | null; origin: string },
    codes: string[],
    at: string,
  ) => Promise<void>;
}

/**
 * Inbound storage: waybills typed, scanned or read from an xlsx become lines of a storage order;
 * each order found in the caller's scope is received through the order's life (`transition
 * receive`, the warehouse scan's move), in the transaction that writes the lines and counters.
 */
export function createStorageOrdersService(deps: StorageOrdersDeps) {
  const { db, clock, files } = deps;
  const repo = createStorageOrdersRepository(db);
  const now = () => clock().toISOString();

  const presentOrder = (r: StorageOrderRecord): C.StorageOrderRow => {
    const received = Number(r.received_count);
    const refused = Number(r.refused_count);
    return {
      id: r.id,
      storageNo: r.storage_no,
      customerId: r.customer_id,
      customerCode: r.customer_code ?? null,
      method: r.method as C.StorageMethod,
      origin: r.origin as C.StorageOrigin,
      lineCount: Number(r.line_count),
      receivedCount: received,
      refusedCount: refused,
      status: received === 0 ? 'refused' : refused === 0 ? 'received' : 'partial',
      fileName: r.file_name,
      preAlert: Number(r.pre_alert) === 1,
      createdBy: r.created_by_name,
      createdAt: new Date(r.created_at).toISOString(),
      updatedAt: new Date(r.updated_at).toISOString(),
    };
  };

  const lineMessage = (lang: ApiLanguage, key: string, code: string, orderNo: string | null | undefined) =>
    translate(lang, key, { code, orderNo: orderNo ?? code });

  /**
   * Stores the entered waybills into storage order `so` in `trx`: duplicates, unknown and
   * out-of-scope waybills and other customers' orders are refused here; the rest go to the
   * order's life, which receives each once (a parallel scanner's loses) or says why not. A
   * pre-alert (a customer's or agent's entry) receives nothing: its orders not yet received are
   * announced, their weights kept as declared ones; receiving and weighing are the warehouse's.
   */
  async function store(
    trx: Transaction<DB>,
    actor: Actor,
    scope: Scope,
    so: { id: number; customer_id: number | null; storage_no: string; origin: string; pre_alert: boolean },
    entered: SheetWaybill[],
    at: string,
  ) {
    const codes = [...new Set(entered.map((e) => e.code))];
    const found = await repo.byWaybills(trx, codes);
    // A waybill this storage order stored before is an order already received: only codes whose
    // order is received (or further) can be such a duplicate, so most scans skip the look-up.
    // A pre-alert's lines leave their orders as they were, so any found code may be such a duplicate.
    const maybeStored = so.pre_alert
      ? found
      : found.filter((o) => o.received_at !== null || !['created', 'printed'].includes(o.status));
    const stored = maybeStored.length
      ? await repo.storedCodes(
          trx,
          so.id,
          codes.filter((c) => maybeStored.some((o) => o.waybill_no === c || o.split_waybill_no === c)),
        )
      : new Set<string>();
    const byCode = new Map<string, FoundOrder>();
    for (const o of found) {
      // A waybill beats a split waybill of another order.
      if (o.split_waybill_no && !byCode.has(o.split_waybill_no)) byCode.set(o.split_waybill_no, o);
      if (o.waybill_no) byCode.set(o.waybill_no, o);
    }
    // Spec §5, one rule for pasted numbers (contract lastPlaces): a waybill entered twice is
    // received by its last line, with that line's weight; the earlier lines are its duplicates. A
    // row refused for its weight stores nothing, so it is no waybill's last line.
    const lastOf = lastPlaces(entered, (e) => (e.badWeight ? `\u0000row ${e.row}` : e.code));
    const plan: Planned[] = entered.map(({ code, row, weightG, badWeight }, i) => {
      if (badWeight) return { code, row, weightG, order: null, outcome: 'badWeight', key: 'storageBadWeight' };
      const repeated = lastOf.get(code) !== i;
      const dup = repeated || stored.has(code);
      const o = byCode.get(code);
      // Another tenant's order reads as no order at all: its existence is not told.
      const order = o && scopeAllows(scope, o.customer_id) ? o : null;
      if (dup)
        return {
          code,
          row,
          weightG,
          order,
          outcome: 'duplicate',
          key: repeated ? 'storageRepeatedBelow' : 'storageDuplicate',
        };
      if (!order) return { code, row, weightG, order: null, outcome: 'notFound', key: 'storageNotFound' };
      if (so.customer_id !== null && order.customer_id !== so.customer_id)
        return { code, row, weightG, order, outcome: 'otherCustomer', key: 'storageOtherCustomer' };
      return { code, row, weightG, order, outcome: 'received', key: 'storageReceived' };
    });
    if (so.pre_alert) preAlert(plan);
    else await receive(trx, actor.userId, so.storage_no, plan, at);
    // An order deleted since it was found (a delete racing this scan) cannot be the line's order:
    // on PostgreSQL its foreign key refused the whole entry. The lines still naming an order keep
    // it from being deleted until this commits; the ones whose order is gone read as not found.
    const named = plan.filter((p) => p.order !== null && p.outcome !== 'received').map((p) => p.order!.id);
    const alive = await repo.holdOrders(trx, named);
    for (const p of plan) {
      if (p.order === null || p.outcome === 'received' || alive.has(p.order.id)) continue;
      if (p.outcome !== 'duplicate') {
        p.outcome = 'notFound';
        p.key = 'storageNotFound';
      }
      p.order = null;
    }
    const weighed = (outcome: C.StorageOutcome) =>
      plan.flatMap((p) =>
        p.outcome === outcome && p.weightG !== null ? [{ id: p.order!.id, weightG: p.weightG }] : [],
      );
    if (so.pre_alert) {
      // Declared, never charged: kept apart from the measured weight.
      await repo.setDeclaredWeights(trx, weighed('preAlerted'));
      for (const p of plan)
        if (p.outcome === 'preAlerted' && p.weightG !== null) p.order!.declared_weight_g = p.weightG;
    } else {
      // The scale's weight becomes the order's (freight is priced by it), in the receive's transaction.
      await repo.setGrossWeights(trx, weighed('received'));
      for (const p of plan) if (p.outcome === 'received' && p.weightG !== null) p.order!.gross_weight_g = p.weightG;
    }
    const ids = await repo.insertLines(
      trx,
      plan.map((p) => ({
        storage_order_id: so.id,
        code: p.code,
        order_id: p.order?.id ?? null,
        outcome: p.outcome,
        message_key: p.key,
        gross_weight_g: p.weightG,
        created_at: at,
      })),
    );
    // What arrives with a storage (a pickup's boxes, a self-send's parcels) arrives at the warehouse only.
    if (!so.pre_alert) await deps.afterStore?.(trx, so, codes, at);
    const counts = await repo.addCounts(trx, so.id, plan.length, plan.filter((p) => isOk(p.outcome)).length, at);
    return { counts, lines: plan.map((p, i) => ({ ...p, id: ids[i]! })) };
  }

  const presentLine =
    (lang: ApiLanguage, at: string) =>
    (p: Planned & { id: number }): C.StorageLine => ({
      id: p.id,
      code: p.code,
      outcome: p.outcome,
      ok: isOk(p.outcome),
      message: lineMessage(lang, p.key, p.code, p.order?.order_no),
      grossWeightG: p.weightG,
      declaredWeightG: p.order?.declared_weight_g ?? null,
      measuredWeightG: p.order?.gross_weight_g ?? null,
      order: p.order
        ? {
            id: p.order.id,
            orderNo: p.order.order_no,
            waybillNo: p.order.waybill_no,
            customerCode: p.order.customer_code,
            status: p.order.status as OrderStatus,
            receivedAt: p.order.received_at ? new Date(p.order.received_at).toISOString() : null,
          }
        : null,
      at,
    });

  /** The storage order's customer: a customer's own; an agent names one of its customers; an operator may name none. */
  async function customerOf(actor: Actor, scope: Scope, requested: number | undefined) {
    if (scope.all) {
      if (requested === undefined) return null;
      if (!(await repo.customerExists(requested))) throw AppError.field('customerId', 'storageCustomerUnknown');
      return requested;
    }
    return customerFor(actor, scope, requested);
  }

  async function found(scope: Scope, id: number) {
    const so = await repo.find(db, scope, id);
    if (!so) throw new AppError(ErrorCode.NOT_FOUND, 'storageOrderNotFound');
    return so;
  }

  return {
    outbound: createOutbound({ db, clock, files, repo }),
    reweigh: createReweigh({ db, clock, repo }),

    async page(scope: Scope, f: C.StorageOrderListRequest) {
      const { total, rows } = await repo.page(scope, f);
      return { total, list: rows.map(presentOrder) };
    },

    async lines(scope: Scope, lang: ApiLanguage, input: ParsedRequest<typeof C.storageOrderOrders>) {
      const so = await found(scope, input.id);
      const { total, rows } = await repo.lines(so.id, input);
      return {
        total,
        storageOrder: presentOrder(so),
        list: rows.map((r): C.StorageLine => ({
          id: r.id,
          code: r.code,
          outcome: r.outcome as C.StorageOutcome,
          ok: isOk(r.outcome as C.StorageOutcome),
          message: lineMessage(lang, r.message_key, r.code, r.order_no),
          grossWeightG: r.gross_weight_g,
          declaredWeightG: r.declared_weight_g,
          measuredWeightG: r.measured_weight_g,
          order:
            r.order_id !== null && r.order_no !== null
              ? {
                  id: r.order_id,
                  orderNo: r.order_no,
                  waybillNo: r.waybill_no,
                  customerCode: r.customer_code ?? '',
                  status: r.status as OrderStatus,
                  receivedAt: r.received_at ? new Date(r.received_at).toISOString() : null,
                }
              : null,
          at: new Date(r.created_at).toISOString(),
        })),
      };
    },

    /** Entry (typed or scanned): a new storage order, or lines added to the caller's entry one. */
    async create(actor: Actor, scope: Scope, lang: ApiLanguage, input: ParsedRequest<typeof C.createStorageOrder>) {
      const at = now();
      // The contract checked that the weights, when given, are one per waybill.
      const entered = input.waybillNos.map((w, i) => ({
        code: normalCode(w),
        row: i + 1,
        weightG: input.grossWeightsG?.[i] ?? null,
      }));
      const existing = input.id !== undefined ? await found(scope, input.id) : null;
      if (existing && existing.method !== 'entry') throw AppError.conflict('storageOrderNotEntry');
      // Receipts and pre-alerts are not mixed in one storage order: its counts mean one thing.
      if (existing && (Number(existing.pre_alert) === 1) !== !scope.all)
        throw AppError.conflict('storageOrderOtherKind');
      const customerId = existing ? existing.customer_id : await customerOf(actor, scope, input.customerId);
      const { id, lines, counts } = await db.transaction().execute(async (trx) => {
        const so =
          existing ??
          (await (async () => {
            const storageNo = await documentNumber(trx, 'SO', clock());
            const row = await repo.insertStorageOrder(trx, {
              storage_no: storageNo,
              customer_id: customerId,
              method: 'entry',
              origin: input.origin,
              line_count: 0,
              received_count: 0,
              refused_count: 0,
              file_name: null,
              pre_alert: scope.all ? 0 : 1,
              created_by: actor.userId,
              created_at: at,
              updated_at: at,
            });
            return { id: row.id, customer_id: customerId, storage_no: storageNo, origin: input.origin };
          })());
        return { id: so.id, ...(await store(trx, actor, scope, { ...so, pre_alert: !scope.all }, entered, at)) };
      });
      // A scan added to a storage order answers with the counts its UPDATE returned (no re-read).
      const header = existing ? { ...existing, ...counts } : (await repo.find(db, scope, id))!;
      return { storageOrder: presentOrder(header), lines: lines.map(presentLine(lang, at)) };
    },

    /** Excel: column A's waybills (B: gross weights), all in one transaction; the refused rows to an error workbook. */
    async createBatch(
      actor: Actor,
      scope: Scope,
      lang: ApiLanguage,
      input: ParsedRequest<typeof C.createStorageOrderBatch>,
      upload: UploadedFile | undefined,
    ) {
      const file = await checkXlsxUpload(upload, deps.uploadLimitBytes);
      const read = await readSheetRows(file.data, C.STORAGE_BATCH_MAX_ROWS + 1);
      if (read.type === 'problem') throw AppError.field('file', translate(lang, read.key, read.params));
      const entered = waybillsOfSheet(read.rows);
      if (!entered.length) throw AppError.field('file', 'storageNoWaybills');
      if (entered.length > C.STORAGE_BATCH_MAX_ROWS)
        throw AppError.field('file', 'storageTooManyRows', { max: C.STORAGE_BATCH_MAX_ROWS });
      const customerId = await customerOf(actor, scope, input.customerId);
      const at = now();
      const storageNo = await documentNumber(db, 'SO', clock());
      const { id, lines } = await db.transaction().execute(async (trx) => {
        const { id } = await repo.insertStorageOrder(trx, {
          storage_no: storageNo,
          customer_id: customerId,
          method: 'excel',
          origin: input.origin,
          line_count: 0,
          received_count: 0,
          refused_count: 0,
          file_name: file.filename.slice(0, 255),
          pre_alert: scope.all ? 0 : 1,
          created_by: actor.userId,
          created_at: at,
          updated_at: at,
        });
        return {
          id,
          lines: (
            await store(
              trx,
              actor,
              scope,
              { id, customer_id: customerId, storage_no: storageNo, origin: input.origin, pre_alert: !scope.all },
              entered,
              at,
            )
          ).lines,
        };
      });
      const refused = lines.filter((l) => !isOk(l.outcome));
      const errorFileId = refused.length
        ? await saveGeneratedFile(db, files, {
            kind: STORAGE_ERRORS_KIND,
            name: `${translate(lang, 'storageErrorsName')}.xlsx`,
            mime: XLSX_MIME,
            customerId: actor.customerId,
            ownerUserId: actor.userId,
            data: await buildWorkbookBuffer(db, {
              sheet: {
                name: translate(lang, 'storageErrorsSheet'),
                boldHeader: true,
                frozenHeader: true,
                sharedStrings: true,
                columns: [
                  { header: translate(lang, 'storageWaybillColumn'), width: 22 },
                  { header: translate(lang, 'storageReasonColumn'), width: 60 },
                  { header: translate(lang, 'storageRowColumn'), width: 8 },
                ],
              },
              rows: refused.map((l) => [l.code, lineMessage(lang, l.key, l.code, l.order?.order_no), l.row]),
            }),
            at,
          })
        : null;
      const present = presentLine(lang, at);
      return {
        storageOrder: presentOrder((await repo.find(db, scope, id))!),
        refused: refused.slice(0, C.BATCH_LINES_SHOWN).map((l) => ({ ...present(l), row: l.row })),
        errorFileId,
      };
    },

    async errorFile(actor: Actor, fileId: number) {
      const f = await loadGeneratedFile(db, files, { id: fileId, kind: STORAGE_ERRORS_KIND, userId: actor.userId });
      if (!f) throw new AppError(ErrorCode.NOT_FOUND, 'notFound');
      return f;
    },

    origins: (lang: ApiLanguage) =>
      (['pickup', 'selfSend', 'counter'] as const).map((value) => ({
        value,
        label: translate(lang, `storageOrigin_${value}`),
      })),
  };
}
export type StorageOrdersService = ReturnType<typeof createStorageOrdersService>;

import { type ApiLanguage, ErrorCode, labelB as C, type ParsedRequest } from '@console/contract';
import type { Transaction } from 'kysely';
import { type Database, markJobWrite, settleJobWrite } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { isRecipientPhone, resolveDivision } from '../../domain/order-input.ts';
import { addressRefusal, changeAddress } from '../../domain/order-life.ts';
import { Download, type UploadedFile } from '../../http/call-context.ts';
import { AppError } from '../../lib/errors.ts';
import type { JobContext, JobQueue } from '../../lib/jobs.ts';
import { XLSX_MIME } from '../../lib/generated-files.ts';
import { translate } from '../../lib/messages.ts';
import { type Actor, customerFor, type Scope } from '../../lib/scope.ts';
import { readSheetRows } from '../../lib/sheet-rows.ts';
import { buildWorkbookBuffer } from '../../lib/workbook-job.ts';
import { checkXlsxUpload } from '../../lib/xlsx-guard.ts';
import '../batches/index.ts';
import '../orders/index.ts';
import { createLabelBRepository, type LabelBBatchRecord, type LabelBRowRecord } from './label-b.repository.ts';
import { documentNumber } from '../../lib/document-numbers.ts';
import type { JobPayload } from '../../lib/job-catalogue.ts';

/**
 * What an applied batch hands on: the printed orders it marked for a replacement label "B"
 * (called in the apply's transaction, so a charge written here commits or rolls back with the
 * address change). The bills module hooks its relabel fee here.
 */
export type OnLabelB = (
  trx: Transaction<DB>,
  marked: { batchId: number; customerId: number | null; orderIds: number[]; at: string; by: number | null },
) => Promise<void>;

export interface LabelBDeps {
  db: Database;
  clock: () => Date;
  uploadLimitBytes: number;
  onLabelB?: OnLabelB;
  /** Where a failing job is reported (the app's logger). */
  logError?: (err: unknown, batchId: number) => void;
  /** The job queue that runs the apply (lib/jobs.ts): once, on one instance. */
  jobs: JobQueue;
}

/** The apply's job kind: exclusive per batch, so a batch is never applied by two instances at once. */
const APPLY_JOB = 'label-b-apply';

const MAX_TEXT = 200;
const FIELDS = ['name', 'phone', 'province', 'city', 'district', 'address'] as const;
const COL_KEY: Record<(typeof FIELDS)[number], string> = {
  name: 'labelBColName',
  phone: 'labelBColPhone',
  province: 'labelBColProvince',
  city: 'labelBColCity',
  district: 'labelBColDistrict',
  address: 'labelBColAddress',
};

/** Thrown inside the apply's transaction to roll it back with the reason. */
class Refusal extends Error {
  readonly key: string;
  readonly orderNo: string | null;
  constructor(key: string, orderNo: string | null) {
    super(key);
    this.key = key;
    this.orderNo = orderNo;
  }
}

const iso = (t: string | Date) => new Date(t).toISOString();

/**
 * Address-modification batches: a dry run that stores a draft (no order changes), then a job
 * that applies every accepted row or none through order-life's `changeAddress` (the only code
 * deciding an order is still changeable). Tenancy: a batch belongs to one customer, its rows
 * name that customer's orders only (another's order is "not found").
 */
export function createLabelBService(deps: LabelBDeps) {
  const { db, clock } = deps;
  const repo = createLabelBRepository(db);
  const now = () => clock().toISOString();

  const presentBatch = (lang: ApiLanguage, b: LabelBBatchRecord): C.LabelBBatchRow => ({
    id: b.id,
    batchNo: b.batch_no,
    customerId: b.customer_id,
    customerCode: b.customer_code ?? null,
    status: b.status as C.LabelBStatus,
    progress: Number(b.progress),
    fileName: b.file_name,
    rowCount: Number(b.row_count),
    refusedCount: Number(b.refused_count),
    changedCount: Number(b.changed_count),
    labelBCount: Number(b.label_b_count),
    error: b.error_key
      ? translate(lang, 'labelBApplyFailed', {
          reason: translate(lang, b.error_key, { orderNo: b.error_order_no ?? '' }),
        })
      : null,
    createdAt: iso(b.created_at),
    updatedAt: iso(b.updated_at),
  });

  const presentRow = (lang: ApiLanguage, r: LabelBRowRecord): C.LabelBLine => {
    const old = r.old_address ? (typeof r.old_address === 'string' ? JSON.parse(r.old_address) : r.old_address) : null;
    const params = { orderNo: r.order_no, field: '' } as Record<string, string>;
    let reason: string | null = null;
    if (r.reason_key) {
      const extra =
        r.reason_field && r.reason_field in COL_KEY ? translate(lang, COL_KEY[r.reason_field as 'name']) : '';
      const value =
        r.reason_field && r.reason_field in COL_KEY ? String((r as any)[`new_${r.reason_field}`] ?? '') : '';
      reason = translate(lang, r.reason_key, { ...params, field: extra, value, max: MAX_TEXT });
    }
    return {
      rowNo: r.row_no,
      orderNo: r.order_no,
      orderId: r.order_id,
      oldAddress: old,
      newAddress: {
        name: r.new_name,
        phone: r.new_phone,
        province: r.new_province,
        city: r.new_city,
        district: r.new_district,
        address: r.new_address,
      },
      divisionCode: r.division_code,
      outcome: r.outcome as C.LabelBLine['outcome'],
      reason,
      reasonField: r.reason_field,
      warning: r.warning_key ? translate(lang, r.warning_key, params) : null,
      labelB: r.label_b === 1,
    };
  };

  async function loadScoped(scope: Scope, id: number) {
    const b = await repo.find(scope, id);
    if (!b) throw new AppError(ErrorCode.NOT_FOUND, 'labelBBatchNotFound');
    return b;
  }

  async function detail(scope: Scope, lang: ApiLanguage, id: number): Promise<C.LabelBDetail> {
    const b = await loadScoped(scope, id);
    return { batch: presentBatch(lang, b), rows: (await repo.rows(id)).map((r) => presentRow(lang, r)) };
  }

  /**
   * The job: every accepted row or none, in one transaction, so it may run again: a transient
   * database error (a restart, a failover) rolls it back and the queue runs it again instead of
   * the batch failing for good (issue 38 row 2).
   */
  async function apply(batchId: number, ctx: JobContext, askedBy?: number) {
    const at = now();
    try {
      const asker = await db.transaction().execute(async (trx) => {
        const b = await repo.batchToApply(batchId, trx);
        if (b.status !== 'applying') return null;
        const rows = (await repo.rows(batchId, trx)).filter((r) => r.outcome === 'ok' && r.order_id !== null);
        const res = await changeAddress(
          trx,
          rows.map((r) => ({
            id: r.order_id!,
            name: r.new_name,
            phone: r.new_phone,
            province: r.new_province,
            city: r.new_city,
            district: r.new_district,
            address: r.new_address,
          })),
          { at, by: b.created_by, note: b.batch_no },
        );
        const first = res.refused[0];
        if (first) throw new Refusal(first.key, first.orderNo);
        await repo.markChanged(trx, batchId, res.done, res.labelB);
        await repo.finish(
          trx,
          batchId,
          { status: 'done', changed_count: res.done.length, label_b_count: res.labelB.length },
          at,
        );
        if (res.labelB.length && deps.onLabelB)
          await deps.onLabelB(trx, { batchId, customerId: b.customer_id, orderIds: res.labelB, at, by: b.created_by });
        // The asker's next order list waits for a replica to replay the new addresses
        // (DATABASE_READ_URL). A job enqueued without one (recovered at start): the batch's maker.
        const asker = askedBy ?? b.created_by;
        await markJobWrite(db, trx, asker);
        return asker;
      });
      if (asker !== null) await settleJobWrite(db, asker);
    } catch (err) {
      if (ctx.runsAgainAfter(err)) throw err;
      const refusal = err instanceof Refusal ? err : null;
      if (!refusal) deps.logError?.(err, batchId);
      await repo.finish(
        db,
        batchId,
        {
          status: 'failed',
          error_key: refusal?.key ?? 'labelBApplyError',
          error_order_no: refusal?.orderNo ?? null,
        },
        now(),
      );
    }
  }

  deps.jobs.define<JobPayload<'label-b-apply'>>({
    name: APPLY_JOB,
    exclusive: true,
    run: (p, ctx) => apply(p.batchId, ctx, p.userId),
    // An apply that kept stopping its process: the batch fails with the reason (nothing changed:
    // each apply is one transaction).
    gaveUp: async (p, reason) => void (await repo.failApplying(db, p.batchId, reason, now())),
  });
  const enqueueApply = (batchId: number, customerId: number | null, trx?: Transaction<DB>, userId?: number) =>
    deps.jobs.enqueue(
      APPLY_JOB,
      { batchId, ...(userId === undefined ? {} : { userId }) },
      { trx, customerId, size: 'heavy', singletonKey: String(batchId) },
    );

  return {
    async page(scope: Scope, lang: ApiLanguage, f: C.LabelBListRequest) {
      const { total, rows } = await repo.page(scope, f);
      return { total, list: rows.map((b) => presentBatch(lang, b)) };
    },

    async progress(scope: Scope, lang: ApiLanguage, id: number) {
      return presentBatch(lang, await loadScoped(scope, id));
    },

    info: detail,

    async template(lang: ApiLanguage) {
      const columns = ['labelBColOrderNo', ...FIELDS.map((f) => COL_KEY[f])].map((k) => ({
        header: translate(lang, k),
        width: k === 'labelBColAddress' ? 40 : 16,
      }));
      const data = await buildWorkbookBuffer(db, {
        sheet: { name: translate(lang, 'labelBSheet'), boldHeader: true, frozenHeader: true, columns },
        rows: [],
      });
      return new Download(`${translate(lang, 'labelBTemplateName')}.xlsx`, XLSX_MIME, data);
    },

    async exportRows(scope: Scope, lang: ApiLanguage, id: number) {
      const d = await detail(scope, lang, id);
      const t = (k: string) => translate(lang, k);
      const columns = [
        'labelBColOrderNo',
        'labelBColOld',
        ...FIELDS.map((f) => COL_KEY[f]),
        'labelBColOutcome',
        'labelBColReason',
        'labelBColLabelB',
      ].map((k) => ({ header: t(k), width: k === 'labelBColOld' || k === 'labelBColReason' ? 40 : 16 }));
      const data = await buildWorkbookBuffer(db, {
        sheet: { name: t('labelBSheet'), boldHeader: true, frozenHeader: true, sharedStrings: true, columns },
        rows: d.rows.map((r) => [
          r.orderNo,
          r.oldAddress
            ? `${r.oldAddress.name} ${r.oldAddress.phone} ${r.oldAddress.province}${r.oldAddress.city}${r.oldAddress.district}${r.oldAddress.address}`
            : '',
          ...FIELDS.map((f) => r.newAddress[f]),
          t(`labelBOutcome_${r.outcome}`),
          r.reason ?? r.warning ?? '',
          r.labelB ? t('labelBYes') : '',
        ]),
      });
      return new Download(`${t('labelBExportName')}-${d.batch.batchNo}.xlsx`, XLSX_MIME, data);
    },

    /** The dry run: reads the workbook, judges every row, stores a draft. No order changes. */
    async prompt(
      actor: Actor,
      scope: Scope,
      lang: ApiLanguage,
      input: ParsedRequest<typeof C.labelBPrompt>,
      upload: UploadedFile | undefined,
    ) {
      const customerId = customerFor(actor, scope, input.customerId);
      const file = await checkXlsxUpload(upload, deps.uploadLimitBytes);
      const read = await readSheetRows(file.data, C.LABEL_B_MAX_ROWS + 2);
      if (read.type === 'problem') throw AppError.field('file', translate(lang, read.key, read.params));
      // The first row is a header when its order-number cell holds no digit ("订单号", "Order No.").
      const lines = read.rows
        .filter((r, i) => !(i === 0 && !/\d/.test(r.cells[0] ?? '')))
        .map((r) => ({ row: r.row, cells: Array.from({ length: 7 }, (_, i) => (r.cells[i] ?? '').trim()) }))
        .filter((r) => r.cells.some(Boolean));
      if (!lines.length) throw AppError.field('file', 'labelBNoRows');
      if (lines.length > C.LABEL_B_MAX_ROWS)
        throw AppError.field('file', 'labelBTooManyRows', { max: C.LABEL_B_MAX_ROWS });

      const orders = await repo.ordersByNo(
        customerId,
        [...new Set(lines.map((l) => l.cells[0]!).filter(Boolean))].map((s) => s.slice(0, 64)),
      );
      const byNo = new Map(orders.map((o) => [o.order_no, o]));
      const seen = new Set<string>();
      const rows = lines.map((l) => {
        const [orderNo, name, phone, province, city, district, address] = l.cells as [string, ...string[]];
        const fields = { name, phone, province, city, district, address } as Record<(typeof FIELDS)[number], string>;
        const o = byNo.get(orderNo);
        let reason: { key: string; field: string | null } | null = null;
        let division: ReturnType<typeof resolveDivision> | null = null;
        const empty = FIELDS.find((f) => !fields[f]);
        const long = FIELDS.find((f) => fields[f].length > MAX_TEXT);
        if (!o) reason = { key: 'labelBOrderNotFound', field: null };
        else if (seen.has(orderNo)) reason = { key: 'labelBDuplicate', field: null };
        else if (empty) reason = { key: 'labelBRequired', field: empty };
        else if (long) reason = { key: 'labelBTooLong', field: long };
        else if (!isRecipientPhone(fields.phone)) reason = { key: 'labelBPhone', field: 'phone' };
        else {
          division = resolveDivision(fields.province, fields.city, fields.district);
          if (!division.ok) reason = { key: division.messageKey, field: division.field };
          else {
            const life = addressRefusal(o);
            if (life) reason = { key: life, field: null };
          }
        }
        if (o) seen.add(orderNo);
        const resolved = division?.ok ? division : null;
        return {
          row_no: l.row,
          order_no: orderNo.slice(0, 64),
          order_id: o?.id ?? null,
          old_address: o
            ? JSON.stringify({
                name: o.recipient_name,
                phone: o.recipient_phone,
                province: o.recipient_province,
                city: o.recipient_city,
                district: o.recipient_district,
                address: o.recipient_address,
              })
            : null,
          new_name: fields.name.slice(0, MAX_TEXT),
          new_phone: fields.phone.slice(0, MAX_TEXT),
          // Stored by their canonical names, as the order form stores them.
          new_province: resolved?.province ?? fields.province.slice(0, MAX_TEXT),
          new_city: resolved?.city ?? fields.city.slice(0, MAX_TEXT),
          new_district: resolved?.district ?? fields.district.slice(0, MAX_TEXT),
          new_address: fields.address.slice(0, MAX_TEXT),
          division_code: resolved?.code ?? null,
          outcome: reason ? 'refused' : 'ok',
          reason_key: reason?.key ?? null,
          reason_field: reason?.field ?? null,
          warning_key: !reason && o && Number(o.print_count) > 0 ? 'labelBWillReplace' : null,
        };
      });
      const at = now();
      const id = await db.transaction().execute(async (trx) =>
        repo.insertDraft(
          trx,
          {
            batch_no: await documentNumber(trx, 'LB', clock()),
            customer_id: customerId,
            file_name: file.filename.slice(0, 255),
            row_count: rows.length,
            refused_count: rows.filter((r) => r.outcome === 'refused').length,
            created_by: actor.userId,
            at,
          },
          rows,
        ),
      );
      return detail(scope, lang, id);
    },

    /** Confirms a draft: starts the job and answers at once. */
    async create(actor: Actor, scope: Scope, lang: ApiLanguage, id: number) {
      const b = await loadScoped(scope, id);
      if (b.status !== 'draft') throw AppError.conflict('labelBNotDraft');
      if (Number(b.refused_count) >= Number(b.row_count)) throw AppError.conflict('labelBNothingToApply');
      // The state change and its job commit together: no batch 'applying' without a job to apply it.
      await db.transaction().execute(async (trx) => {
        if (!(await repo.startApplying(scope, id, now(), trx))) throw AppError.conflict('labelBNotDraft');
        await enqueueApply(id, b.customer_id, trx, actor.userId);
      });
      return presentBatch(lang, await loadScoped(scope, id));
    },

    /** The hook the apply runs (exposed for tests and for a job runner). */
    apply,

    /**
     * A batch left 'applying' before its apply was a queued job (or whose job was lost): enqueued
     * again. The kind is exclusive per batch, so a batch another instance is applying right now
     * is left to it, and the apply does nothing to a batch no longer 'applying'.
     */
    async recoverAtStart() {
      for (const b of await repo.applying()) await enqueueApply(b.id, b.customer_id);
    },
  };
}
export type LabelBService = ReturnType<typeof createLabelBService>;

import { type ApiLanguage, batches as contract, chinaDate, ErrorCode } from '@console/contract';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { allowedChannelsOf } from '../../domain/customer-channels.ts';
import { Download } from '../../http/call-context.ts';
import { AppError } from '../../lib/errors.ts';
import { storedFileBody } from '../../lib/generated-files.ts';
import { translate } from '../../lib/messages.ts';
import { type Actor, customerFor, type Scope } from '../../lib/scope.ts';
import type { Files } from '../../lib/files.ts';
import type { ProgressTracker } from '../../lib/export-progress.ts';
import { buildWorkbookStream } from '../../lib/workbook-job.ts';
import type { JobQueue } from '../../lib/jobs.ts';
import { cnDivisions } from '../../domain/cn-divisions.ts';
import { batchOrdersJob } from './batch-orders.export.ts';
import { COMMIT_JOB, type CommitPayload, createBatchConfirms } from './batch-confirm.ts';
import { createBatchParses, type ParsePayload, type Preview } from './batch-parse.ts';
import { createBatchesRepository } from './batches.repository.ts';
import type { ParsePool } from './parse-pool.ts';
import type { NotesSummary, OrderNote } from './parse.protocol.ts';
import type { CatalogueEntries } from '../../domain/pricing/index.ts';
import { presentTax } from '../orders/index.ts';
import { fenText } from '../../domain/pricing/tax-estimate.ts';
import { buildNumbersTemplate, buildTemplate } from './template-workbook.ts';
import { COLUMNS } from '../../domain/order-templates/template-columns.ts';
import { TEMPLATES, templateFor } from '../../domain/order-templates/templates.ts';
import { checkXlsxUpload } from '../../lib/xlsx-guard.ts';
import { batchNumber } from '../../lib/document-numbers.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export { MAX_ROWS } from './batch-parse.ts';
/** The period of the preview-expiry job (once per period across instances). */
const SWEEP_MS = 30_000;
/** The queue's kinds (lib/jobs.ts): a batch's parse and commit, one of each per batch at a time. */
const PARSE_JOB = 'batch-parse';

type UploadCall = 'create' | 'createImport' | 'createImportByBoxC' | 'createUsaBoxcImport' | 'createEmsImport';
type BatchRecord = NonNullable<Awaited<ReturnType<ReturnType<typeof createBatchesRepository>['find']>>>;

export interface BatchesDeps {
  db: Database;
  clock: () => Date;
  files: Files;
  assertNoticesClear: (actor: Actor) => Promise<void>;
  uploadLimitBytes: number;
  /** The instance's one parse pool (parse-pool.ts), shared with order review; the app closes it. */
  parsePool: ParsePool;
  /** An unconfirmed preview is dropped this long after it was made. */
  previewTtlMinutes: number;
  /** Tests only: runs after each staged chunk of a commit is written (to act while orders are staged). */
  afterStagedChunk?: (batchId: number, written: number) => Promise<void>;
  /** The customer's catalogue status and tax data of many JANs (modules/items/items.catalogue.ts). */
  catalogueEntries?: CatalogueEntries;
  /** Where a job's unexpected failure is reported (the app's logger), with the id the user is shown. */
  logError?: (err: unknown, context: { batchId: number; errorId: string }) => void;
  /** The queue parses and commits run on (lib/jobs.ts): on a worker instance, taken over if it dies. */
  jobs: JobQueue;
}

/**
 * Batch import: upload → parse and validate in a worker (preview, error workbook; the parsed
 * orders are stored as a file until confirmed or expired) → confirm → the orders are staged in
 * short transactions, hidden while the batch is `committing`, and one short transaction makes
 * them all visible; a failure removes them (all or nothing). Progress lives in the batches row
 * (and in memory in the process that runs the job). Parse and commit are jobs on the queue,
 * enqueued with the status change that asks for them, so any worker instance runs them and
 * another takes one over only once its owner's lease lapsed.
 */
export function createBatchesService(deps: BatchesDeps) {
  const { db, clock, files } = deps;
  const repo = createBatchesRepository(db);
  const now = () => clock().toISOString();
  /** Live progress of the jobs this process runs (parsed orders wait in files, not here). */
  const live = new Map<number, { progress: number }>();

  const exportArg = async (lang: ApiLanguage) => ({
    lang,
    decimals: Object.fromEntries((await repo.referenceData()).currencies),
  });

  const present = (b: BatchRecord) => ({
    id: b.id,
    batchNo: b.batch_no,
    customerId: b.customer_id,
    customerCode: b.customer_code,
    customerName: b.customer_name,
    channel: b.channel_code as never,
    templateKind: b.template_kind,
    exportNomination:
      b.export_nomination_id !== null ? { id: b.export_nomination_id, name: b.export_nomination_name ?? '' } : null,
    status: b.status as never,
    // The in-memory count only while the row says the work runs: a commit publishes "done" (a parse
    // its preview) before it clears its count, and a read between the two saw done at 99 % (a CI
    // run on SQLite).
    progress:
      b.status === 'parsing' || b.status === 'committing' ? (live.get(b.id)?.progress ?? b.progress) : b.progress,
    totalRows: b.total_rows,
    validRows: b.valid_rows,
    invalidRows: b.invalid_rows,
    confirmRows: b.confirm_rows,
    orderCount: b.order_count,
    // Only a preview still open has a time left.
    previewUntil: b.status === 'preview' ? b.preview_until : null,
    receiveStatus: b.receive_status,
    errorMessage: b.error_message,
    hasErrorWorkbook: b.error_file_id !== null,
    createdAt: b.created_at,
    updatedAt: b.updated_at,
  });

  const removeFile = (key: string | null) => (key ? files.discard(key).catch(() => {}) : Promise.resolve());
  const parses = createBatchParses({ db, clock, files, deps, repo, live, now, removeFile });
  const { parsedOrders } = parses;
  // Heavy, by customer: one customer's big sheets wait behind each other, not before another's.
  const enqueue = (kind: string, p: ParsePayload | CommitPayload, customerId: number, trx?: Transaction<DB>) =>
    deps.jobs.enqueue(kind, p, { trx, customerId, size: 'heavy', singletonKey: String(p.batchId) });
  const confirms = createBatchConfirms({
    db,
    deps,
    repo,
    live,
    now,
    parsedOrders,
    removeFile,
    enqueue,
    loadScoped,
    checkStale,
    present,
  });
  const { commitRun } = confirms;

  // Exclusive per batch: a second enqueue of a batch's job while one waits or runs is dropped.
  // Retryable only for that hand-back: parseRun settles every other failure itself.
  deps.jobs.define<ParsePayload>({
    name: PARSE_JOB,
    exclusive: true,
    retry: { limit: 2, delaySeconds: 1 },
    run: parses.parseRun,
    // A parse that kept stopping its process (a sheet that exhausts memory): the batch says so.
    gaveUp: (p, reason) => parses.failStopped(p.batchId, reason),
  });
  deps.jobs.define<CommitPayload>({ name: COMMIT_JOB, exclusive: true, run: commitRun });

  /** Unconfirmed previews past PREVIEW_TTL_MINUTES: failed with the reason, their parsed orders removed. */
  async function expirePreviews() {
    for (const b of await repo.expiredPreviews(now())) {
      const msg = (lang: ApiLanguage) => translate(lang, 'batchPreviewExpired', { minutes: deps.previewTtlMinutes });
      // preview_until stays: it tells a later confirm why the batch failed.
      const expired = await repo.updateFrom(b.id, 'preview', {
        status: 'failed',
        error_message: `${msg('zh-CN')} / ${msg('en')}`,
        parsed_key: null,
        updated_at: now(),
      });
      // Only by whoever moved it: a confirm that won the race is reading the file.
      if (expired) await removeFile(b.parsed_key);
    }
  }

  // Once per period across instances (the queue's periodic job), at start too.
  deps.jobs.every({ name: 'batch-preview-expiry', run: () => expirePreviews() }, { everyMs: SWEEP_MS, atStart: true });

  /** Where a parsing batch stands in line (absent when it neither waits nor runs): read from the database, the same on every instance. */
  const queued = async (id: number) => {
    const at = await repo.queuePosition(id);
    return at === undefined ? {} : { queuePosition: at };
  };

  async function loadScoped(scope: Scope, id: number) {
    const b = await repo.find(scope, id);
    if (!b) throw new AppError(ErrorCode.NOT_FOUND, 'batchNotFound');
    return b;
  }

  /** A preview past its end is expired before it is shown (the periodic job may not have run yet). */
  async function checkStale(b: BatchRecord) {
    const t = clock().getTime();
    if (b.status === 'preview' && b.preview_until && new Date(b.preview_until).getTime() <= t) {
      await expirePreviews();
      return true;
    }
    return false;
  }

  return {
    /**
     * At start: a batch parsing or committing may have no job (left by a version that ran them in
     * the instance that took the call): one is enqueued that fails it as interrupted. Both kinds
     * are exclusive per batch, so a batch whose job waits or runs (on this or another instance) is
     * left to it: a starting instance touches no other's running batch.
     */
    async recoverAtStart() {
      for (const b of await repo.running()) {
        const p = { batchId: b.id, lang: 'zh-CN' as const, recovered: true };
        if (b.status === 'parsing') await enqueue(PARSE_JOB, { ...p, channel: null }, b.customer_id);
        else await enqueue(COMMIT_JOB, { ...p, userId: b.created_by }, b.customer_id);
      }
      // Previews with errors were once made without an end: they get one from now.
      await repo.endlessPreviews(new Date(clock().getTime() + deps.previewTtlMinutes * 60_000).toISOString());
    },
    /** Ends the running parses (batch-parse.ts). */
    close: () => parses.close(),

    async template(kind: contract.TemplateKind) {
      const def = TEMPLATES[kind];
      // Not an import: a list of numbers to look for (Batch Orders Search).
      if (!def.importable) return new Download(`${def.title.zh}-${kind}.xlsx`, XLSX, await buildNumbersTemplate(def));
      const ref = await repo.referenceData();
      const lists = {
        channel: ref.channels.map((c) => c.code),
        currency: ref.currencies.map(([c]) => c),
        clearanceCompany: ref.clearanceCompanies,
        orderType: ref.orderTypes,
        province: cnDivisions.provinces().map((p) => p.name),
      };
      const currency = ref.channels.find((c) => c.code === def.channel)?.currency;
      return new Download(`${def.title.zh}-${kind}.xlsx`, XLSX, await buildTemplate(def, lists, currency));
    },

    async upload(
      call: UploadCall,
      actor: Actor,
      scope: Scope,
      input: contract.UploadFields,
      upload: { filename: string; data: Buffer } | undefined,
      lang: ApiLanguage,
    ) {
      // Checked before a batch exists (xlsx-guard.ts, lib/zip.ts).
      const sheet = await checkXlsxUpload(upload, deps.uploadLimitBytes);
      const customerId = customerFor(actor, scope, input.customerId);
      const kind = templateFor(call, input.channel);
      if (!kind) throw AppError.field('channel', input.channel ? 'channelNotForCall' : 'channelRequired');
      const def = TEMPLATES[kind];
      if (def.channel && input.channel && input.channel !== def.channel)
        throw AppError.field('channel', 'channelNotForCall');
      const channel = def.channel ?? input.channel ?? null;
      if (kind !== 'order' && !channel) throw AppError.field('channel', 'channelRequired');
      // The page's channel is refused at once; channels named per row are refused row by row.
      const allowed = await allowedChannelsOf(db, customerId);
      if (channel && allowed && !allowed.has(channel))
        throw AppError.field('channel', 'channelNotAllowed', { value: channel });
      if (input.exportNominationId && !(await repo.exportNominationOf(input.exportNominationId, customerId))) {
        throw AppError.field('exportNominationId', 'notFound');
      }
      const ref = await repo.referenceData();
      if (input.clearanceCompany && !ref.clearanceCompanies.includes(input.clearanceCompany)) {
        throw AppError.field('clearanceCompany', 'clearanceCompanyUnknown');
      }
      await deps.assertNoticesClear(actor);

      const t = now();
      const stored = await files.write(sheet.data, sheet.filename);
      // A failed insert (a full database) leaves no stored file behind that nothing points at.
      const forget = (e: unknown) =>
        files.discard(stored.key).then(
          () => Promise.reject(e),
          () => Promise.reject(e),
        );
      const fileId = await files
        .record(stored, {
          customer_id: customerId,
          owner_user_id: actor.userId,
          kind: 'batchUpload',
          name: sheet.filename.slice(0, 200),
          mime: XLSX,
          created_at: t,
        })
        .catch(forget);
      const batchNo = await batchNumber(db, clock());
      const batch = {
        batch_no: batchNo,
        customer_id: customerId,
        channel_code: channel ?? 'JP',
        template_kind: kind,
        export_nomination_id: input.exportNominationId ?? null,
        clearance_company_code: input.clearanceCompany ?? null,
        file_id: fileId,
        status: 'parsing',
        created_by: actor.userId,
        created_at: t,
        updated_at: t,
        // Null until the parse starts in a worker: waiting in line (repo.queuePosition).
        heartbeat_at: null,
      };
      // The batch and its parse job together: no batch parsing without a job to parse it.
      const id = await db.transaction().execute(async (trx) => {
        const { id } = await repo.insertBatch(batch, trx);
        await enqueue(PARSE_JOB, { batchId: id, lang, channel }, customerId, trx);
        return id;
      });
      deps.jobs.wake(PARSE_JOB);
      return present((await repo.find(scope, id))!);
    },

    /** Confirm a preview: the batch goes committing with its commit job (batch-confirm.ts). */
    confirm: confirms.confirm,

    async progress(scope: Scope, id: number, lang: ApiLanguage) {
      let b = await loadScoped(scope, id);
      if (await checkStale(b)) b = await loadScoped(scope, id);
      const preview = JSON.parse(b.preview ?? '{}') as Partial<Preview>;
      // Absent for batches parsed before issue 12 and for failed parses.
      const notes = JSON.parse((await repo.notes(b.id)) ?? '{}') as {
        orderNotes?: OrderNote[];
        notesSummary?: NotesSummary;
      };
      const titleOf = (k: string | null) =>
        k ? (lang === 'en' ? COLUMNS[k as 'orderNo'].en : COLUMNS[k as 'orderNo'].zh) : null;
      return {
        ...present(b),
        // All the stored issues (the first 200): the console says when the rows with errors are more.
        errors: (preview.errors ?? []).map((e) => ({
          row: e.row,
          column: e.letter,
          columnTitle: titleOf(e.col),
          message: translate(lang, e.key, e.params),
        })),
        invalidOrders: preview.invalidOrders ?? 0,
        confirmations: (preview.confirmations ?? []).map((c) => ({
          kind: c.kind as never,
          message: translate(lang, c.key, c.params),
          count: c.count,
          rows: c.rows,
        })),
        confirmOrders: (preview.confirmOrders ?? []).map((o) => ({
          row: o.row,
          orderNo: o.orderNo,
          reasons: o.reasons.map((r) => ({ kind: r.kind as never, message: translate(lang, r.key, r.params) })),
        })),
        orderNotes: (notes.orderNotes ?? []).map((n) => ({
          row: n.row,
          orderNo: n.orderNo,
          items: n.items,
          taxEstimate: presentTax(n.tax),
          yearlyLimit: n.yearlyLimit,
          messages: n.reasons.map((r) => translate(lang, r.key, r.params)),
        })),
        notesSummary: {
          unregisteredItems: notes.notesSummary?.unregisteredItems ?? 0,
          yearlyLimitOrders: notes.notesSummary?.yearlyLimitOrders ?? 0,
          taxTotal: fenText(notes.notesSummary?.taxTotalFen ?? 0),
          taxedOrders: notes.notesSummary?.taxedOrders ?? 0,
        },
        duplicates: preview.duplicates ?? [],
        ...(await queued(b.id)),
      };
    },

    async errorWorkbook(scope: Scope, id: number) {
      const b = await loadScoped(scope, id);
      if (!b.error_file_id) throw AppError.badRequest('noErrorWorkbook');
      const f = (await repo.file(b.error_file_id))!;
      return new Download(f.name, XLSX, await storedFileBody(files, f));
    },

    async page(scope: Scope, p: Parameters<typeof repo.page>[1]) {
      const { total, list } = await repo.page(scope, p);
      return { total, list: list.map(present) };
    },
    async search(scope: Scope, p: Parameters<typeof repo.search>[1]) {
      const { total, list } = await repo.search(scope, p);
      return { total, list: list.map(present) };
    },

    async remove(scope: Scope, id: number) {
      const b = await loadScoped(scope, id);
      if (b.status === 'parsing' || b.status === 'committing') throw AppError.conflict('batchBusy');
      const moved = await repo.movedOrders(id);
      if (moved) throw AppError.conflict('batchDeleteRefused', { count: Number(moved.n), orderNo: moved.order_no });
      if (!(await repo.deleteBatch(id))) throw AppError.conflict('batchDeleteRefused', { count: 1, orderNo: '' });
      await removeFile(b.parsed_key);
      return null;
    },

    // The batch downloads show prices in each currency's units, as the screen does.
    async downloadExcel(scope: Scope, id: number, lang: ApiLanguage, progress?: ProgressTracker) {
      const b = await loadScoped(scope, id);
      const job = batchOrdersJob(repo.ordersForExport(scope, { batchId: id }), await exportArg(lang));
      return new Download(`${b.batch_no}.xlsx`, XLSX, await buildWorkbookStream(db, job, progress));
    },
    async downloadExcelByTime(
      scope: Scope,
      period: 'lastWeek' | 'lastMonth' | 'lastThreeMonths',
      lang: ApiLanguage,
      progress?: ProgressTracker,
    ) {
      const days = { lastWeek: 7, lastMonth: 30, lastThreeMonths: 91 }[period];
      const since = new Date(clock().getTime() - days * 86_400_000).toISOString();
      const job = batchOrdersJob(repo.ordersForExport(scope, { since }), await exportArg(lang));
      return new Download(
        `batches-${period}-${chinaDate(clock())}.xlsx`,
        XLSX,
        await buildWorkbookStream(db, job, progress),
      );
    },
  };
}
export type BatchesService = ReturnType<typeof createBatchesService>;

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
import { isStorageFull, type Storage, StoredFileMissing } from '../../lib/storage.ts';
import type { ProgressTracker } from '../../lib/export-progress.ts';
import { buildWorkbookStream } from '../../lib/workbook-job.ts';
import type { JobContext, JobQueue } from '../../lib/jobs.ts';
import { cnDivisions } from '../reference/cn-divisions.ts';
import { batchOrdersJob } from './batch-orders.export.ts';
import './batches.messages.ts';
import { type CommitPayload, createBatchCommits, interruptedMessage } from './batches.commit.ts';
import { createBatchesRepository } from './batches.repository.ts';
import { createParsePool, parseFailureText } from './parse-pool.ts';
import { decodeParsedOrders, parsedChannels } from './parsed-orders.ts';
import type { ConfirmOrder, Issue, NotesSummary, OrderNote, ParseJob } from './parse.worker.ts';
import { type CatalogueEntries, loadChannelTax, presentTax, yearlyTotals } from '../orders/orders.tax.ts';
import { fenText } from '../../domain/tax-estimate.ts';
import { buildTemplate } from './template-workbook.ts';
import { COLUMNS, TEMPLATES, templateFor } from './templates.ts';
import { checkXlsxUpload } from './xlsx-guard.ts';
import { batchNumber } from '../../lib/document-numbers.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const MAX_ROWS = 100_000;
/** The period of the preview-expiry job (once per period across instances). */
const SWEEP_MS = 30_000;
/** The queue's kinds (lib/jobs.ts): a batch's parse and commit, one of each per batch at a time. */
const PARSE_JOB = 'batch-parse';
const COMMIT_JOB = 'batch-commit';
/**
 * `recovered`: enqueued at start for a batch left parsing or committing with no job (by a version
 * that ran them in the instance that took the call): it fails the batch as interrupted.
 */
type ParsePayload = { batchId: number; lang: ApiLanguage; channel: string | null; recovered?: boolean };

type UploadCall = 'create' | 'createImport' | 'createImportByBoxC' | 'createUsaBoxcImport' | 'createEmsImport';
type Preview = {
  errors: Issue[];
  confirmations: {
    kind: string;
    key: string;
    params?: Record<string, string | number>;
    rows: number[];
    count: number;
  }[];
  duplicates: { orderNo: string; rows: number[]; keptRow: number }[];
  /** Orders with errors (absent in previews stored before it was counted). */
  invalidOrders?: number;
  confirmOrders?: ConfirmOrder[];
  /** The channels of the orders to write (absent in previews stored before it was kept). */
  channels?: string[];
  fatal?: { key: string; params?: Record<string, string | number> };
};
type BatchRecord = NonNullable<Awaited<ReturnType<ReturnType<typeof createBatchesRepository>['find']>>>;

export interface BatchesDeps {
  db: Database;
  clock: () => Date;
  files: Storage;
  assertNoticesClear: (actor: Actor) => Promise<void>;
  uploadLimitBytes: number;
  /** Parse workers at once, and each one's time and heap limits (config PARSE_*). */
  parse?: { workers: number; timeoutSeconds: number; memoryMb: number };
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
  /** Set when the app closes: parse jobs handed over from then on go back to the queue. */
  let closing = false;

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
    progress: live.get(b.id)?.progress ?? b.progress,
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

  // Parses wait for one of a fixed number of workers, each with memory and time limits (parse-pool.ts).
  const pool = createParsePool({
    workers: deps.parse?.workers ?? 1,
    timeoutMs: (deps.parse?.timeoutSeconds ?? 300) * 1000,
    memoryMb: deps.parse?.memoryMb ?? 768,
  });

  function runWorker(
    job: ParseJob,
    customerId: number,
    onProgress: (f: number) => void,
    run: { onStart?: () => void; signal?: AbortSignal } = {},
  ) {
    return pool.run(job, {
      ...run,
      onProgress,
      existingOrderNos: (orderNos) => repo.existingOrderNos(db, customerId, orderNos),
      lookup: async (jans, idCards) => {
        const [entries, yearly] = await Promise.all([
          deps.catalogueEntries?.(customerId, jans) ?? new Map(),
          yearlyTotals(db, idCards, clock(), new Map(job.channelTax), new Map(job.currencies)),
        ]);
        return { entries: [...entries], yearly: [...yearly] };
      },
    });
  }

  async function jobFor(
    batch: {
      customer_id: number;
      template_kind: string;
      channel_code: string;
      export_nomination_id: number | null;
      clearance_company_code: string | null;
    },
    file: Buffer,
    lang: ApiLanguage,
  ): Promise<ParseJob> {
    const [ref, channelTax, allowed] = await Promise.all([
      repo.referenceData(),
      loadChannelTax(db),
      allowedChannelsOf(db, batch.customer_id),
    ]);
    return {
      channelTax: [...channelTax],
      allowedChannels: allowed ? [...allowed] : null,
      file: new Uint8Array(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength)),
      kind: batch.template_kind as ParseJob['kind'],
      channel: batch.channel_code,
      customerId: batch.customer_id,
      exportNominationId: batch.export_nomination_id,
      clearanceCompany: batch.clearance_company_code,
      now: now(),
      lang,
      maxRows: MAX_ROWS,
      ...ref,
    };
  }

  async function parseJob(batchId: number, job: ParseJob, signal: AbortSignal) {
    live.set(batchId, { progress: 0 });
    let lastBeat = Date.now();
    try {
      const r = await runWorker(
        job,
        job.customerId,
        (f) => {
          const progress = Math.floor(f * 100);
          live.set(batchId, { progress });
          if (Date.now() - lastBeat > 5_000) {
            lastBeat = Date.now();
            void repo.updateBatch(db, batchId, { progress, heartbeat_at: now() });
          }
        },
        {
          // Out of the line: every instance's progress call now reads position 0 (repo.queuePosition).
          onStart: () => void repo.updateBatch(db, batchId, { heartbeat_at: now() }).catch(() => {}),
          signal,
        },
      );
      if (r.fatal) {
        await repo.updateFrom(batchId, 'parsing', {
          status: 'failed',
          progress: 100,
          error_message: parseFailureText(job.lang, r.fatal),
          preview: JSON.stringify({ errors: [], confirmations: [], duplicates: [], fatal: r.fatal } satisfies Preview),
          updated_at: now(),
        });
        return;
      }
      const d = r.done!;
      let errorFileId: number | null = null;
      if (d.errorWorkbook) {
        const buf = Buffer.from(d.errorWorkbook);
        const stored = await files.put(buf, 'errors.xlsx');
        const batch = await repo.findAny(batchId);
        errorFileId = (
          await repo.insertFile({
            customer_id: batch!.customer_id,
            owner_user_id: batch!.created_by,
            kind: 'batchErrors',
            name: `${batch!.batch_no}-errors.xlsx`,
            mime: XLSX,
            size: stored.size,
            sha256: stored.sha256,
            storage_key: stored.key,
            created_at: now(),
          })
        ).id;
      }
      // The parsed orders wait for confirmation in a file, not in this process's memory, stored
      // as the worker made them (parsed-orders.ts), so a commit reads them back a frame at a time.
      // The orders without errors are kept when others have some: the user may import them now.
      // Before the batch shows as a preview (a poll never sees one without its notes), and before
      // the parsed orders are stored (a database too full for the notes leaves no file behind).
      await repo.saveNotes(batchId, JSON.stringify({ orderNotes: d.orderNotes, notesSummary: d.notesSummary }));
      let parsedKey: string | null = null;
      let channels: string[] | undefined;
      if (r.parsed) {
        parsedKey = (await files.put(r.parsed.data, 'parsed-orders.bin', r.parsed.sha256)).key;
        channels = parsedChannels(r.parsed.data) ?? undefined;
      }
      // Only from parsing: a run taken over from an instance that seemed gone may end second.
      const shown = await repo.updateFrom(batchId, 'parsing', {
        parsed_key: parsedKey,
        // Every preview expires, one whose every order has errors too: it is not left "to confirm"
        // in Batch List forever (its error workbook stays).
        preview_until: new Date(clock().getTime() + deps.previewTtlMinutes * 60_000).toISOString(),
        status: 'preview',
        progress: 100,
        total_rows: d.totalRows,
        valid_rows: d.validRows,
        invalid_rows: d.invalidRows,
        confirm_rows: d.confirmRows,
        order_count: d.orderCount,
        error_file_id: errorFileId,
        preview: JSON.stringify({
          errors: d.errors,
          confirmations: d.confirmations,
          duplicates: d.duplicates,
          invalidOrders: d.invalidOrders,
          confirmOrders: d.confirmOrders,
          channels,
        } satisfies Preview),
        updated_at: now(),
        heartbeat_at: now(),
      });
      if (!shown) await removeFile(parsedKey);
    } finally {
      live.delete(batchId);
    }
  }

  /** A parse whose result could not be stored (a full disk): the batch fails with that reason, not `parsing`. */
  async function failParse(batchId: number, lang: ApiLanguage, e: unknown) {
    // A known reason (the uploaded file gone) in the user's words; anything else is never shown raw.
    const reason =
      e instanceof AppError
        ? translate(lang, e.key, e.params)
        : translate(lang, isStorageFull(e) ? 'storageFull' : 'internal');
    await repo
      .updateFrom(batchId, 'parsing', {
        status: 'failed',
        progress: 100,
        error_message: reason,
        updated_at: now(),
      })
      .catch(() => {});
  }

  /** A parse job: the uploaded file read back from the store (any instance may run it). */
  async function parseRun(p: ParsePayload, ctx: JobContext) {
    // Taken while this instance closes (pg-boss may still hand one over): given back to the queue
    // for another instance or the next start, rather than failed as "the server stopped".
    if (closing) throw new Error('this instance is stopping: the parse is left to a retry');
    const b = await repo.findAny(p.batchId);
    // Parsed, failed or removed meanwhile: nothing to do.
    if (b?.status !== 'parsing') return;
    if (p.recovered) {
      await repo.updateFrom(b.id, 'parsing', {
        status: 'failed',
        progress: 100,
        error_message: interruptedMessage(),
        updated_at: now(),
      });
      return;
    }
    try {
      const file = await repo.file(b.file_id!);
      const job = await jobFor(b, await stored(file!.storage_key), p.lang);
      // The order template may name the channel per row; the page's choice is the default.
      job.channel = p.channel;
      await parseJob(b.id, job, ctx.signal);
    } catch (e) {
      await failParse(b.id, p.lang, e);
    }
  }

  /** The parsed orders of a batch: its stored preview, or (stored before there was one) a new parse. */
  async function parsedOrders(
    batch: BatchRecord | NonNullable<Awaited<ReturnType<typeof repo.findAny>>>,
    lang: ApiLanguage,
  ) {
    if (batch.parsed_key) return decodeParsedOrders(await stored(batch.parsed_key));
    const file = await repo.file(batch.file_id!);
    const r = await runWorker(await jobFor(batch, await stored(file!.storage_key), lang), batch.customer_id, (f) =>
      live.set(batch.id, { progress: Math.floor(f * 30) }),
    );
    // Only the orders without errors come back: confirm let a batch with errors through only
    // when the user chose to import its valid orders.
    if (!r.done) throw new AppError(ErrorCode.CONFLICT, r.fatal?.key ?? 'batchHasErrors', null, r.fatal?.params);
    return decodeParsedOrders(r.parsed?.data ?? Buffer.alloc(0));
  }

  /**
   * A stored file of a batch. Missing (removed, or stored by another instance with a DATA_DIR of
   * its own) is the user's "upload it again", never the file system's text with its path.
   */
  async function stored(key: string): Promise<Buffer> {
    try {
      return await files.get(key);
    } catch (e) {
      if (e instanceof StoredFileMissing)
        throw new AppError(ErrorCode.CONFLICT, 'batchFileGone', null, undefined, undefined, e);
      throw e;
    }
  }

  const removeFile = (key: string | null) => (key ? files.remove(key).catch(() => {}) : Promise.resolve());

  const { commitRun } = createBatchCommits({ db, deps, repo, live, now, parsedOrders, removeFile });

  // Exclusive per batch: a second enqueue of a batch's job while one waits or runs is dropped.
  // Retryable only for that hand-back: parseRun settles every other failure itself.
  deps.jobs.define<ParsePayload>({
    name: PARSE_JOB,
    exclusive: true,
    retry: { limit: 2, delaySeconds: 1 },
    run: parseRun,
  });
  deps.jobs.define<CommitPayload>({ name: COMMIT_JOB, exclusive: true, run: commitRun });
  // Heavy, by customer: one customer's big sheets wait behind each other, not before another's.
  const enqueue = (kind: string, p: ParsePayload | CommitPayload, customerId: number, trx?: Transaction<DB>) =>
    deps.jobs.enqueue(kind, p, { trx, customerId, size: 'heavy', singletonKey: String(p.batchId) });

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
    /**
     * Ends the running parses (their batches fail with a reason, as before parses were jobs). The
     * queue stops taking jobs first: a parse still waiting in it is left for the next start, not
     * claimed by the slot the ended one frees and failed at once. Fastify runs this hook before
     * the queue's own stop (hooks close in reverse), which waits for the running jobs.
     */
    async close() {
      closing = true;
      const stopping = deps.jobs.stop();
      await pool.close();
      await stopping;
    },

    async template(kind: contract.TemplateKind) {
      const def = TEMPLATES[kind];
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
      const stored = await files.put(sheet.data, sheet.filename);
      // A failed insert (a full database) leaves no stored file behind that nothing points at.
      const forget = (e: unknown) =>
        files.remove(stored.key).then(
          () => Promise.reject(e),
          () => Promise.reject(e),
        );
      const file = await repo
        .insertFile({
          customer_id: customerId,
          owner_user_id: actor.userId,
          kind: 'batchUpload',
          name: sheet.filename.slice(0, 200),
          mime: XLSX,
          size: stored.size,
          sha256: stored.sha256,
          storage_key: stored.key,
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
        file_id: file.id,
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
      return present((await repo.find(scope, id))!);
    },

    async confirm(
      actor: Actor,
      scope: Scope,
      id: number,
      confirmations: string[],
      lang: ApiLanguage,
      skipInvalid = false,
    ) {
      let b = await loadScoped(scope, id);
      if (await checkStale(b)) b = await loadScoped(scope, id);
      if (b.status === 'failed' && b.preview_until && !b.parsed_key) {
        throw AppError.conflict('batchPreviewExpired', { minutes: deps.previewTtlMinutes });
      }
      if (b.status !== 'preview') {
        throw AppError.conflict('batchNotInPreview', { status: b.status });
      }
      // A batch with errors is made whole after fixing, or without the orders with errors when the
      // user chooses so; those rows stay in its error workbook.
      if (b.invalid_rows > 0 && !skipInvalid) throw AppError.field('id', 'batchHasErrors');
      if (b.order_count === 0) throw AppError.field('id', 'batchNoValidOrders');
      const preview = JSON.parse(b.preview ?? '{}') as Preview;
      const missing = (preview.confirmations ?? []).filter((c) => !confirmations.includes(c.kind));
      if (missing.length) {
        throw AppError.validation({ confirmations: missing.map((c) => `confirmKind_${c.kind}`) });
      }
      await deps.assertNoticesClear(actor);
      // A channel taken from the customer since the preview writes none of its orders (issue 17):
      // the preview stays, to be confirmed once the channel is given back or the sheet is changed.
      // (A preview stored before its orders were is parsed again by the commit, with today's list.)
      const allowed = await allowedChannelsOf(db, b.customer_id);
      if (allowed && b.parsed_key) {
        const channels = preview.channels ?? (await parsedOrders(b, lang)).waybills.map((g) => g.channel as string);
        const refused = [...new Set(channels)].filter((c) => !allowed.has(c));
        if (refused.length) throw AppError.field('id', 'channelNotAllowed', { value: refused.join(', ') });
      }
      // Claim the batch atomically, with its commit job: two confirms of one batch commit it once.
      await db.transaction().execute(async (trx) => {
        const claimed = await repo.updateFrom(
          id,
          'preview',
          { status: 'committing', progress: 0, updated_at: now(), heartbeat_at: now() },
          trx,
        );
        if (!claimed) throw AppError.conflict('batchBusy');
        await enqueue(COMMIT_JOB, { batchId: id, userId: actor.userId, lang }, b.customer_id, trx);
      });
      return present((await repo.find(scope, id))!);
    },

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

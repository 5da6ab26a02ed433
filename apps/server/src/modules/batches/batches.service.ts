import { randomUUID } from 'node:crypto';
import { type ApiLanguage, batches as contract, chinaDate, ErrorCode } from '@console/contract';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { dialectOf } from '../../db/dialect.ts';
import { unpackOrder } from '../../domain/order-input.ts';
import { allowedChannelsOf } from '../../domain/customer-channels.ts';
import { insertOrders, reserveWaybillGroups, setBatchHidden, type WaybillPlan } from '../../domain/order-writer.ts';
import { recordReservation, returnWaybills, settleReservation } from '../../domain/waybills.ts';
import { Download } from '../../http/call-context.ts';
import { classifyDatabaseError, databaseErrorText } from '../../http/error-handler.ts';
import { AppError } from '../../lib/errors.ts';
import { storedFileBody } from '../../lib/generated-files.ts';
import { translate } from '../../lib/messages.ts';
import { type Actor, customerFor, type Scope } from '../../lib/scope.ts';
import type { Files } from '../../lib/files.ts';
import { isStorageFull, StoredFileMissing } from '../../lib/storage.ts';
import type { ProgressTracker } from '../../lib/export-progress.ts';
import { buildWorkbookStream } from '../../lib/workbook-job.ts';
import { cnDivisions } from '../reference/cn-divisions.ts';
import { batchOrdersJob } from './batch-orders.export.ts';
import './batches.messages.ts';
import { createBatchesRepository } from './batches.repository.ts';
import { createParsePool, parseFailureText } from './parse-pool.ts';
import { decodeParsedOrders, parsedChannels } from './parsed-orders.ts';
import type { ConfirmOrder, Issue, NotesSummary, OrderNote, ParseJob } from './parse.worker.ts';
import { type CatalogueEntries, loadChannelTax, presentTax, yearlyTotals } from '../orders/orders.tax.ts';
import { abnormalOf, enabledAbnormalRules, recentOrdersByIdCard } from '../orders/orders.input.ts';
import { fenText } from '../../domain/tax-estimate.ts';
import { buildTemplate } from './template-workbook.ts';
import { COLUMNS, TEMPLATES, templateFor } from './templates.ts';
import { checkXlsxUpload } from './xlsx-guard.ts';
import { batchNumber } from '../../lib/document-numbers.ts';
import { nextTurn } from '../../lib/next-turn.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const MAX_ROWS = 100_000;
/** A running batch whose heartbeat is older than this belongs to a server that is gone. */
const STALE_MS = 60_000;
/** How often unconfirmed previews are expired and abandoned batches recovered. */
const SWEEP_MS = 30_000;
/**
 * Orders written per short transaction of a commit (about 25 ms on SQLite): another user's
 * write waits at most one of them, not the whole 100,000-order commit.
 */
const COMMIT_CHUNK = 500;

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
  files: Files;
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
}

/**
 * Batch import: upload → parse and validate in a worker (preview, error workbook; the parsed
 * orders are stored as a file until confirmed or expired) → confirm → the orders are staged in
 * short transactions, hidden while the batch is `committing`, and one short transaction makes
 * them all visible; a failure removes them (all or nothing). Progress lives in the batches row
 * (and in memory while this process runs the job).
 */
export function createBatchesService(deps: BatchesDeps) {
  const { db, clock, files } = deps;
  const repo = createBatchesRepository(db);
  const now = () => clock().toISOString();
  /** Live progress of the jobs this process runs (parsed orders wait in files, not here). */
  const live = new Map<number, { progress: number }>();
  const running = new Set<Promise<unknown>>();
  const track = (p: Promise<unknown>) => {
    running.add(p);
    void p.finally(() => running.delete(p));
  };

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

  function runWorker(job: ParseJob, customerId: number, onProgress: (f: number) => void, key?: number) {
    return pool.run(job, {
      key,
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

  async function parseJob(batchId: number, job: ParseJob) {
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
        batchId,
      );
      if (r.fatal) {
        await repo.updateBatch(db, batchId, {
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
        const batch = await repo.findAny(batchId);
        errorFileId = await files.save({
          data: buf,
          hint: 'errors.xlsx',
          customer_id: batch!.customer_id,
          owner_user_id: batch!.created_by,
          kind: 'batchErrors',
          name: `${batch!.batch_no}-errors.xlsx`,
          mime: XLSX,
          created_at: now(),
        });
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
        parsedKey = (await files.write(r.parsed.data, 'parsed-orders.bin', r.parsed.sha256)).key;
        channels = parsedChannels(r.parsed.data) ?? undefined;
      }
      await repo.updateBatch(db, batchId, {
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
    } finally {
      live.delete(batchId);
    }
  }

  /** A parse whose result could not be stored (a full disk): the batch fails with that reason, not `parsing`. */
  async function failParse(batchId: number, lang: ApiLanguage, e: unknown) {
    const reason = isStorageFull(e) ? 'storageFull' : 'internal';
    await repo
      .updateBatch(db, batchId, {
        status: 'failed',
        progress: 100,
        error_message: translate(lang, reason),
        updated_at: now(),
      })
      .catch(() => {});
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
      return await files.read(key);
    } catch (e) {
      if (e instanceof StoredFileMissing)
        throw new AppError(ErrorCode.CONFLICT, 'batchFileGone', null, undefined, undefined, e);
      throw e;
    }
  }

  const removeFile = (key: string | null) => (key ? files.discard(key).catch(() => {}) : Promise.resolve());

  async function commitJob(batchId: number, actor: Actor, lang: ApiLanguage) {
    live.set(batchId, { progress: 0 });
    const batch = (await repo.findAny(batchId))!;
    const pg = dialectOf(db) === 'postgres';
    let chunk: ReturnType<typeof unpackOrder>[] = [];
    let waybills: WaybillPlan | undefined;
    try {
      const parsed = await parsedOrders(batch, lang);
      const total = parsed.total;
      const createdAt = now();
      let written = 0;
      const progress = () => Math.floor((written / total) * 99);
      // The abnormal rules, as single create runs them, computed per row in this pass: the
      // switches and currencies once, the recent orders of a chunk's ID numbers in one query,
      // and the batch's own earlier rows counted here (they are hidden while it commits).
      const [abnormalOn, currencies] = await Promise.all([
        enabledAbnormalRules(db),
        db.selectFrom('currencies').select(['code', 'decimals']).execute(),
      ]);
      const currencyDecimals = new Map(currencies.map((c) => [c.code, c.decimals]));
      const commitClock = new Date(createdAt);
      const recentSince = new Date(commitClock.getTime() - 7 * 86_400_000).toISOString();
      const inBatch = new Map<string, number>();
      // Each ID number's orders before this batch, read once per commit: the batch's own rows are
      // hidden from the count but not from the index range it scans, so asking again with every
      // chunk re-read all of them (1.7 s of a 100,000-row commit naming one recipient).
      const before = new Map<string, number>();
      const markAbnormal = async (orders: typeof chunk) => {
        if (abnormalOn.has('sameRecipientTooOften')) {
          const unseen = [...new Set(orders.map((o) => o.recipient.idCard.toUpperCase()))].filter(
            (id) => !before.has(id),
          );
          const recent = unseen.length
            ? await recentOrdersByIdCard(db, unseen, recentSince)
            : new Map<string, number>();
          for (const id of unseen) before.set(id, recent.get(id) ?? 0);
        }
        for (const o of orders) {
          const id = o.recipient.idCard.toUpperCase();
          const prior = (before.get(id) ?? 0) + (inBatch.get(id) ?? 0);
          inBatch.set(id, (inBatch.get(id) ?? 0) + 1);
          const a = abnormalOf(o, currencyDecimals, prior, abnormalOn, commitClock);
          o.abnormal = a.abnormal_at ? a : null;
        }
      };
      async function* chunks() {
        for (const pack of parsed.packs()) {
          for (let i = 0; i < pack.length; i += COMMIT_CHUNK) {
            chunk = pack.slice(i, i + COMMIT_CHUNK).map(unpackOrder);
            yield chunk;
          }
        }
      }
      const writeChunk = async (trx: Transaction<DB>, orders: typeof chunk) => {
        // Checked with each chunk: a number taken since the preview (a single create, another
        // import, staged or not) fails the batch; the unique index stops any race past this.
        const taken = await repo.existingOrderNos(
          trx,
          batch.customer_id,
          orders.map((o) => o.orderNo),
        );
        if (taken.length) {
          throw new AppError(ErrorCode.CONFLICT, 'batchOrderNosTaken', null, { value: taken.slice(0, 5).join(', ') });
        }
        await insertOrders(trx, orders, { batchId, createdBy: actor.userId, now: createdAt, waybills });
        written += orders.length;
        live.set(batchId, { progress: progress() });
      };
      const done = {
        status: 'done',
        progress: 100,
        order_count: total,
        parsed_key: null,
        preview_until: null,
        updated_at: now(),
        heartbeat_at: now(),
      };
      // Removed before the batch shows done, so a done batch never leaves its file behind.
      const publish = async (q: Database | Transaction<DB>) => {
        await removeFile(batch.parsed_key);
        if (!(await repo.updateFrom(batchId, 'committing', { ...done, updated_at: now() }, q))) {
          throw new AppError(ErrorCode.CONFLICT, 'batchInterrupted');
        }
        await settleReservation(q, batchId);
      };
      // Every waybill number of the batch is reserved first, in one short transaction: the segment
      // is not held for the commit (see reserveWaybills). The ranges are recorded with the batch in
      // that transaction, so a commit that never lands gives them back, even when its process
      // died (failCommit, at the next start or by the sweep).
      waybills = await db.transaction().execute(async (trx) => {
        const plan = await reserveWaybillGroups(trx, parsed.waybills, createdAt);
        await recordReservation(trx, batchId, plan.ranges);
        return plan;
      });
      // Each step below gets a turn of its own, as every chunk does: run together, the reserving,
      // the first chunk's recent orders and its write held other users' calls for 120 ms.
      await nextTurn();
      if (pg) {
        // PostgreSQL: one transaction. Its snapshot hides the rows from everyone else and blocks
        // no one's reads or other writes (a create with one of its order numbers waits on the
        // unique index for it, then is refused).
        await db.transaction().execute(async (trx) => {
          for await (const orders of chunks()) {
            // Read on another connection: this transaction's own rows are counted in inBatch.
            await markAbnormal(orders);
            await writeChunk(trx, orders);
            await repo.updateBatch(db, batchId, { progress: progress(), heartbeat_at: now() });
            await deps.afterStagedChunk?.(batchId, written);
            await nextTurn();
          }
          await publish(trx);
        });
      } else {
        // SQLite: staged in short transactions, between which other users' writes take the one
        // writer; hidden from every order query until one statement marks the batch done.
        setBatchHidden(db, batchId, true);
        for await (const orders of chunks()) {
          // Before the chunk's transaction: SQLite's one connection is not taken twice.
          await markAbnormal(orders);
          await nextTurn();
          await db.transaction().execute(async (trx) => {
            await writeChunk(trx, orders);
            await repo.updateBatch(trx, batchId, { progress: progress(), heartbeat_at: now() });
          });
          await deps.afterStagedChunk?.(batchId, written);
          await nextTurn();
        }
        // One transaction: the batch is done and its reserved ranges settled together.
        await db.transaction().execute((trx) => publish(trx));
        setBatchHidden(db, batchId, false);
      }
    } catch (e) {
      // A unique index refused a row: an order number taken between the chunk's check and its
      // insert (PostgreSQL, another connection) is named as such; anything else is the raw cause.
      const taken =
        classifyDatabaseError(e)?.kind === 'unique'
          ? await repo
              .existingOrderNos(
                db,
                batch.customer_id,
                chunk.map((o) => o.orderNo),
              )
              .catch(() => [])
          : [];
      let reason: string;
      if (e instanceof AppError) {
        reason =
          e.key === 'batchOrderNosTaken' || e.key === 'batchInterrupted'
            ? translate(lang, e.key, e.params)
            : translate(lang, 'batchCommitFailed', { reason: translate(lang, e.key, e.params) });
      } else if (taken.length) {
        reason = translate(lang, 'batchOrderNosTaken', { value: taken.slice(0, 5).join(', ') });
      } else {
        // A batch that lost a race to another write: the duplicate number, not the constraint's
        // name. Anything else is ours: the user gets an id to quote, the log the error with it
        // (an exception's text may name paths or SQL, never shown).
        // A full disk or database is a cause the user can act on (tell the administrator), in their words.
        let known = isStorageFull(e) ? translate(lang, 'storageFull') : databaseErrorText(lang, e);
        if (!known) {
          const errorId = randomUUID();
          deps.logError?.(e, { batchId, errorId });
          known = translate(lang, 'batchInternalError', { errorId });
        }
        reason = translate(lang, 'batchCommitFailed', { reason: known });
      }
      // Should even that fail, the batch stays committing and hidden: the sweep or the next start
      // tries again (its heartbeat has stopped).
      await failCommit(batchId, batch.parsed_key, reason).catch(() => {});
    } finally {
      live.delete(batchId);
    }
  }

  /**
   * A commit that failed or was interrupted: its staged orders are removed while the batch still
   * hides them, then it is marked failed and its stored preview removed (it cannot be confirmed
   * again). Should this process die meanwhile, the next start does the same (recoverAtStart).
   */
  async function failCommit(batchId: number, parsedKey: string | null, reason: string) {
    await removeFile(parsedKey);
    // Hidden until removed (on PostgreSQL the rollback already took them: nothing to remove).
    setBatchHidden(db, batchId, true);
    await repo.removeBatchOrders(batchId);
    // Failed and its waybill ranges given back together: once, by whoever moves it.
    await db.transaction().execute(async (trx) => {
      const moved = await repo.updateFrom(
        batchId,
        'committing',
        {
          status: 'failed',
          progress: 100,
          error_message: reason,
          parsed_key: null,
          preview_until: null,
          updated_at: now(),
          heartbeat_at: now(),
        },
        trx,
      );
      if (moved) await returnWaybills(trx, batchId);
    });
    setBatchHidden(db, batchId, false);
  }

  const interruptedMessage = () => `${translate('zh-CN', 'batchInterrupted')} / ${translate('en', 'batchInterrupted')}`;

  /**
   * Fails batches a server left running: `cutoff` null takes every running batch (at start on
   * SQLite: only this process writes the file, so none of them is running), else those whose
   * heartbeat is older (PostgreSQL may be shared by several instances that are alive).
   */
  async function recoverRunning(cutoff: string | null) {
    for (const b of await repo.running(cutoff)) {
      if (live.has(b.id)) continue;
      if (b.status === 'committing') await failCommit(b.id, b.parsed_key, interruptedMessage());
      else if (
        await repo.updateFrom(b.id, 'parsing', {
          status: 'failed',
          progress: 100,
          error_message: interruptedMessage(),
          updated_at: now(),
          heartbeat_at: now(),
        })
      ) {
        await removeFile(b.parsed_key);
      }
    }
  }

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

  async function sweep() {
    await expirePreviews();
    await recoverRunning(new Date(clock().getTime() - STALE_MS).toISOString());
  }
  let sweeping: Promise<void> | null = null;
  const sweepTimer = setInterval(() => {
    sweeping ??= sweep()
      .catch(() => {})
      .finally(() => (sweeping = null));
  }, SWEEP_MS);
  sweepTimer.unref();

  /** Where a parsing batch stands in line for a worker (absent when it is not waiting or running). */
  const queued = (id: number) => {
    const at = pool.position(id);
    return at === undefined ? {} : { queuePosition: at };
  };

  async function loadScoped(scope: Scope, id: number) {
    const b = await repo.find(scope, id);
    if (!b) throw new AppError(ErrorCode.NOT_FOUND, 'batchNotFound');
    return b;
  }

  /** A batch that looks abandoned or expired is settled before it is shown (the sweep may not have run yet). */
  async function checkStale(b: BatchRecord) {
    const t = clock().getTime();
    if ((b.status === 'parsing' || b.status === 'committing') && !live.has(b.id)) {
      const beat = b.heartbeat_at ?? b.updated_at;
      if (t - new Date(beat).getTime() > STALE_MS) {
        await recoverRunning(new Date(t - STALE_MS).toISOString());
        return true;
      }
    }
    if (b.status === 'preview' && b.preview_until && new Date(b.preview_until).getTime() <= t) {
      await expirePreviews();
      return true;
    }
    return false;
  }

  return {
    /**
     * At start, before serving: batches the previous process left parsing or committing are
     * failed with the reason and their staged orders removed (on PostgreSQL, shared by several
     * instances, only those whose heartbeat stopped); expired previews are dropped.
     */
    async recoverAtStart() {
      await recoverRunning(dialectOf(db) === 'postgres' ? new Date(clock().getTime() - STALE_MS).toISOString() : null);
      // Previews with errors were once made without an end: they get one from now.
      await repo.endlessPreviews(new Date(clock().getTime() + deps.previewTtlMinutes * 60_000).toISOString());
      await expirePreviews();
    },
    /** Resolves when every job started by this process has finished (tests, graceful shutdown). */
    async idle() {
      while (running.size) await Promise.allSettled([...running]);
    },
    /** Ends running and waiting parses (their batches fail with a reason), then waits for every job. */
    async close() {
      clearInterval(sweepTimer);
      await pool.close();
      await sweeping;
      while (running.size) await Promise.allSettled([...running]);
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
        heartbeat_at: t,
      };
      const { id } = await repo.insertBatch(batch);
      const job = await jobFor(batch, sheet.data, lang);
      // The order template may name the channel per row; the page's choice is the default.
      job.channel = channel;
      track(parseJob(id, job).catch((e: unknown) => failParse(id, job.lang, e)));
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
      // Claim the batch atomically: two confirms of one batch commit it once.
      const claimed = await db
        .updateTable('batches')
        .set({ status: 'committing', progress: 0, updated_at: now(), heartbeat_at: now() })
        .where('id', '=', id)
        .where('status', '=', 'preview')
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 0) throw AppError.conflict('batchBusy');
      track(commitJob(id, actor, lang));
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
        ...queued(b.id),
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

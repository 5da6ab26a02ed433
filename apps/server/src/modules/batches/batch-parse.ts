import { type ApiLanguage, ErrorCode } from '@console/contract';
import type { Database } from '../../db/database.ts';
import { allowedChannelsOf } from '../../domain/customer-channels.ts';
import { defaultSenderOf } from '../../domain/default-sender.ts';
import { AppError } from '../../lib/errors.ts';
import type { GaveUpReason, JobContext } from '../../lib/jobs.ts';
import { translate } from '../../lib/messages.ts';
import type { Files } from '../../lib/files.ts';
import { isStorageFull, StoredFileMissing } from '../../lib/storage.ts';
import { loadChannelTax, yearlyTotals } from '../../domain/pricing/index.ts';
import { interruptedMessage } from './batch-confirm.ts';
import type { createBatchesRepository } from './batches.repository.ts';
import type { BatchesDeps } from './batches.service.ts';
import { parseFailureText } from './parse-pool.ts';
import { decodeParsedOrders, parsedChannels } from './parsed-orders.ts';
import type { Confirmation, ConfirmOrder, Duplicate, Issue, ParseJob } from './parse.protocol.ts';
import type { JobPayload } from '../../lib/job-catalogue.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Rows a batch sheet may have. */
export const MAX_ROWS = 100_000;

export type Preview = {
  errors: Issue[];
  confirmations: Confirmation[];
  duplicates: Duplicate[];
  /** Orders with errors (absent in previews stored before it was counted). */
  invalidOrders?: number;
  confirmOrders?: ConfirmOrder[];
  /** The channels of the orders to write (absent in previews stored before it was kept). */
  channels?: string[];
  fatal?: { key: string; params?: Record<string, string | number> };
};

/**
 * `recovered`: enqueued at start for a batch left parsing with no job (by a release
 * that ran them in the instance that took the call): it fails the batch as interrupted.
 */
export type ParsePayload = JobPayload<'batch-parse'>;

type Repo = ReturnType<typeof createBatchesRepository>;

/**
 * A batch's parse (the `batch-parse` job, batches.service.ts): the uploaded file, read back from
 * the store by whichever worker instance runs the job, parsed in a worker thread of the pool;
 * the preview, notes, error workbook and parsed orders are stored for the confirm.
 */
export function createBatchParses({
  db,
  clock,
  files,
  deps,
  repo,
  live,
  now,
  removeFile,
}: {
  db: Database;
  clock: () => Date;
  files: Files;
  deps: Pick<BatchesDeps, 'parsePool' | 'catalogueEntries' | 'previewTtlMinutes' | 'jobs'>;
  repo: Repo;
  /** Progress of this process's running jobs, shown by the progress call. */
  live: Map<number, { progress: number }>;
  now: () => string;
  removeFile: (key: string | null) => Promise<void>;
}) {
  /** Set when the app closes: parse jobs handed over from then on go back to the queue. */
  let closing = false;

  // Parses wait for one of a fixed number of workers, each with memory and time limits (parse-pool.ts).
  const pool = deps.parsePool;

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
    const [ref, channelTax, allowed, defaultSender] = await Promise.all([
      repo.referenceData(),
      loadChannelTax(db),
      allowedChannelsOf(db, batch.customer_id),
      defaultSenderOf(db, batch.customer_id),
    ]);
    return {
      defaultSender,
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

  /** A batch whose parse the queue gave up on (lib/jobs.ts `gaveUp`): failed with the reason, if still parsing. */
  async function failStopped(batchId: number, reason: GaveUpReason) {
    await repo.updateFrom(batchId, 'parsing', {
      status: 'failed',
      progress: 100,
      error_message: `${translate('zh-CN', reason)} / ${translate('en', reason)}`,
      updated_at: now(),
    });
  }

  /** The parsed orders of a batch: its stored preview, or (stored before there was one) a new parse. */
  async function parsedOrders(
    batch: NonNullable<Awaited<ReturnType<Repo['find']>>> | NonNullable<Awaited<ReturnType<Repo['findAny']>>>,
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

  /**
   * Ends the running parses (their batches fail with a reason, as before parses were jobs). The
   * queue stops taking jobs first: a parse still waiting in it is left for the next start, not
   * claimed by the slot the ended one frees and failed at once. Fastify runs this hook before
   * the queue's own stop (hooks close in reverse), which waits for the running jobs. The pool is
   * the instance's (order review parses end with it too); close() waits for its workers to exit.
   */
  async function close() {
    closing = true;
    const stopping = deps.jobs.stop();
    await pool.close();
    await stopping;
  }

  return { parseRun, failStopped, parsedOrders, stored, close };
}

import { randomInt } from 'node:crypto';
import { type ApiLanguage, chinaDate, ErrorCode } from '@console/contract';
import type { Database } from '../../db/database.ts';
import { unpackOrder } from '../../domain/order-input.ts';
import { allowedChannelsOf } from '../../domain/customer-channels.ts';
import { defaultSenderOf } from '../../domain/default-sender.ts';
import { AppError } from '../../lib/errors.ts';
import type { JobQueue } from '../../lib/jobs.ts';
import { type Actor, customerFor, type Scope } from '../../lib/scope.ts';
import type { Files } from '../../lib/files.ts';
import { isStorageFull, StoredFileMissing } from '../../lib/storage.ts';
import { MAX_ROWS, type ParseJob, type ParsePool, decodeParsedOrders } from '../batches/index.ts';
import { checkXlsxUpload } from '../../lib/xlsx-guard.ts';
import { createCatalogueLookup } from '../items/index.ts';
import { loadChannelTax, yearlyTotals } from '../../domain/pricing/index.ts';
import { createOrderReviewsRepository } from './order-reviews.repository.ts';
import { buildReviewRows } from './order-reviews.rows.ts';
import type { JobPayload } from '../../lib/job-catalogue.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** The queue's kind of a review's parse (lib/jobs.ts). */
export const REVIEW_JOB = 'order-review-parse';
type ReviewPayload = JobPayload<'order-review-parse'>;

export interface ReviewJobDeps {
  db: Database;
  clock: () => Date;
  files: Files;
  jobs: JobQueue;
  uploadLimitBytes: number;
  /** The instance's one parse pool, the order import's (parse-pool.ts): PARSE_WORKERS bounds both. */
  parsePool: ParsePool;
  /** Where an unexpected failure's cause goes (the app's logger); the user reads a message key. */
  logError?: (err: unknown, reviewId: number) => void;
}

/**
 * Order review's upload and parse (issue 27). The upload stores the file in the file store,
 * writes the review `queued` and enqueues its parse in one transaction; a worker instance then
 * parses the sheet (a worker thread of the parse pool, the order template's columns and rules),
 * runs every order through the review checks and writes the review's orders, items and findings
 * in one transaction. Its state and percent are on the review's row, read by any instance. A run
 * taken over from a dead instance finds nothing written (that transaction never committed) and
 * parses again; a second run after a committed one writes nothing (the state guard).
 */
export function createReviewJobs(deps: ReviewJobDeps) {
  const { db, clock, files } = deps;
  const repo = createOrderReviewsRepository(db);
  const now = () => clock().toISOString();

  async function parseJob({ reviewId, lang }: ReviewPayload) {
    const review = await repo.forJob(reviewId);
    // Deleted meanwhile, or ended by an earlier run.
    if (!review || (review.parse_state !== 'queued' && review.parse_state !== 'parsing')) return;
    const customerId = review.customer_id;
    let shown = 0;
    const progress = async (percent: number) => {
      // A write per 5 %: the list's poll reads it, the parse is not slowed by it.
      if (percent < shown + 5 && percent < 99) return;
      shown = percent;
      await repo.setParse(reviewId, 'parsing', percent, now());
    };
    try {
      await repo.setParse(reviewId, 'parsing', 1, now());
      if (!review.storage_key) throw new StoredFileMissing('order review without a file');
      const data = await files.read(review.storage_key);
      const [ref, channelTax, allowed, defaultSender] = await Promise.all([
        repo.referenceData(),
        loadChannelTax(db),
        allowedChannelsOf(db, customerId),
        defaultSenderOf(db, customerId),
      ]);
      const job: ParseJob = {
        defaultSender,
        channelTax: [...channelTax],
        // The review says what an import of the sheet would refuse, a channel the customer may not use too.
        allowedChannels: allowed ? [...allowed] : null,
        file: new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength)),
        kind: 'order',
        channel: null,
        customerId,
        exportNominationId: null,
        clearanceCompany: null,
        now: now(),
        lang,
        maxRows: MAX_ROWS,
        ...ref,
      };
      // Order numbers the customer already used are no concern of a review: nothing is created.
      // The parse marks items as the order import does (a channel that takes registered items
      // only refuses the others' rows); the review's own checks then read the catalogue again.
      const catalogueLookup = createCatalogueLookup(db);
      let pending = Promise.resolve();
      const r = await deps.parsePool.run(job, {
        onProgress: (f) => void (pending = pending.then(() => progress(Math.floor(f * 85))).catch(() => {})),
        existingOrderNos: async () => [],
        lookup: async (jans, idCards) => {
          const [entries, yearly] = await Promise.all([
            catalogueLookup.entries(customerId, jans),
            yearlyTotals(db, idCards, clock(), channelTax, new Map(ref.currencies)),
          ]);
          return { entries: [...entries], yearly: [...yearly] };
        },
      });
      await pending;
      if (r.fatal || !r.done) {
        const fatal = r.fatal ?? { key: 'fileCorrupt' };
        throw new AppError(ErrorCode.VALIDATION, fatal.key, null, fatal.params);
      }
      const parsed = r.parsed ? decodeParsedOrders(r.parsed.data) : null;
      if (!parsed?.total && !r.done.errors.length) throw new AppError(ErrorCode.VALIDATION, 'orderReviewNoOrders');

      const { orders, items, flagged } = await buildReviewRows(
        db,
        customerId,
        (function* () {
          for (const pack of parsed?.packs() ?? []) yield pack.map(unpackOrder);
        })(),
        clock(),
      );
      await progress(90);
      const figures = {
        order_count: orders.length,
        item_count: items.length,
        flagged_orders: flagged,
        row_error_count: r.done.invalidRows,
        row_errors: JSON.stringify(r.done.errors.slice(0, 200)),
      };
      await repo.writeResult(reviewId, figures, orders, items, now());
    } catch (e) {
      const err =
        e instanceof AppError
          ? { key: e.key, params: e.params }
          : e instanceof StoredFileMissing
            ? { key: 'orderReviewFileGone', params: undefined }
            : { key: isStorageFull(e) ? 'storageFull' : 'orderReviewFailed', params: undefined };
      if (err.key === 'orderReviewFailed') deps.logError?.(e, reviewId);
      // An instance whose database went (a crash) writes nothing here: the run is taken over.
      await repo.failParse(reviewId, err.key, err.params ?? undefined, now());
    }
  }

  deps.jobs.define<ReviewPayload>({
    name: REVIEW_JOB,
    exclusive: true,
    run: (p) => parseJob(p),
    // A parse that kept stopping its process: the review says so (a key, read in the reader's
    // language), if still queued or parsing; one already ended is left alone.
    gaveUp: (p, reason) => repo.failParse(p.reviewId, reason, undefined, now()),
  });

  return {
    /**
     * The upload: checked (an xlsx within the limit, the zip-bomb guard), stored, and its review
     * written `queued` with its parse enqueued in the same transaction. Answers the review's id.
     */
    async create(
      actor: Actor,
      scope: Scope,
      lang: ApiLanguage,
      input: { customerId?: number },
      upload: { filename: string; data: Buffer } | undefined,
    ): Promise<number> {
      const file = await checkXlsxUpload(upload, deps.uploadLimitBytes);
      const customerId = customerFor(actor, scope, input.customerId);
      const stored = await files.write(file.data, file.filename);
      const at = clock();
      const t = at.toISOString();
      try {
        return await db.transaction().execute(async (trx) => {
          const fileId = await files.record(
            stored,
            {
              customer_id: customerId,
              owner_user_id: actor.userId,
              kind: 'orderReviewUpload',
              name: file.filename.slice(0, 200),
              mime: XLSX,
              created_at: t,
            },
            trx,
          );
          const id = await repo.insertQueued(trx, {
            review_no: `R${chinaDate(at).replaceAll('-', '')}${String(randomInt(0, 1e9)).padStart(9, '0')}`,
            customer_id: customerId,
            status: 0,
            file_id: fileId,
            file_name: file.filename.slice(0, 200),
            order_count: 0,
            item_count: 0,
            flagged_orders: 0,
            row_error_count: 0,
            row_errors: '[]',
            remarks: null,
            completed_by: null,
            completed_at: null,
            created_by: actor.userId,
            created_at: t,
            updated_at: t,
            parse_state: 'queued',
            parse_progress: 0,
          });
          // Heavy: one customer's reviews parse one at a time, so they never hold another's.
          await deps.jobs.enqueue<ReviewPayload>(
            REVIEW_JOB,
            { reviewId: id, lang },
            { trx, customerId, size: 'heavy', singletonKey: String(id) },
          );
          return id;
        });
      } catch (e) {
        await files.discard(stored.key);
        throw e;
      }
    },
  };
}

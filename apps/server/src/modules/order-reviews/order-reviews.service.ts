import { type ApiLanguage, ErrorCode, type orderReviews as C } from '@console/contract';
import type { Database } from '../../db/database.ts';
import { Download } from '../../http/call-context.ts';
import { AppError } from '../../lib/errors.ts';
import type { ProgressTracker } from '../../lib/export-progress.ts';
import type { JobQueue } from '../../lib/jobs.ts';
import { maskName } from '../../lib/mask.ts';
import { translate } from '../../lib/messages.ts';
import { type Actor, type Scope } from '../../lib/scope.ts';
import type { Files } from '../../lib/files.ts';
import { buildWorkbookStream } from '../../lib/workbook-job.ts';
import { type Issue, COLUMNS } from '../batches/index.ts';
import { fromMinor } from '../orders/index.ts';
import type { StoredFinding } from './order-reviews.checks.ts';
import type { ParsePool } from '../batches/index.ts';
import { createReviewJobs } from './order-reviews.create.ts';
import { reviewItemsJob } from './order-reviews.export.ts';
import { createOrderReviewsRepository, type ReviewRecord } from './order-reviews.repository.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export interface OrderReviewsDeps {
  db: Database;
  clock: () => Date;
  files: Files;
  jobs: JobQueue;
  uploadLimitBytes: number;
  /** The instance's one parse pool, the order import's (parse-pool.ts). */
  parsePool: ParsePool;
  /** The order template workbook (the batch import's own, so the two never differ). */
  template: () => Promise<Download>;
  logError?: (err: unknown, reviewId: number) => void;
}

/**
 * Order review: the upload is stored and its review queued (order-reviews.create.ts); a worker
 * parses it as the order import does and runs every order through the review checks
 * (order-reviews.checks.ts). Operators complete a pending review with remarks; only pending ones
 * are deleted.
 */
export function createOrderReviewsService(deps: OrderReviewsDeps) {
  const { db, clock } = deps;
  const repo = createOrderReviewsRepository(db);
  const now = () => clock().toISOString();
  const reviewJobs = createReviewJobs(deps);

  const present = (lang: ApiLanguage, r: ReviewRecord): C.OrderReviewRow => ({
    id: r.id,
    reviewNo: r.review_no,
    customerId: r.customer_id,
    customerCode: r.customer_code,
    status: Number(r.status) === 1 ? 1 : 0,
    fileName: r.file_name,
    orderCount: Number(r.order_count),
    itemCount: Number(r.item_count),
    flaggedOrders: Number(r.flagged_orders),
    rowErrorCount: Number(r.row_error_count),
    remarks: r.remarks,
    completedBy: r.completed_by_name ?? null,
    completedAt: r.completed_at ? new Date(r.completed_at).toISOString() : null,
    createdBy: r.created_by_name,
    createdAt: new Date(r.created_at).toISOString(),
    parseState: r.parse_state,
    parseProgress: Number(r.parse_progress),
    parseError: r.parse_error
      ? translate(lang, r.parse_error, r.parse_error_params ? JSON.parse(r.parse_error_params) : undefined)
      : null,
  });

  const findings = (lang: ApiLanguage, stored: string): C.ReviewFinding[] =>
    (JSON.parse(stored) as StoredFinding[]).map((f) => ({
      check: f.check,
      code: f.code,
      severity: f.severity,
      message: translate(lang, f.key, f.params),
    }));

  /** A review in scope; another customer's is "not found", never "forbidden" (ids say nothing). */
  async function loadScoped(scope: Scope, id: number) {
    const r = await repo.find(scope, id);
    if (!r) throw new AppError(ErrorCode.NOT_FOUND, 'orderReviewNotFound');
    return r;
  }

  return {
    template: () => deps.template(),

    /** The upload: stored, its review queued; answers the review, whose parse the list then reports. */
    async create(
      actor: Actor,
      scope: Scope,
      lang: ApiLanguage,
      input: { customerId?: number },
      upload: { filename: string; data: Buffer } | undefined,
      progress?: ProgressTracker,
    ) {
      const id = await reviewJobs.create(actor, scope, lang, input, upload);
      // What the call's progressId follows: the upload stored and queued (the parse's is the review's).
      progress?.total(100);
      progress?.done();
      return present(lang, (await repo.find(scope, id))!);
    },

    async page(scope: Scope, lang: ApiLanguage, f: C.OrderReviewListRequest) {
      const { total, rows } = await repo.page(scope, f);
      return { total, list: rows.map((r) => present(lang, r)) };
    },

    async orders(
      scope: Scope,
      lang: ApiLanguage,
      f: { id: number; offset: number; limit: number; flaggedOnly: boolean; orderNo?: string },
    ) {
      const review = await loadScoped(scope, f.id);
      const { total, rows } = await repo.orders(f.id, f);
      const titleOf = (k: string | null) => (k ? COLUMNS[k as 'orderNo'][lang === 'en' ? 'en' : 'zh'] : null);
      return {
        review: present(lang, review),
        rowErrors: (JSON.parse(review.row_errors) as Issue[]).map((e) => ({
          row: e.row,
          column: titleOf(e.col) ?? e.letter,
          message: translate(lang, e.key, e.params),
        })),
        total,
        list: rows.map((o) => ({
          id: o.id,
          orderNo: o.order_no,
          channel: o.channel,
          recipientName: maskName(o.recipient_name),
          province: o.province,
          city: o.city,
          itemCount: Number(o.item_count),
          valueCny: o.value_cny,
          findings: findings(lang, o.findings),
          findingCount: Number(o.finding_count),
        })),
      };
    },

    async items(
      scope: Scope,
      lang: ApiLanguage,
      f: { id: number; offset: number; limit: number; orderId?: number; catalogue?: string; flaggedOnly: boolean },
    ) {
      await loadScoped(scope, f.id);
      const { total, rows } = await repo.items(f.id, f);
      const decimals = new Map((await repo.referenceData()).currencies);
      return {
        total,
        list: rows.map((i) => ({
          id: i.id,
          orderId: i.order_id,
          orderNo: i.order_no,
          jan: i.jan,
          name: i.name,
          quantity: Number(i.quantity),
          unitPrice: fromMinor(i.unit_price, decimals.get(i.currency) ?? 2),
          currency: i.currency,
          catalogue: i.catalogue as C.CatalogueMatch,
          catalogueItemId: i.catalogue_item_id,
          clearancePrice: i.clearance_price,
          findings: findings(lang, i.findings),
        })),
      };
    },

    async remove(scope: Scope, id: number) {
      if (await repo.deletePending(scope, id)) return null;
      // Nothing deleted: not there (or not the caller's), or no longer pending.
      await loadScoped(scope, id);
      throw AppError.conflict('orderReviewNotPending');
    },

    async complete(actor: Actor, scope: Scope, lang: ApiLanguage, id: number, remarks: string) {
      const r = await loadScoped(scope, id);
      if (!(await repo.complete(id, actor.userId, remarks, now()))) {
        // Still pending but not parsed (or its parse failed): nothing to complete yet.
        throw AppError.conflict(
          Number(r.status) === 0 && r.parse_state !== 'done' ? 'orderReviewNotReady' : 'orderReviewNotPending',
        );
      }
      return present(lang, (await repo.find(scope, id))!);
    },

    async download(scope: Scope, id: number, lang: ApiLanguage, progress?: ProgressTracker) {
      const r = await loadScoped(scope, id);
      const decimals = Object.fromEntries((await repo.referenceData()).currencies);
      const job = reviewItemsJob(repo.itemsForExport(id), { lang, decimals });
      return new Download(`${r.review_no}.xlsx`, XLSX, await buildWorkbookStream(db, job, progress));
    },
  };
}
export type OrderReviewsService = ReturnType<typeof createOrderReviewsService>;

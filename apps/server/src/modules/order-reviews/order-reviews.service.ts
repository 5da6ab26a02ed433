import { randomInt } from 'node:crypto';
import { type ApiLanguage, chinaDate, ErrorCode, type orderReviews as C } from '@console/contract';
import type { Database } from '../../db/database.ts';
import { type OrderInput, orderValueCny, unpackOrder } from '../../domain/order-input.ts';
import { Download } from '../../http/call-context.ts';
import { AppError } from '../../lib/errors.ts';
import type { ProgressTracker } from '../../lib/export-progress.ts';
import { maskName } from '../../lib/mask.ts';
import { translate } from '../../lib/messages.ts';
import { type Actor, customerFor, type Scope } from '../../lib/scope.ts';
import type { Files } from '../../lib/files.ts';
import { buildWorkbookStream } from '../../lib/workbook-job.ts';
import { MAX_ROWS } from '../batches/batches.service.ts';
import { createParsePool } from '../batches/parse-pool.ts';
import { allowedChannelsOf } from '../../domain/customer-channels.ts';
import type { Issue, ParseJob } from '../batches/parse.worker.ts';
import { decodeParsedOrders } from '../batches/parsed-orders.ts';
import { COLUMNS } from '../batches/templates.ts';
import { checkXlsxUpload } from '../batches/xlsx-guard.ts';
import { loadValidationContext } from '../orders/orders.input.ts';
import { fromMinor } from '../orders/orders.presenter.ts';
import { loadChannelTax, yearlyTotals } from '../orders/orders.tax.ts';
import { createCatalogueLookup } from '../items/items.catalogue.ts';
import { type CheckContext, reviewOrder, type StoredFinding } from './order-reviews.checks.ts';
import { reviewItemsJob } from './order-reviews.export.ts';
import './order-reviews.messages.ts';
import {
  createOrderReviewsRepository,
  type ReviewItemInsert,
  type ReviewOrderInsert,
  type ReviewRecord,
} from './order-reviews.repository.ts';
import '../batches/batches.messages.ts';
import '../orders/orders.messages.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export interface OrderReviewsDeps {
  db: Database;
  clock: () => Date;
  files: Files;
  uploadLimitBytes: number;
  /** Parse workers at once, each one's time and heap limits (config PARSE_*), as the order import. */
  parse?: { workers: number; timeoutSeconds: number; memoryMb: number };
  /** The order template workbook (the batch import's own, so the two never differ). */
  template: () => Promise<Download>;
}

/**
 * Order review: upload → the order import's parse (the zip-bomb guard, a worker of the parse
 * pool, the order template's columns and rules) → every parsed order through the review checks
 * (order-reviews.checks.ts) → the review with its orders, items and findings in one
 * transaction. Operators complete a pending review with remarks; only pending ones are deleted.
 */
export function createOrderReviewsService(deps: OrderReviewsDeps) {
  const { db, clock, files } = deps;
  const repo = createOrderReviewsRepository(db);
  const now = () => clock().toISOString();
  // A pool of its own: review parses wait for each other, not for the order import's.
  const pool = createParsePool({
    workers: deps.parse?.workers ?? 1,
    timeoutMs: (deps.parse?.timeoutSeconds ?? 300) * 1000,
    memoryMb: deps.parse?.memoryMb ?? 768,
  });

  const present = (r: ReviewRecord): C.OrderReviewRow => ({
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
    async close() {
      await pool.close();
    },

    template: () => deps.template(),

    async create(
      actor: Actor,
      scope: Scope,
      lang: ApiLanguage,
      input: { customerId?: number },
      upload: { filename: string; data: Buffer } | undefined,
      progress?: ProgressTracker,
    ) {
      const file = await checkXlsxUpload(upload, deps.uploadLimitBytes);
      // Percent done, for the console's bar: the sheet's check is most of the time, then the
      // review's rows are written.
      progress?.total(100);
      progress?.writing();
      const customerId = customerFor(actor, scope, input.customerId);
      const [ref, channelTax, allowed] = await Promise.all([
        repo.referenceData(),
        loadChannelTax(db),
        allowedChannelsOf(db, customerId),
      ]);
      const job: ParseJob = {
        channelTax: [...channelTax],
        // The review says what an import of the sheet would refuse, a channel the customer may not use too.
        allowedChannels: allowed ? [...allowed] : null,
        file: new Uint8Array(file.data.buffer.slice(file.data.byteOffset, file.data.byteOffset + file.data.byteLength)),
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
      const r = await pool.run(job, {
        onProgress: (f) => progress?.rows(Math.floor(f * 85)),
        existingOrderNos: async () => [],
        lookup: async (jans, idCards) => {
          const [entries, yearly] = await Promise.all([
            catalogueLookup.entries(customerId, jans),
            yearlyTotals(db, idCards, clock(), channelTax, new Map(ref.currencies)),
          ]);
          return { entries: [...entries], yearly: [...yearly] };
        },
      });
      if (r.fatal || !r.done) {
        const fatal = r.fatal ?? { key: 'fileCorrupt' };
        throw new AppError(ErrorCode.VALIDATION, 'validationFailed', null, fatal.params, { file: [fatal.key] });
      }
      const parsed = r.parsed ? decodeParsedOrders(r.parsed.data) : null;
      if (!parsed?.total && !r.done.errors.length) throw AppError.field('file', 'orderReviewNoOrders');

      const at = clock();
      const { orders, items, flagged } = await buildReviewRows(
        db,
        customerId,
        (function* () {
          for (const pack of parsed?.packs() ?? []) yield pack.map(unpackOrder);
        })(),
        at,
      );
      progress?.rows(90);

      const stored = await files.write(file.data, file.filename);
      const t = at.toISOString();
      try {
        const fileId = await files.record(stored, {
          customer_id: customerId,
          owner_user_id: actor.userId,
          kind: 'orderReviewUpload',
          name: file.filename.slice(0, 200),
          mime: XLSX,
          created_at: t,
        });
        const id = await repo.insertReview(
          {
            review_no: `R${chinaDate(at).replaceAll('-', '')}${String(randomInt(0, 1e9)).padStart(9, '0')}`,
            customer_id: customerId,
            status: 0,
            file_id: fileId,
            file_name: file.filename.slice(0, 200),
            order_count: orders.length,
            item_count: items.length,
            flagged_orders: flagged,
            row_error_count: r.done.invalidRows,
            row_errors: JSON.stringify(r.done.errors.slice(0, 200)),
            remarks: null,
            completed_by: null,
            completed_at: null,
            created_by: actor.userId,
            created_at: t,
            updated_at: t,
          },
          orders,
          items,
        );
        progress?.done();
        return present((await repo.find(scope, id))!);
      } catch (e) {
        await files.discard(stored.key).catch(() => {});
        throw e;
      }
    },

    async page(scope: Scope, f: C.OrderReviewListRequest) {
      const { total, rows } = await repo.page(scope, f);
      return { total, list: rows.map(present) };
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
        review: present(review),
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

    async complete(actor: Actor, scope: Scope, id: number, remarks: string) {
      await loadScoped(scope, id);
      if (!(await repo.complete(id, actor.userId, remarks, now()))) throw AppError.conflict('orderReviewNotPending');
      return present((await repo.find(scope, id))!);
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

/**
 * Every order through the review checks, in groups (one catalogue read per group): the rows
 * of the review's orders and items with their findings. The seed's demo reviews are made
 * by it too, so their findings are the checks' own.
 */
export async function buildReviewRows(db: Database, customerId: number, groups: Iterable<OrderInput[]>, at: Date) {
  const repo = createOrderReviewsRepository(db);
  const validation = await loadValidationContext(db, at);
  const orders: ReviewOrderInsert[] = [];
  const items: ReviewItemInsert[] = [];
  let flagged = 0;
  const channelTax = await loadChannelTax(db);
  const taxCatalogue = createCatalogueLookup(db);
  const yearly = new Map<string, number>();
  for (const batch of groups) {
    const jans = batch.flatMap((o) => o.items.map((it) => it.jan).filter((j): j is string => !!j));
    const newIds = [...new Set(batch.map((o) => o.recipient.idCard.toUpperCase()))].filter((id) => !yearly.has(id));
    const [catalogue, entries, totals] = await Promise.all([
      repo.catalogue(customerId, jans),
      taxCatalogue.entries(customerId, jans),
      yearlyTotals(db, newIds, at, channelTax, validation.currencies),
    ]);
    for (const id of newIds) yearly.set(id, totals.get(id) ?? 0);
    const ctx: CheckContext = { db, now: at, validation, catalogue, tax: { channelTax, entries, yearly } };
    for (const order of batch) {
      const seq = orders.length + 1;
      const { orderFindings, itemFindings } = await reviewOrder(order, ctx);
      const count = orderFindings.length + itemFindings.reduce((n, f) => n + f.length, 0);
      if (count) flagged++;
      orders.push({
        seq,
        order_no: order.orderNo,
        channel: order.channel,
        recipient_name: order.recipient.name,
        province: order.recipient.province,
        city: order.recipient.city,
        item_count: order.items.length,
        value_cny: orderValue(order, validation.currencies),
        findings: JSON.stringify(orderFindings),
        finding_count: count,
      });
      order.items.forEach((it, i) => {
        const entry = it.jan ? catalogue.get(it.jan) : undefined;
        items.push({
          order_seq: seq,
          seq: i + 1,
          jan: it.jan,
          name: it.name,
          quantity: it.quantity,
          unit_price: it.unitPrice,
          currency: it.currency,
          catalogue: entry?.status ?? 'unknown',
          catalogue_item_id: entry?.id ?? null,
          clearance_price: entry?.clearancePrice ?? null,
          findings: JSON.stringify(itemFindings[i]),
        });
      });
    }
  }
  return { orders, items, flagged };
}

/** The order's value in CNY by the reference rates (as the limit rule counts it), or null. */
function orderValue(order: OrderInput, currencies: ReadonlyMap<string, number>): string | null {
  const fen = orderValueCny(order, currencies);
  return fen === null ? null : fromMinor(fen, 2);
}

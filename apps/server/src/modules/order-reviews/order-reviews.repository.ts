import { pageOf } from '../../db/paged.ts';
import type { orderReviews as C } from '@console/contract';
import type { Insertable, Transaction } from 'kysely';
import { parseReferenceData } from '../batches/index.ts';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import type {
  OrderReviewItemsTable,
  OrderReviewOrdersTable,
  OrderReviewsTable,
  ReviewParseState,
} from '../../db/schema-order-reviews.ts';
import { inScope, type Scope } from '../../lib/scope.ts';
import { chinaDayStart } from '../orders/index.ts';
import type { CatalogueEntry } from './order-reviews.checks.ts';
import { rowsInOrder } from '../../db/rows-in-order.ts';

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
/** Rows per INSERT: under SQLite's 32,766 bound parameters with 14 columns. */
const INSERT_CHUNK = 500;

const SORT = {
  createdAt: 'r.created_at',
  status: 'r.status',
  orderCount: 'r.order_count',
  flaggedOrders: 'r.flagged_orders',
} as const;

type Insert<T> = { [K in keyof T as K extends 'id' ? never : K]: T[K] };
export type ReviewInsert = Insertable<OrderReviewsTable>;
export type ReviewOrderInsert = Omit<Insert<OrderReviewOrdersTable>, 'review_id'>;
export type ReviewItemInsert = Omit<Insert<OrderReviewItemsTable>, 'review_id' | 'order_id'> & { order_seq: number };

/** A parse not yet ended: the states a job may still move on. */
const RUNNING: ReviewParseState[] = ['queued', 'parsing'];

async function insertRows(trx: Transaction<DB>, id: number, orders: ReviewOrderInsert[], items: ReviewItemInsert[]) {
  for (let i = 0; i < orders.length; i += INSERT_CHUNK) {
    await trx
      .insertInto('order_review_orders')
      .values(orders.slice(i, i + INSERT_CHUNK).map((o) => ({ ...o, review_id: id })))
      .execute();
  }
  const idOfSeq = new Map(
    (await trx.selectFrom('order_review_orders').select(['id', 'seq']).where('review_id', '=', id).execute()).map(
      (r) => [Number(r.seq), r.id],
    ),
  );
  for (let i = 0; i < items.length; i += INSERT_CHUNK) {
    await trx
      .insertInto('order_review_items')
      .values(
        items.slice(i, i + INSERT_CHUNK).map(({ order_seq, ...it }) => ({
          ...it,
          review_id: id,
          order_id: idOfSeq.get(order_seq)!,
        })),
      )
      .execute();
  }
}

/** Every query of order review; every read and write of a review goes through the caller's scope. */
export function createOrderReviewsRepository(db: Database) {
  const base = (q: Database | Transaction<DB>) =>
    q
      .selectFrom('order_reviews as r')
      .innerJoin('customers as c', 'c.id', 'r.customer_id')
      .innerJoin('users as cu', 'cu.id', 'r.created_by')
      .leftJoin('users as ou', 'ou.id', 'r.completed_by')
      .selectAll('r')
      .select([
        'c.code as customer_code',
        'cu.display_name as created_by_name',
        'ou.display_name as completed_by_name',
      ]);

  return {
    /** Small reference tables the parse and the rules read (the batch import's own). */
    referenceData: () => parseReferenceData(db),

    /** The customer's catalogue entries for these JANs (the items table of modules/items, read only). */
    async catalogue(customerId: number, jans: readonly string[]): Promise<Map<string, CatalogueEntry>> {
      const out = new Map<string, CatalogueEntry>();
      const unique = [...new Set(jans)];
      for (let i = 0; i < unique.length; i += INSERT_CHUNK) {
        const rows = await db
          .selectFrom('items')
          .select(['id', 'jan', 'status', 'clearance_price', 'reason'])
          .where('customer_id', '=', customerId)
          .where('jan', 'in', unique.slice(i, i + INSERT_CHUNK))
          .execute();
        for (const r of rows)
          out.set(r.jan, {
            id: r.id,
            status: r.status as CatalogueEntry['status'],
            clearancePrice: r.clearance_price,
            reason: r.reason,
          });
      }
      return out;
    },

    /** A review as the upload writes it: no orders yet, its parse waiting on the queue. */
    insertQueued: async (trx: Transaction<DB>, review: ReviewInsert) =>
      (await trx.insertInto('order_reviews').values(review).returning('id').executeTakeFirstOrThrow()).id,

    /** What the parse job needs of a review, whoever's it is (the job has no caller's scope). */
    forJob: (id: number) =>
      db
        .selectFrom('order_reviews as r')
        .leftJoin('files as f', 'f.id', 'r.file_id')
        .select(['r.id', 'r.customer_id', 'r.parse_state', 'r.file_name', 'f.storage_key'])
        .where('r.id', '=', id)
        .executeTakeFirst(),

    /** The parse's state and percent, while it runs: never over a review it no longer owns. */
    async setParse(id: number, state: 'parsing', progress: number, at: string) {
      await db
        .updateTable('order_reviews')
        .set({ parse_state: state, parse_progress: progress, updated_at: at })
        .where('id', '=', id)
        .where('parse_state', 'in', RUNNING)
        .execute();
    },

    /** A parse that failed: its message key, read in the reader's language. */
    async failParse(id: number, key: string, params: Record<string, unknown> | undefined, at: string) {
      await db
        .updateTable('order_reviews')
        .set({
          parse_state: 'failed',
          parse_progress: 100,
          parse_error: key,
          parse_error_params: params ? JSON.stringify(params) : null,
          updated_at: at,
        })
        .where('id', '=', id)
        .where('parse_state', 'in', RUNNING)
        .execute();
    },

    /**
     * The parse's result: the review's figures, its orders and their items in one transaction,
     * all or nothing. Guarded by the state in the statement, so a second run of the same review
     * (taken over from an instance that died after this committed) writes nothing; false then,
     * or when the review was deleted meanwhile.
     */
    async writeResult(
      id: number,
      figures: Pick<ReviewInsert, 'order_count' | 'item_count' | 'flagged_orders' | 'row_error_count' | 'row_errors'>,
      orders: ReviewOrderInsert[],
      items: ReviewItemInsert[],
      at: string,
    ) {
      return db.transaction().execute(async (trx) => {
        const r = await trx
          .updateTable('order_reviews')
          .set({ ...figures, parse_state: 'done', parse_progress: 100, parse_error: null, updated_at: at })
          .where('id', '=', id)
          .where('parse_state', 'in', RUNNING)
          .executeTakeFirst();
        if (!Number(r.numUpdatedRows)) return false;
        await insertRows(trx, id, orders, items);
        return true;
      });
    },

    /** The review, its orders and their items: one transaction, all or nothing (the seed's reviews). */
    async insertReview(review: ReviewInsert, orders: ReviewOrderInsert[], items: ReviewItemInsert[]) {
      return db.transaction().execute(async (trx) => {
        const { id } = await trx.insertInto('order_reviews').values(review).returning('id').executeTakeFirstOrThrow();
        await insertRows(trx, id, orders, items);
        return id;
      });
    },

    find: (scope: Scope, id: number) =>
      inScope(base(db), 'r.customer_id', scope).where('r.id', '=', id).executeTakeFirst(),

    async page(scope: Scope, f: C.OrderReviewListRequest) {
      let q = inScope(db.selectFrom('order_reviews as r'), 'r.customer_id', scope);
      if (f.status !== undefined) q = q.where('r.status', '=', f.status);
      if (f.reviewNo) q = q.where('r.review_no', '=', f.reviewNo);
      if (f.customerId) q = q.where('r.customer_id', '=', f.customerId);
      if (f.dateFrom) q = q.where('r.created_at', '>=', chinaDayStart(f.dateFrom));
      if (f.dateTo) q = q.where('r.created_at', '<', chinaDayStart(nextDay(f.dateTo)));
      const { total, rows: ids } = await pageOf(
        q,
        (q) => q.select('r.id').orderBy(SORT[f.sort], f.order).orderBy('r.id', f.order),
        f,
        db,
      );
      const rows = await rowsInOrder(ids, (page) => base(db).where('r.id', 'in', page).execute());
      return { total, rows };
    },

    /** A page of the review's orders, in sheet order. */
    async orders(reviewId: number, f: { offset: number; limit: number; flaggedOnly: boolean; orderNo?: string }) {
      let q = db.selectFrom('order_review_orders').where('review_id', '=', reviewId);
      if (f.flaggedOnly) q = q.where('finding_count', '>', 0);
      if (f.orderNo) q = q.where('order_no', '=', f.orderNo);
      return pageOf(q, (q) => q.selectAll().orderBy('seq'), f);
    },

    async items(
      reviewId: number,
      f: { offset: number; limit: number; orderId?: number; catalogue?: string; flaggedOnly: boolean },
    ) {
      let q = db
        .selectFrom('order_review_items as i')
        .innerJoin('order_review_orders as o', 'o.id', 'i.order_id')
        .where('i.review_id', '=', reviewId);
      if (f.orderId) q = q.where('i.order_id', '=', f.orderId);
      if (f.catalogue) q = q.where('i.catalogue', '=', f.catalogue);
      if (f.flaggedOnly) q = q.where('i.findings', '!=', '[]');
      return pageOf(q, (q) => q.selectAll('i').select('o.order_no').orderBy('o.seq').orderBy('i.seq'), f);
    },

    /** Deletes a pending review in scope: the status guard is in the statement, so two deletes delete once. */
    async deletePending(scope: Scope, id: number): Promise<boolean> {
      const r = await inScope(db.deleteFrom('order_reviews'), 'customer_id', scope)
        .where('id', '=', id)
        .where('status', '=', 0)
        .executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },

    /** Completes a pending review (status 0 → 1) with remarks; false when it was not pending. */
    async complete(id: number, userId: number, remarks: string, at: string): Promise<boolean> {
      const r = await db
        .updateTable('order_reviews')
        .set({ status: 1, remarks, completed_by: userId, completed_at: at, updated_at: at })
        .where('id', '=', id)
        .where('status', '=', 0)
        // A review whose parse has not ended has nothing to complete yet.
        .where('parse_state', '=', 'done')
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    /** The compiled query of the review's workbook: one row per item, with its order's findings. */
    itemsForExport: (reviewId: number) =>
      db
        .selectFrom('order_review_items as i')
        .innerJoin('order_review_orders as o', 'o.id', 'i.order_id')
        .innerJoin('order_reviews as r', 'r.id', 'i.review_id')
        .where('i.review_id', '=', reviewId)
        .select([
          'r.review_no',
          'r.status',
          'r.remarks',
          'o.order_no',
          'o.channel',
          'o.recipient_name',
          'o.findings as order_findings',
          'i.jan',
          'i.name',
          'i.quantity',
          'i.unit_price',
          'i.currency',
          'i.catalogue',
          'i.clearance_price',
          'i.findings as item_findings',
        ])
        .orderBy('o.seq')
        .orderBy('i.seq')
        .compile(),
  };
}
export type OrderReviewsRepository = ReturnType<typeof createOrderReviewsRepository>;
export type ReviewRecord = NonNullable<Awaited<ReturnType<OrderReviewsRepository['find']>>>;

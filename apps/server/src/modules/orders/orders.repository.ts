import type { orders, Paging } from '@console/contract';

type NumberKind = orders.NumberKind;
type OrderFilter = orders.OrderFilter;
import { type Expression, type Insertable, type SqlBool, type Updateable, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { chinaDay } from '../../db/dialect.ts';
import { inScope, type Scope } from '../../lib/scope.ts';
import { reusable } from '../../db/reusable.ts';
import { hiddenBatches, visibleOrders } from '../../domain/order-writer.ts';

/**
 * The order list counts its matches no further than the page asked for plus this many, rounded
 * up to a multiple of it: "1,000+" on the first pages, "2,000+" once the pages reach past 1,000,
 * and so on (docs/api.md, paged answers). Counting 10,001 index entries was most of a first
 * page's cost at 1M orders; 1,001 is a fifth of a millisecond (docs/decisions/2026-11-27-order-list-at-a-million.md).
 */
export const COUNT_STEP = 1_000;
/** The most matches a page at `offset` counts before it says "more than" (see COUNT_STEP). */
export const countBound = (offset: number, limit: number) =>
  (Math.floor((offset + limit) / COUNT_STEP) + 1) * COUNT_STEP;

const LIST_COLUMNS = [
  'o.id',
  'o.order_no',
  'o.waybill_no',
  'o.channel_code',
  'o.customer_id',
  'c.code as customer_code',
  'b.batch_no',
  'o.status',
  'o.recipient_name',
  'o.recipient_phone',
  'o.recipient_province',
  'o.recipient_city',
  'o.print_count',
  'o.print_flag',
  'o.intercepted',
  'o.released',
  'o.error_reason',
  'o.abnormal_rule',
  'o.abnormal_reason',
  'o.created_at',
] as const;

/**
 * Columns of an order list row (joined with its customer and batch), without the orders of a batch
 * still being committed (`hidden`: see domain/order-writer.ts visibleOrders).
 */
export function orderListQuery(db: Database, scope: Scope, hidden?: readonly unknown[] | null) {
  return inScope(
    db
      .selectFrom('orders as o')
      .innerJoin('customers as c', 'c.id', 'o.customer_id')
      .leftJoin('batches as b', 'b.id', 'o.batch_id')
      .select(LIST_COLUMNS)
      .$call(visibleOrders(db, 'o', hidden)),
    'o.customer_id',
    scope,
  );
}
export type OrderListRow = Awaited<ReturnType<ReturnType<typeof orderListQuery>['execute']>>[number];

export const numberColumn = {
  orderNo: 'o.order_no',
  waybillNo: 'o.waybill_no',
  splitWaybillNo: 'o.split_waybill_no',
  systemNo: 'o.system_no',
  userRefNo: 'o.user_ref_no',
} as const;

/** Orders that any of the numbers names, whatever its kind (Order Search). */
function anyNumber(db: Database, numbers: string[]) {
  return (eb: any): Expression<SqlBool> =>
    eb.or([
      eb('o.order_no', 'in', numbers),
      eb('o.waybill_no', 'in', numbers),
      eb('o.split_waybill_no', 'in', numbers),
      eb('o.system_no', 'in', numbers),
      eb('o.user_ref_no', 'in', numbers),
      eb('o.batch_id', 'in', db.selectFrom('batches').select('id').where('batch_no', 'in', numbers)),
    ]);
}

/**
 * The list's order: the sort column, then (for columns with many ties) creation time, then id,
 * all in the asked direction. Within one status, channel or print count the newest come first,
 * as on the unsorted list, and the indexes that lead with customer and status or channel, or
 * with print count, serve the whole order so a page stops after its rows (migration
 * 2026-11-27T0915; an id tie-break needed an index per sort of its own).
 */
const SORT_ORDER = {
  createdAt: ['o.created_at', 'o.id'],
  orderNo: ['o.order_no', 'o.id'],
  waybillNo: ['o.waybill_no', 'o.id'],
  status: ['o.status', 'o.created_at', 'o.id'],
  printCount: ['o.print_count', 'o.created_at', 'o.id'],
  channel: ['o.channel_code', 'o.created_at', 'o.id'],
} as const;
const sorted =
  (sort: keyof typeof SORT_ORDER, order: 'asc' | 'desc') =>
  <Q extends { orderBy(column: (typeof SORT_ORDER)[keyof typeof SORT_ORDER][number], order: 'asc' | 'desc'): Q }>(
    q: Q,
  ): Q =>
    SORT_ORDER[sort].reduce((acc: Q, column) => acc.orderBy(column, order), q);

/** UTC bounds of China calendar days (UTC+8): [from 00:00, to+1 00:00). */
export function chinaDayStart(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d) - 8 * 3_600_000).toISOString();
}
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * A filter as the values a query binds (reusable: dates already turned into instants,
 * flags into 0/1), so the list query's SQL depends only on which filters are present.
 */
export function filterValues(f: OrderFilter) {
  const flag = (b: boolean | undefined) => (b === undefined ? undefined : b ? 1 : 0);
  return {
    numbers: f.numbers?.length ? f.numbers : undefined,
    batchId: f.batchId,
    customerId: f.customerId,
    channel: f.channel,
    status: f.status,
    receiveStatus: f.receiveStatus,
    intercepted: flag(f.intercepted),
    released: flag(f.released),
    printFlag: flag(f.printFlag),
    recipientName: f.recipientName,
    recipientPhone: f.recipientPhone,
    createdFrom: f.dateFrom ? chinaDayStart(f.dateFrom) : undefined,
    createdBefore: f.dateTo ? chinaDayStart(nextDay(f.dateTo)) : undefined,
  };
}
type FilterValues = ReturnType<typeof filterValues>;

/**
 * The list's filters as WHERE conditions on `orders as o` (batch conditions via subqueries: no
 * join needed to count). Only tests presence and passes values through (see db/reusable.ts).
 */
function filterConditions(db: Database, noType: NumberKind | undefined, f: FilterValues) {
  return (eb: any): Expression<SqlBool> => {
    const and: Expression<SqlBool>[] = [];
    if (f.numbers !== undefined) {
      if (noType === 'batchNo') {
        and.push(eb('o.batch_id', 'in', db.selectFrom('batches').select('id').where('batch_no', 'in', f.numbers)));
      } else {
        and.push(eb(numberColumn[(noType ?? 'orderNo') as Exclude<NumberKind, 'batchNo'>], 'in', f.numbers));
      }
    }
    if (f.batchId !== undefined) and.push(eb('o.batch_id', '=', f.batchId));
    if (f.customerId !== undefined) and.push(eb('o.customer_id', '=', f.customerId));
    if (f.channel !== undefined) and.push(eb('o.channel_code', '=', f.channel));
    if (f.status !== undefined) and.push(eb('o.status', '=', f.status));
    if (f.receiveStatus !== undefined) {
      and.push(
        eb('o.batch_id', 'in', db.selectFrom('batches').select('id').where('receive_status', '=', f.receiveStatus)),
      );
    }
    if (f.intercepted !== undefined) and.push(eb('o.intercepted', '=', f.intercepted));
    if (f.released !== undefined) and.push(eb('o.released', '=', f.released));
    if (f.printFlag !== undefined) and.push(eb('o.print_flag', '=', f.printFlag));
    if (f.recipientName !== undefined) and.push(eb('o.recipient_name', '=', f.recipientName));
    if (f.recipientPhone !== undefined) and.push(eb('o.recipient_phone', '=', f.recipientPhone));
    if (f.createdFrom !== undefined) and.push(eb('o.created_at', '>=', f.createdFrom));
    if (f.createdBefore !== undefined) and.push(eb('o.created_at', '<', f.createdBefore));
    return eb.and(and);
  };
}

/**
 * Status guards (finding 18 of issue 10). The condition that makes a write legal goes into the
 * write's own statement, never only into a read before it: a delete and a scan sent together
 * both passed their checks and both "succeeded". On PostgreSQL a guarded UPDATE/DELETE waits for
 * a concurrent writer of the row and then re-evaluates its WHERE on the committed row; on SQLite
 * writes are serialised, so the WHERE always sees the last commit.
 */
/** Orders that may still be changed: not received, shipped, released, cancelled or intercepted. */
export const CHANGEABLE_STATUSES = ['created', 'printed'] as const;
/** Orders that may be deleted: the changeable ones and cancelled ones. */
export const DELETABLE_STATUSES = ['created', 'printed', 'cancelled'] as const;
/** What else a guarded write requires of the row. */
export type Guard = {
  statuses: readonly string[];
  /** The order must be an error order (error_at set). */
  error?: boolean;
};

type ListPage = { total: number; exact: boolean; list: OrderListRow[] };

export type OrderRecord = Awaited<ReturnType<ReturnType<typeof createOrdersRepository>['find']>>;

export function createOrdersRepository(db: Database) {
  // Orders of a batch still being committed are not shown (domain/order-writer.ts visibleOrders).
  const scoped = (scope: Scope, hidden?: readonly unknown[] | null) =>
    inScope(db.selectFrom('orders as o').$call(visibleOrders(db, 'o', hidden)), 'o.customer_id', scope);

  // The page size is part of the shape and goes into the SQL as a literal: SQLite plans
  // `limit 20` 1.5–4× faster than `limit ?` (measured on the 1M-order benchmark).
  type ListShape = {
    all: boolean;
    noType?: NumberKind;
    sort: keyof typeof SORT_ORDER;
    order: 'asc' | 'desc';
    limit: number;
    /** Only intercepted orders: the literal lets the planner use the partial index. */
    interceptedOnly: boolean;
  };
  // `hidden`: the staged batches' ids, bound like any value (present only while one is staged).
  type ListValues = FilterValues & { customerIds: readonly number[]; offset: number; hidden?: readonly number[] };
  const scopeOfValues = (shape: ListShape, v: ListValues): Scope =>
    shape.all ? { all: true } : { all: false, customerIds: v.customerIds };
  // A deferred join: the page's ids are found on `orders` alone (an index, often covering),
  // and only those rows are then read whole and joined. Sorting the joined rows made SQLite
  // read every matching row before the sort — 1.6 s for an agent's first page at 1M orders,
  // 0.4 ms this way (bench/orders-probe.ts). The ids are already scoped and visible.
  const pageQuery = reusable(
    db,
    (shape: ListShape, v: ListValues) =>
      orderListQuery(db, { all: true }, null)
        .where(
          'o.id',
          'in',
          scoped(scopeOfValues(shape, v), v.hidden ?? null)
            .where(filterConditions(db, shape.noType, v))
            .$if(shape.interceptedOnly, (q) => q.where(sql<SqlBool>`o.intercepted = 1`))
            .select('o.id')
            .$call(sorted(shape.sort, shape.order))
            .limit(sql.lit(shape.limit))
            .offset(v.offset),
        )
        .$call(sorted(shape.sort, shape.order)),
    { offLoop: true },
  );
  const cappedCountQuery = reusable(
    db,
    (shape: ListShape, v: ListValues) =>
      db
        .selectFrom(
          scoped(scopeOfValues(shape, v), v.hidden ?? null)
            .where(filterConditions(db, shape.noType, v))
            .$if(shape.interceptedOnly, (q) => q.where(sql<SqlBool>`o.intercepted = 1`))
            .select(sql<number>`1`.as('one'))
            .limit(sql.lit(shape.limit))
            .as('capped'),
        )
        .select((eb) => eb.fn.countAll<number>().as('n')),
    { offLoop: true },
  );

  return {
    /**
     * Claims the orders a write may touch inside the write's transaction: a guarded UPDATE that
     * takes the row locks (PostgreSQL) and returns only the ids whose status still allows it.
     * The caller answers 404/409 for the others and rolls back.
     */
    async claim(
      trx: Transaction<DB>,
      ids: readonly number[],
      guard: Guard,
      at: string,
      /** The version an edit form was loaded from: a row at another version is not claimed. */
      version?: number,
    ): Promise<number[]> {
      if (!ids.length) return [];
      let q = trx
        .updateTable('orders')
        .set({ updated_at: at })
        .where('id', 'in', [...ids])
        .where('status', 'in', [...guard.statuses])
        .where('intercepted', '=', 0);
      if (guard.error) q = q.where('error_at', 'is not', null);
      if (version !== undefined) q = q.where('version', '=', version);
      return (await q.returning('id').execute()).map((r) => r.id);
    },
    /** The order's version as this transaction wrote it (the database bumps it on every update). */
    async versionIn(trx: Transaction<DB>, id: number) {
      const r = await trx.selectFrom('orders').select('version').where('id', '=', id).executeTakeFirstOrThrow();
      return r.version;
    },
    /** Deletes claimed orders with their items and events; their ID cards stay, unlinked. */
    async deleteClaimed(trx: Transaction<DB>, ids: readonly number[]) {
      const list = [...ids];
      await trx.deleteFrom('order_items').where('order_id', 'in', list).execute();
      await trx.deleteFrom('tracking_events').where('order_id', 'in', list).execute();
      await trx.updateTable('id_cards').set({ order_id: null }).where('order_id', 'in', list).execute();
      const r = await trx.deleteFrom('orders').where('id', 'in', list).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
    /** Lock/state columns of some orders, read after a guard failed to say why. */
    async states(ids: readonly number[]) {
      if (!ids.length) return [];
      return db
        .selectFrom('orders')
        .select(['id', 'order_no', 'status', 'intercepted', 'error_at'])
        .where('id', 'in', [...ids])
        .execute();
    },
    /**
     * Resolves or releases abnormal orders; only rows that were abnormal change, and only their
     * ids are returned, so events are written for exactly those (finding 10 of issue 10).
     */
    async settleAbnormal(trx: Transaction<DB>, ids: readonly number[], at: string) {
      if (!ids.length) return [];
      // Releasing an abnormal order lets it through the office's check; it is not the clearance
      // company's release (status `released`, domain/order-life.ts), so `released` stays as it is.
      const rows = await trx
        .updateTable('orders')
        .set({ abnormal_rule: null, abnormal_reason: null, abnormal_at: null, updated_at: at })
        .where('id', 'in', [...ids])
        .where('abnormal_at', 'is not', null)
        .returning('id')
        .execute();
      return rows.map((r) => r.id);
    },
    async addEvents(trx: Transaction<DB>, events: Insertable<DB['tracking_events']>[]) {
      if (events.length) await trx.insertInto('tracking_events').values(events).execute();
    },
    async updateOrder(trx: Transaction<DB>, id: number, changes: Updateable<DB['orders']>) {
      await trx.updateTable('orders').set(changes).where('id', '=', id).execute();
    },
    /** Sets one of the order list's yes/no flags on orders already checked against the scope. */
    async setFlag(
      ids: number[],
      column: 'gns_updated' | 'push_s' | 'push_price' | 'whole_set' | 'print_flag',
      value: boolean,
      at: string,
    ) {
      const r = await db
        .updateTable('orders')
        .set({ [column]: value ? 1 : 0, updated_at: at })
        .where('id', 'in', ids)
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
    async replaceItems(trx: Transaction<DB>, orderId: number, rows: Insertable<DB['order_items']>[]) {
      await trx.deleteFrom('order_items').where('order_id', '=', orderId).execute();
      await trx.insertInto('order_items').values(rows).execute();
    },
    item: (id: number) => db.selectFrom('order_items').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
    itemOrder: (itemId: number) =>
      db.selectFrom('order_items').select('order_id').where('id', '=', itemId).executeTakeFirst(),
    async insertItem(trx: Transaction<DB>, row: Insertable<DB['order_items']>) {
      const r = await trx.insertInto('order_items').values(row).returning('id').executeTakeFirstOrThrow();
      return r.id;
    },
    async updateItem(trx: Transaction<DB>, id: number, changes: Updateable<DB['order_items']>) {
      await trx.updateTable('order_items').set(changes).where('id', '=', id).execute();
    },
    /** Deletes one item and answers how many the order has left, counted inside the write. */
    async deleteItem(trx: Transaction<DB>, id: number, orderId: number) {
      await trx.deleteFrom('order_items').where('id', '=', id).execute();
      const left = await trx
        .selectFrom('order_items')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('order_id', '=', orderId)
        .executeTakeFirstOrThrow();
      return Number(left.n);
    },
    /** One page of the order list and its count, exact up to countBound. */
    async listPage(scope: Scope, p: Paging & OrderFilter & { sort: keyof typeof SORT_ORDER }): Promise<ListPage> {
      const shape: ListShape = {
        all: scope.all,
        noType: p.numbers?.length ? p.noType : undefined,
        sort: p.sort,
        order: p.order,
        limit: p.limit,
        interceptedOnly: p.intercepted === true,
      };
      const values: ListValues = {
        ...filterValues(p),
        customerIds: scope.all ? [] : scope.customerIds,
        offset: p.offset,
        hidden: hiddenBatches(db),
      };
      const bound = countBound(p.offset, p.limit);
      const [countRows, list] = await Promise.all([
        cappedCountQuery.execute({ ...shape, limit: bound + 1 }, values),
        pageQuery.execute(shape, values),
      ]);
      const n = Number(countRows[0]!.n);
      return { total: Math.min(n, bound), exact: n <= bound, list };
    },
    /**
     * Every row of a filter, in order, up to `max`, as a compiled query: the export's
     * workbook worker runs it on its own connection, a page at a time.
     */
    exportQuery(scope: Scope, f: OrderFilter & { sort: keyof typeof SORT_ORDER; order: 'asc' | 'desc' }, max: number) {
      return orderListQuery(db, scope)
        .select('o.tax_estimate')
        .where(filterConditions(db, f.numbers?.length ? f.noType : undefined, filterValues(f)))
        .$call(sorted(f.sort, f.order))
        .limit(max)
        .compile();
    },
    /**
     * The rows the export of this filter would hold, counted no further than `max`: enough to
     * tell a small export (its turn in the file pool, lib/workbook-job.ts) at the cost of a page.
     */
    async exportRowsUpTo(scope: Scope, f: OrderFilter, max: number) {
      const { n } = await db
        .selectFrom(
          orderListQuery(db, scope)
            .clearSelect()
            .select('o.id')
            .where(filterConditions(db, f.numbers?.length ? f.noType : undefined, filterValues(f)))
            .limit(max)
            .as('t'),
        )
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(n);
    },
    /** Orders matching any of the numbers under any number kind. */
    async findByAnyNumber(scope: Scope, numbers: string[]) {
      if (numbers.length === 0) return [];
      return orderListQuery(db, scope)
        .select(['o.split_waybill_no', 'o.system_no', 'o.user_ref_no'])
        .where(anyNumber(db, numbers))
        .orderBy('o.id')
        .limit(5000)
        .execute();
    },
    /**
     * One page of the orders any of the numbers names (Order Search, batch search), newest first
     * by default, with the exact count: a search is bounded by its numbers, not the whole table.
     */
    async searchPage(scope: Scope, numbers: string[], p: Paging) {
      const q = orderListQuery(db, scope)
        .select(['o.split_waybill_no', 'o.system_no', 'o.user_ref_no'])
        .where(anyNumber(db, numbers));
      const [{ total }, list] = await Promise.all([
        orderListQuery(db, scope)
          .clearSelect()
          .select((eb) => eb.fn.countAll<number>().as('total'))
          .where(anyNumber(db, numbers))
          .executeTakeFirstOrThrow(),
        q.orderBy('o.id', p.order).offset(p.offset).limit(p.limit).execute(),
      ]);
      return { total: Number(total), list };
    },
    /** Which of the numbers name at least one order in scope (the rest are "not found"). */
    async matchedNumbers(scope: Scope, numbers: string[]): Promise<Set<string>> {
      const columns = ['o.order_no', 'o.waybill_no', 'o.split_waybill_no', 'o.system_no', 'o.user_ref_no'] as const;
      const hits = await Promise.all([
        ...columns.map((c) =>
          orderListQuery(db, scope).clearSelect().select(`${c} as n`).distinct().where(c, 'in', numbers).execute(),
        ),
        orderListQuery(db, scope)
          .clearSelect()
          .select('b.batch_no as n')
          .distinct()
          .where('b.batch_no', 'in', numbers)
          .execute(),
      ]);
      return new Set(hits.flat().map((r) => r.n as string));
    },
    /** Orders in error (kind 'error') or abnormal and unresolved (kind 'abnormal'). */
    async attentionPage(scope: Scope, kind: 'error' | 'abnormal', p: Paging & { keyword?: string }) {
      const at = kind === 'error' ? 'o.error_at' : 'o.abnormal_at';
      // A cancelled order needs no one's attention: the lists and the header badges (their
      // totals) count the live flags of orders still in the order's life.
      let q = orderListQuery(db, scope).where(at, 'is not', null).where('o.status', '!=', 'cancelled');
      if (p.keyword)
        q = q.where((eb) => eb.or([eb('o.order_no', '=', p.keyword!), eb('o.waybill_no', '=', p.keyword!)]));
      const { total } = await q
        .clearSelect()
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .executeTakeFirstOrThrow();
      const list = await q.orderBy(at, p.order).orderBy('o.id', p.order).offset(p.offset).limit(p.limit).execute();
      return { total: Number(total), list };
    },
    /** One order in scope with its customer code and batch, or undefined. */
    async find(scope: Scope, id: number) {
      return scoped(scope)
        .innerJoin('customers as c', 'c.id', 'o.customer_id')
        .leftJoin('batches as b', 'b.id', 'o.batch_id')
        .selectAll('o')
        .select(['c.code as customer_code', 'b.batch_no', 'b.receive_status as batch_receive_status'])
        .where('o.id', '=', id)
        .executeTakeFirst();
    },
    /** Scope-checked ids: the subset of `ids` the scope may touch. */
    async idsInScope(scope: Scope, ids: number[]) {
      const rows = await scoped(scope)
        .select(['o.id', 'o.status', 'o.intercepted', 'o.order_no'])
        .where('o.id', 'in', ids)
        .execute();
      return rows;
    },
    items: (orderId: number) =>
      db
        .selectFrom('order_items')
        .selectAll()
        .where('order_id', '=', orderId)
        .orderBy('line_no')
        .orderBy('id')
        .execute(),
    /** The order's trail: its creation (from the order row, see createdEvent) then the stored events. */
    async events(orderId: number) {
      const [order, stored] = await Promise.all([
        db.selectFrom('orders').select('created_at').where('id', '=', orderId).executeTakeFirst(),
        db
          .selectFrom('tracking_events')
          .select(['kind', 'at', 'location', 'note'])
          .where('order_id', '=', orderId)
          .orderBy('at')
          .orderBy('id')
          .execute(),
      ]);
      return order ? [{ ...createdEvent(order.created_at), note: null }, ...stored] : stored;
    },
    async countByStatus(scope: Scope) {
      return scoped(scope)
        .select(['o.status', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('o.status')
        .execute();
    },
    async countAttention(scope: Scope) {
      return scoped(scope)
        .select([
          sql<number>`sum(case when o.error_at is not null and o.status <> 'cancelled' then 1 else 0 end)`.as('errors'),
          sql<number>`sum(case when o.abnormal_at is not null and o.status <> 'cancelled' then 1 else 0 end)`.as(
            'abnormal',
          ),
        ])
        .executeTakeFirstOrThrow();
    },
    async perDay(scope: Scope, since: string) {
      const day = chinaDay(db, 'o.created_at');
      return scoped(scope)
        .select([day.as('day'), (eb) => eb.fn.countAll<number>().as('n')])
        .where('o.created_at', '>=', since)
        .groupBy(day)
        .execute();
    },
    /** Prices seen for a JAN in the customer's earlier orders, newest first. */
    async itemByJan(customerId: number, jan: string) {
      return db
        .selectFrom('order_items as i')
        .innerJoin('orders as o', 'o.id', 'i.order_id')
        .select(['i.name', 'i.brand', 'i.spec', 'i.unit_price', 'i.currency', 'i.origin', 'i.hazard_code', 'i.jan'])
        .where('o.customer_id', '=', customerId)
        .where('i.jan', '=', jan)
        .$call(visibleOrders(db, 'o'))
        .orderBy('i.id', 'desc')
        .limit(50)
        .execute();
    },
    async orderNoExists(customerId: number, orderNo: string) {
      const r = await db
        .selectFrom('orders')
        .select('id')
        .where('customer_id', '=', customerId)
        .where('order_no', '=', orderNo)
        .executeTakeFirst();
      return !!r;
    },
    /** A customer's export nomination that is not deleted, or undefined. */
    exportNomination: (customerId: number, id: number) =>
      db
        .selectFrom('export_nominations')
        .select('id')
        .where('id', '=', id)
        .where('customer_id', '=', customerId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst(),
    numberSegment: (id: number, channel: string) =>
      db
        .selectFrom('number_segments')
        .select(['id', 'customer_id'])
        .where('id', '=', id)
        .where('channel_code', '=', channel)
        .executeTakeFirst(),
    customer: (id: number) => db.selectFrom('customers').select(['id', 'code']).where('id', '=', id).executeTakeFirst(),
    numberSegments: (channel: string, customerId: number) =>
      db
        .selectFrom('number_segments')
        .select(['id', 'name', 'prefix', 'next_seq', 'last_seq'])
        .where('channel_code', '=', channel)
        .where((eb) => eb.or([eb('customer_id', 'is', null), eb('customer_id', '=', customerId)]))
        .orderBy('id')
        .execute(),
    async getSetting(userId: number, key: string) {
      const r = await db
        .selectFrom('user_settings')
        .select('value')
        .where('user_id', '=', userId)
        .where('key', '=', key)
        .executeTakeFirst();
      return r ? (JSON.parse(r.value) as unknown) : undefined;
    },
    async putSetting(userId: number, key: string, value: unknown, now: string) {
      await db
        .insertInto('user_settings')
        .values({ user_id: userId, key, value: JSON.stringify(value), updated_at: now })
        .onConflict((oc) =>
          oc.columns(['user_id', 'key']).doUpdateSet({ value: JSON.stringify(value), updated_at: now }),
        )
        .execute();
    },
    /** Orders by waybill number for the public tracking page (no scope: the number is the key). */
    async byWaybills(waybillNos: string[]) {
      return db
        .selectFrom('orders')
        .select(['id', 'waybill_no', 'channel_code', 'recipient_name', 'status'])
        .where('waybill_no', 'in', waybillNos)
        .$call(visibleOrders(db, 'orders'))
        .execute();
    },
    /** The trails of several orders (see events), each order's creation first. */
    async eventsOf(orderIds: number[]) {
      if (orderIds.length === 0) return [];
      const [orders, stored] = await Promise.all([
        db.selectFrom('orders').select(['id', 'created_at']).where('id', 'in', orderIds).execute(),
        db
          .selectFrom('tracking_events')
          .select(['order_id', 'kind', 'at', 'location'])
          .where('order_id', 'in', orderIds)
          .orderBy('at')
          .orderBy('id')
          .execute(),
      ]);
      return [...orders.map((o) => ({ order_id: o.id, ...createdEvent(o.created_at) })), ...stored];
    },
    /** The order a scanned code names: waybill, split waybill or order number. */
    async forScan(code: string) {
      return db
        .selectFrom('orders as o')
        .innerJoin('customers as c', 'c.id', 'o.customer_id')
        .leftJoin('batches as b', 'b.id', 'o.batch_id')
        .select([
          'o.id',
          'o.order_no',
          'o.waybill_no',
          'o.status',
          'o.intercepted',
          'o.received_at',
          'o.batch_id',
          'c.code as customer_code',
          'b.batch_no',
        ])
        .where((eb) => eb.or([eb('o.waybill_no', '=', code), eb('o.split_waybill_no', '=', code)]))
        .$call(visibleOrders(db, 'o'))
        .orderBy('o.id', 'desc')
        .executeTakeFirst();
    },
    /**
     * Counts one hit in the current fixed window and returns the hits so far. Kept in
     * the database so every instance behind a load balancer shares the same budget.
     */
    async hit(key: string, windowStart: number) {
      const r = await db
        .insertInto('rate_limits')
        .values({ key, window_start: windowStart, hits: 1 })
        .onConflict((oc) => oc.columns(['key', 'window_start']).doUpdateSet({ hits: sql`rate_limits.hits + 1` }))
        .returning('hits')
        .executeTakeFirstOrThrow();
      if (r.hits === 1)
        await db
          .deleteFrom('rate_limits')
          .where('window_start', '<', windowStart - 3_600_000)
          .execute();
      return r.hits;
    },
  };
}
export type OrdersRepository = ReturnType<typeof createOrdersRepository>;

/**
 * An order's 'created' event is its own row's creation time, not a stored event: storing it
 * again doubled the rows an import writes (100,000 orders, 100,000 events and their index).
 */
export const createdEvent = (createdAt: string) => ({ kind: 'created', at: createdAt, location: null });

import type { orders, Paging } from '@console/contract';
type NumberKind = orders.NumberKind;
type OrderFilter = orders.OrderFilter;
import { type Expression, type SqlBool, sql } from 'kysely';
import type { Database } from '../../db/database.ts';
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
 * 2026-11-27T0915; an id tie-break needed an index per sort of its own). Since 2026-11-27T0930
 * those indexes hold id after creation time, then the columns filterConditions tests for
 * equality: a filter added there belongs in that migration's list too, or each entry it tests
 * reads the order's row.
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

/**
 * Up to this many customers in a scope, a page is read per customer and merged
 * (pageIdsByCustomer); beyond, each part's `reach` rows add up to more than one sort of the scope.
 */
const MERGED_CUSTOMERS = 16;

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

type ListPage = { total: number; exact: boolean; list: OrderListRow[] };

/** Orders in scope, without those of a batch still being committed (domain/order-writer.ts visibleOrders). */
export const scopedOrders = (db: Database, scope: Scope, hidden?: readonly unknown[] | null) =>
  inScope(db.selectFrom('orders as o').$call(visibleOrders(db, 'o', hidden)), 'o.customer_id', scope);

/** Reads over many orders: the list and its export, search by numbers, attention pages, the dashboard's counts. */
export function createOrderListRepository(
  db: Database,
  /** Tests only: compare merged pages with the plain ones (1: never merge). */
  { mergedCustomers = MERGED_CUSTOMERS }: { mergedCustomers?: number } = {},
) {
  const scoped = (scope: Scope, hidden?: readonly unknown[] | null) => scopedOrders(db, scope, hidden);

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
    /** Each customer's page read apart, then merged (pageIdsByCustomer): a scope of a few customers. */
    byCustomer: boolean;
  };
  // `hidden`: the staged batches' ids, bound like any value (present only while one is staged).
  // `reach`: offset + limit, the rows each customer's part of a merged page must give at most.
  type ListValues = FilterValues & {
    customerIds: readonly number[];
    offset: number;
    reach: number;
    hidden?: readonly number[];
  };
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
          shape.byCustomer
            ? pageIdsByCustomer(shape, v)
            : scoped(scopeOfValues(shape, v), v.hidden ?? null)
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
  /**
   * The page's ids in a scope of a few customers (an agent's): each customer's first `reach`
   * rows in the list's order, read off its own `(customer_id, <sort>, …)` index in order, then
   * merged and cut. With `customer_id in (…)` no index gives one order across the customers, so
   * every match was read and sorted: an agent's first page by print count at 1M orders took
   * 75-127 ms, merged 0.2 ms (bench/orders-probe.ts).
   */
  const pageIdsByCustomer = (shape: ListShape, v: ListValues) => {
    const columns = SORT_ORDER[shape.sort];
    const key = (i: number) => `k${i}` as const;
    const part = (customerId: number) =>
      db
        .selectFrom(
          scoped({ all: false, customerIds: [customerId] }, v.hidden ?? null)
            .where(filterConditions(db, shape.noType, v))
            .$if(shape.interceptedOnly, (q) => q.where(sql<SqlBool>`o.intercepted = 1`))
            .select(columns.map((c, i) => sql.ref(c).as(key(i))))
            .$call(sorted(shape.sort, shape.order))
            .limit(v.reach)
            .as('part'),
        )
        .selectAll();
    const [first, ...rest] = v.customerIds.map(part);
    const merged = rest.reduce((u, q) => u.unionAll(q), first!);
    return columns
      .reduce(
        (q, _, i) => q.orderBy(sql.ref(`merged.${key(i)}`), shape.order),
        db
          .selectFrom(merged.as('merged'))
          .select(sql<number>`${sql.ref(`merged.${key(columns.length - 1)}`)}`.as('id')),
      )
      .limit(sql.lit(shape.limit))
      .offset(v.offset);
  };
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
    /** One page of the order list and its count, exact up to countBound. */
    async listPage(scope: Scope, p: Paging & OrderFilter & { sort: keyof typeof SORT_ORDER }): Promise<ListPage> {
      const shape: ListShape = {
        all: scope.all,
        noType: p.numbers?.length ? p.noType : undefined,
        sort: p.sort,
        order: p.order,
        limit: p.limit,
        interceptedOnly: p.intercepted === true,
        byCustomer: !scope.all && scope.customerIds.length > 1 && scope.customerIds.length <= mergedCustomers,
      };
      const values: ListValues = {
        ...filterValues(p),
        customerIds: scope.all ? [] : scope.customerIds,
        offset: p.offset,
        reach: p.offset + p.limit,
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
  };
}

/**
 * The paging state of every server-paged table (ARCHITECTURE.md "The console": one paged-table pattern, like
 * ProTable's `request`). Pure functions, so the rules are unit-tested once:
 *  - a page turn or a page-size change moves only offset/limit;
 *  - a sort change starts again at page 1 and keeps the filters;
 *  - a filter change starts again at page 1 and keeps the sort and the page size.
 * Order List once handled the page turn in the pagination's `onChange` and then again in the
 * table's `onChange`, the second resetting the offset the first had set: here antd's one
 * table `onChange` is the only entry, told apart by its `action`.
 */
export type SortOrder = 'asc' | 'desc';

export interface PagedState<F> {
  offset: number;
  limit: number;
  order: SortOrder;
  /** The sorted column, when the call sorts by column (Order List); absent otherwise. */
  sort?: string;
  filters: F;
}

export interface PagingDefaults {
  limit: number;
  order: SortOrder;
  sort?: string;
}

/** What antd's Table `onChange` reports, reduced to what paging needs. */
export interface TableChange {
  action: 'paginate' | 'sort' | 'filter';
  current?: number;
  pageSize?: number;
  /** The sorted column's key, or undefined when sorting was cleared. */
  sortKey?: string;
  sortOrder?: 'ascend' | 'descend' | null;
}

export const PAGE_SIZES = [10, 20, 50, 100] as const;

export function initialPaging<F>(defaults: PagingDefaults, filters: F): PagedState<F> {
  return { offset: 0, limit: defaults.limit, order: defaults.order, sort: defaults.sort, filters };
}

export const pageOf = (s: { offset: number; limit: number }) => Math.floor(s.offset / s.limit) + 1;

export function applyTableChange<F>(s: PagedState<F>, c: TableChange, defaults: PagingDefaults): PagedState<F> {
  if (c.action === 'paginate') {
    const limit = c.pageSize && c.pageSize > 0 ? c.pageSize : s.limit;
    // A new page size starts at page 1: "page 7 of 20 rows" means nothing at 100 rows.
    if (limit !== s.limit) return { ...s, offset: 0, limit };
    const page = c.current && c.current > 0 ? c.current : 1;
    return { ...s, offset: (page - 1) * limit };
  }
  if (c.action === 'sort') {
    if (!c.sortOrder || !c.sortKey) return { ...s, offset: 0, sort: defaults.sort, order: defaults.order };
    return { ...s, offset: 0, sort: c.sortKey, order: c.sortOrder === 'ascend' ? 'asc' : 'desc' };
  }
  return { ...s, offset: 0 };
}

export function applyFilters<F>(s: PagedState<F>, filters: F): PagedState<F> {
  return { ...s, offset: 0, filters };
}

/** The call's body: paging fields plus the filters, without empty ones (the contract has them optional). */
export function toRequest<F extends object>(s: PagedState<F>): Record<string, unknown> {
  const body: Record<string, unknown> = { offset: s.offset, limit: s.limit, order: s.order };
  if (s.sort !== undefined) body.sort = s.sort;
  for (const [k, v] of Object.entries(s.filters)) {
    if (v === undefined || v === null || v === '') continue;
    body[k] = v;
  }
  return body;
}

/** After deleting rows: a page left empty steps back one page rather than showing nothing. */
export function clampToTotal<F>(s: PagedState<F>, total: number): PagedState<F> {
  if (s.offset === 0 || s.offset < total) return s;
  const lastPage = Math.max(1, Math.ceil(total / s.limit));
  return { ...s, offset: (lastPage - 1) * s.limit };
}

type DayLike = { format(pattern: string): string } | null | undefined;

/** The server filters by calendar day: a picked range becomes `dateFrom`/`dateTo` as YYYY-MM-DD. */
export function rangeToDates(range: readonly [DayLike, DayLike] | null | undefined): {
  dateFrom: string | undefined;
  dateTo: string | undefined;
} {
  return { dateFrom: range?.[0]?.format('YYYY-MM-DD'), dateTo: range?.[1]?.format('YYYY-MM-DD') };
}

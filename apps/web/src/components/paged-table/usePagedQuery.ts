import type { CallDef, CallRequest, CallResponse } from '@console/contract';
import type { UseQueryOptions } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useCall } from '@/lib';
import {
  applyFilters,
  applyTableChange,
  clampToTotal,
  initialPaging,
  type PagedState,
  type PagingDefaults,
  type TableChange,
  toRequest,
} from './paging.ts';

/** `exact: false`: the server stopped counting and `total` is a lower bound (docs/api.md, paged answers). */
type PagedResponse = { total: number; list: unknown[]; exact?: boolean };
type QueryOptions<C extends CallDef> = Omit<UseQueryOptions<CallResponse<C>, Error>, 'queryKey' | 'queryFn'>;

export interface PagedQueryOptions<C extends CallDef, F> extends Partial<PagingDefaults> {
  filters?: F;
  /** Extra react-query options (a refetch interval for live progress, enabled). */
  query?: QueryOptions<C>;
}

/**
 * Owns offset, limit, sort and filters of one server-paged call and runs the query (the
 * ProTable `request` pattern): pages give it their filters, `<PagedTable paged={…}>` the
 * table's changes. The previous page stays on screen while the next one loads.
 */
export function usePagedQuery<C extends CallDef, F extends object = Record<string, never>>(
  def: C,
  options: PagedQueryOptions<C, F> = {},
) {
  const defaults: PagingDefaults = { limit: options.limit ?? 20, order: options.order ?? 'desc', sort: options.sort };
  const [state, setState] = useState<PagedState<F>>(() => initialPaging(defaults, options.filters ?? ({} as F)));
  const request = toRequest(state) as CallRequest<C>;
  const query = useCall(def, request, { placeholderData: (prev) => prev, ...options.query });
  const data = query.data as (CallResponse<C> & PagedResponse) | undefined;
  const total = data?.total;

  // 查询 and 重置 always ask the server again: with the same filters the query's key is unchanged
  // and its cached page (staleTime) would hide what was created since (issue 28, item 4). A
  // changed key is being fetched already.
  const [asked, setAsked] = useState(0);
  useEffect(() => {
    if (asked && !query.isFetching) void query.refetch();
    // Only a new ask refetches, not every change of the query object.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [asked]);

  // Rows deleted from the last page: step back instead of showing an empty page.
  useEffect(() => {
    if (total !== undefined && !query.isPlaceholderData) setState((s) => clampToTotal(s, total));
  }, [total, query.isPlaceholderData]);

  return {
    state,
    request,
    query,
    data,
    /** New filters (查询, 重置): back to page 1, sort and page size kept, and always fetched anew. */
    setFilters: (filters: F) => {
      setState((s) => applyFilters(s, filters));
      setAsked((n) => n + 1);
    },
    /** antd Table's change (page, size, sort), see PagedTable. */
    onTableChange: (c: TableChange) => setState((s) => applyTableChange(s, c, defaults)),
  };
}

export type PagedQuery = Pick<ReturnType<typeof usePagedQuery>, 'state' | 'onTableChange'> & {
  data?: PagedResponse;
  query: { isFetching: boolean };
};

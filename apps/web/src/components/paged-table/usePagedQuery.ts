import type { CallDef, CallRequest, CallResponse } from '@console/contract';
import type { UseQueryOptions } from '@tanstack/react-query';
import { startTransition, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useCall } from '@/lib';
import { filtersKey, type ListParamsSpec, parseListParams, writeListParams } from './list-params.ts';
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
import { selectionScope } from './selection.ts';

/** `exact: false`: the server stopped counting and `total` is a lower bound (docs/api.md, paged answers). */
type PagedResponse = { total: number; list: unknown[]; exact?: boolean };
type QueryOptions<C extends CallDef> = Omit<UseQueryOptions<CallResponse<C>, Error>, 'queryKey' | 'queryFn'>;

export interface PagedQueryOptions<C extends CallDef, F> extends Partial<PagingDefaults> {
  /** Filters the page fixes (the record a table belongs to): always sent, never in the URL. */
  filters?: Partial<F>;
  /** Extra react-query options (a refetch interval for live progress, enabled). */
  query?: QueryOptions<C>;
  /**
   * Where the list's state lives: the tab's URL (the default; a prefix before its keys for a
   * page's second list), or `false` for a table whose own opening is not in the URL (a
   * drawer's rows): its state would outlive it there.
   */
  url?: false | { prefix: string };
  /** Short keys other pages link to the list with (see `ListParamsSpec.links`). */
  links?: ListParamsSpec['links'];
}

/**
 * Owns offset, limit, sort and filters of one server-paged call and runs the query (the
 * ProTable `request` pattern): pages give it their filters, `<PagedTable paged={…}>` the
 * table's changes. The previous page stays on screen while the next one loads.
 *
 * The state lives in the URL of the page's tab (each tab renders in its own location), so
 * a reload, a pasted link, switching tabs and the browser's back restore the list: every
 * change navigates, and the state is read back from the address.
 */
export function usePagedQuery<C extends CallDef, F extends object = Record<string, never>>(
  def: C,
  options: PagedQueryOptions<C, F> = {},
) {
  const defaults: PagingDefaults = { limit: options.limit ?? 20, order: options.order ?? 'desc', sort: options.sort };
  const fixed = (options.filters ?? {}) as Record<string, unknown>;
  const inUrl = options.url !== false;
  const spec: ListParamsSpec = {
    schema: def.request,
    defaults,
    fixed,
    prefix: options.url ? options.url.prefix : '',
    links: options.links,
  };
  const location = useLocation();
  const navigate = useNavigate();
  const [local, setLocal] = useState<PagedState<F>>(() => initialPaging(defaults, fixed as F));
  const specKey = JSON.stringify([def.path, defaults, fixed, spec.prefix]);
  const fromUrl = useMemo(
    () => (inUrl ? parseListParams<F>(location.search, spec) : null),
    // The spec is rebuilt every render; what it says is in specKey.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [inUrl, location.search, specKey],
  );
  const state = fromUrl ?? local;
  // The address and the state it holds, of one render: two changes in one event (a sort, then
  // the clamp) build on each other, and an effect run later (<Activity> showing the tab again)
  // never writes an older address's state over a newer one.
  const latest = useRef({ state, search: location.search });
  latest.current = { state, search: location.search };
  // The address a change is leaving, until the new one commits. React Router navigates in a
  // transition, so the old rows stay on screen meanwhile (1.7 s on a loaded CI): the table
  // shows it is busy from the click, and a row cannot be ticked on an answer about to go.
  const [leaving, setLeaving] = useState<string | null>(null);
  if (leaving !== null && leaving !== location.search) setLeaving(null);

  const update = (change: (s: PagedState<F>) => PagedState<F>, replace = false) => {
    if (!inUrl) return setLocal(change);
    const next = change(latest.current.state);
    if (next === latest.current.state) return;
    const before = latest.current.search;
    const search = writeListParams(before, next, spec);
    latest.current = { state: next, search };
    // Back goes to the previous list; a correction (the clamp) is not a step of its own.
    if (search === before) return;
    setLeaving(before);
    void navigate({ pathname: location.pathname, search }, { replace });
  };

  const request = toRequest(state) as CallRequest<C>;
  const query = useCall(def, request, { placeholderData: (prev) => prev, ...options.query });
  const data = query.data as (CallResponse<C> & PagedResponse) | undefined;
  const total = data?.total;

  // 查询 and 重置 always ask the server again: with the same filters the query's key is unchanged
  // and its cached page (staleTime) would hide what was created since (issue 28, item 4). The
  // ask waits for the address to carry the new filters, so the query asked is the new one; a
  // disabled query (nothing to find yet) is not asked.
  const requestKey = JSON.stringify(request);
  const asked = useRef<string | null>(null);
  const [askCount, setAskCount] = useState(0);
  useEffect(() => {
    if (asked.current !== requestKey) return;
    asked.current = null;
    if (query.isEnabled && !query.isFetching) void query.refetch();
    // Only a new ask refetches, not every change of the query object.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [askCount, requestKey]);

  // Rows deleted from the last page: step back instead of showing an empty page.
  useEffect(() => {
    if (total !== undefined && !query.isPlaceholderData) {
      update((s) => clampToTotal(s, total), true);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [total, query.isPlaceholderData]);

  // The filters the filter form was last filled from, or searched with (see `useFilterForm`).
  const formFilled = useRef<string | null>(null);
  const filters = { key: filtersKey(state, spec), values: state.filters, filled: formFilled };

  return {
    state,
    request,
    query,
    data,
    /** The query a row selection belongs to (`useRowSelection`): a new one clears it, a page turn does not. */
    selectionScope: selectionScope(state, askCount),
    /** A change is on its way to the address: the rows shown are the last query's. */
    navigating: leaving !== null,
    /** The filters as the URL holds them, for the filter form (`useFilterForm`). */
    filters,
    /** New filters (查询, 重置): back to page 1, sort and page size kept, and always fetched anew. */
    setFilters: (next: F) => {
      const after = applyFilters(latest.current.state, { ...fixed, ...next } as F);
      // The form shows what was searched already: it is not filled again from the address.
      formFilled.current = filtersKey(after, spec);
      asked.current = JSON.stringify(toRequest(after));
      update(() => after);
      // The ask lands with the new address: React Router navigates in a transition, and a count
      // raised outside it changed the selection's scope twice (at the click, then when the
      // address committed, 1.7 s later on a loaded CI), clearing a row ticked in between.
      if (inUrl) startTransition(() => setAskCount((n) => n + 1));
      else setAskCount((n) => n + 1);
    },
    /** antd Table's change (page, size, sort), see PagedTable. */
    onTableChange: (c: TableChange) => update((s) => applyTableChange(s, c, defaults)),
  };
}

export type PagedQuery = Pick<ReturnType<typeof usePagedQuery>, 'state' | 'onTableChange'> & {
  data?: PagedResponse;
  query: { isFetching: boolean };
  navigating?: boolean;
};

/** What `useFilterForm` needs of a paged query. */
export type PagedFilters = ReturnType<typeof usePagedQuery>['filters'];

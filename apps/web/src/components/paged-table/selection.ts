/**
 * The selection rule of every paged table with row selection (docs/decisions/2026-11-27-selection-
 * follows-the-query.md): a selection belongs to one query — its filters and sort — and lasts
 * while the user pages through that query's answer (so a bulk action spans pages, Order List's
 * reason for keeping it). Asking anew (查询, 重置, another filter or sort, back to another list
 * in the address) clears it: rows the new answer no longer holds must not stay selected unseen.
 * Pure, so the rule is unit-tested once.
 */
import type { PagedState } from './paging.ts';

/** JSON with keys in order and undefined dropped: the same filters read from the address or a form agree. */
function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  if (v && typeof v === 'object' && !(v instanceof Date))
    return `{${Object.keys(v)
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stable((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

/**
 * The query a selection belongs to: the filters, the sort, and how many times the user asked
 * (查询 with the same filters is still a new answer). The page (offset, page size) is not part of it.
 */
export function selectionScope(state: PagedState<unknown>, asks: number): string {
  return stable([state.filters, state.sort ?? null, state.order, asks]);
}

/** The rows of a selection after antd's change: the new keys, each with its row from this change or the last. */
export function nextSelection<R>(
  previous: readonly R[],
  keys: readonly unknown[],
  changed: readonly (R | undefined)[],
  keyOf: (r: R) => unknown,
): R[] {
  const known = new Map<unknown, R>();
  for (const r of previous) known.set(keyOf(r), r);
  for (const r of changed) if (r) known.set(keyOf(r), r);
  return keys.flatMap((k) => (known.has(k) ? [known.get(k)!] : []));
}

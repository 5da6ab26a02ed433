/**
 * A paged list's state in its tab's URL (issue 28, item 15; react-admin's `useListParams`):
 * a reload, a bookmark, a shared link and the browser's back restore page, sort and filters.
 * Pure functions, so the rules are unit-tested once:
 *  - keys are the request's own names (`offset`, `limit`, `sort`, `order`, then each filter:
 *    `status=done&dateFrom=2026-11-01`), arrays comma-separated, dates as the ISO days the
 *    calls take; a second list on one page puts a prefix before its keys (`msg.offset`);
 *  - what equals the default is left out, so a clean list has a clean URL;
 *  - a pasted value the call would refuse is dropped (the default stands), never sent: each
 *    filter is checked against the call's own request schema from the contract;
 *  - keys that are not the list's (`id` of a record page) are kept as they are.
 */
import type { z } from 'zod';
import { PAGE_SIZES, type PagedState, type PagingDefaults } from './paging.ts';

export interface ListParamsSpec {
  /** The call's request schema: which keys are filters and what each accepts. */
  schema: z.ZodType;
  defaults: PagingDefaults;
  /** Filters the page fixes (the record a table belongs to): always sent, never in the URL. */
  fixed?: Record<string, unknown>;
  /** Before the list's keys when a page has more than one list ('' for its main list). */
  prefix?: string;
  /**
   * Short keys other pages link with, read as the filters they stand for and replaced by
   * them on the next change (`/order/list?batchNo=B1` is `noType=batchNo&numbers=B1`).
   */
  links?: Record<string, (value: string) => Record<string, unknown>>;
}

const PAGING_KEYS = ['offset', 'limit', 'sort', 'order'] as const;

type Def = { type: string; innerType?: z.ZodType; in?: z.ZodType; out?: z.ZodType; shape?: unknown };
const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

/** The object schema's fields, past wrappers (a refined or piped request is still its object). */
function shapeOf(schema: z.ZodType): Record<string, z.ZodType> | null {
  let s: z.ZodType | undefined = schema;
  for (let i = 0; s && i < 10; i++) {
    const d = defOf(s);
    if (d.type === 'object') return (s as unknown as { shape: Record<string, z.ZodType> }).shape;
    s = d.type === 'pipe' ? d.in : d.innerType;
  }
  return null;
}

const isEmpty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** One filter's value as text: arrays comma-separated, numbers and booleans as written. */
function textOf(v: unknown): string | undefined {
  if (isEmpty(v)) return undefined;
  if (Array.isArray(v)) return v.map(String).join(',');
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

/**
 * The value a text stands for, as the field accepts it: a number (ids: the form's selects
 * hold numbers, though the call also takes digit strings), a boolean, the text itself, a
 * comma-separated list (of texts, of numbers). The first the field accepts wins; none:
 * undefined (the value is dropped). "0042" stays text: as a number it would lose its zeros.
 */
function valueFor(field: z.ZodType, text: string): unknown {
  const candidates: unknown[] = [];
  if (/^-?\d+(\.\d+)?$/.test(text) && String(Number(text)) === text) candidates.push(Number(text));
  if (text === 'true' || text === 'false') candidates.push(text === 'true');
  candidates.push(text);
  const parts = text.split(',').map((p) => p.trim());
  candidates.push(parts);
  if (parts.every((p) => /^-?\d+$/.test(p))) candidates.push(parts.map(Number));
  return candidates.find((c) => field.safeParse(c).success);
}

const keyOf = (prefix: string | undefined, key: string) => (prefix ? `${prefix}.${key}` : key);

/** The list's filter keys: the request's fields but paging's and the fixed ones. */
function filterKeys(spec: ListParamsSpec): string[] | null {
  const shape = shapeOf(spec.schema);
  if (!shape) return null;
  const fixed = spec.fixed ?? {};
  return Object.keys(shape).filter((k) => !(PAGING_KEYS as readonly string[]).includes(k) && !(k in fixed));
}

/** The list's state from its URL; anything missing or refused falls back to the defaults. */
export function parseListParams<F>(search: string | URLSearchParams, spec: ListParamsSpec): PagedState<F> {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const get = (k: string) => params.get(keyOf(spec.prefix, k)) ?? undefined;
  const { defaults } = spec;
  const shape = shapeOf(spec.schema) ?? {};

  const limitText = get('limit');
  const limitValue = limitText === undefined ? NaN : Number(limitText);
  const limit =
    (PAGE_SIZES as readonly number[]).includes(limitValue) || limitValue === defaults.limit
      ? limitValue
      : defaults.limit;
  const offsetValue = Number(get('offset') ?? 0);
  // A page boundary: "offset 45 at 20 a page" is not a page the table can show.
  const offset = Number.isSafeInteger(offsetValue) && offsetValue > 0 ? Math.floor(offsetValue / limit) * limit : 0;
  const orderText = get('order');
  const order = orderText === 'asc' || orderText === 'desc' ? orderText : defaults.order;
  const sortText = get('sort');
  const sort = sortText !== undefined && shape.sort?.safeParse(sortText).success ? sortText : defaults.sort;

  const filters: Record<string, unknown> = {};
  for (const [key, expand] of Object.entries(spec.links ?? {})) {
    const text = get(key)?.trim();
    if (text) Object.assign(filters, expand(text));
  }
  for (const key of filterKeys(spec) ?? []) {
    const text = get(key);
    if (text === undefined || text === '') continue;
    const value = valueFor(shape[key]!, text);
    if (value !== undefined) filters[key] = value;
  }
  return { offset, limit, order, sort, filters: { ...spec.fixed, ...filters } as F };
}

/**
 * The URL query (`?…`, or '' when nothing is left) holding `state`, keeping the keys that
 * are not the list's. Keys come in a fixed order, so one state always reads as one URL.
 */
export function writeListParams<F>(search: string | URLSearchParams, state: PagedState<F>, spec: ListParamsSpec) {
  const params = new URLSearchParams(search);
  const { defaults, prefix } = spec;
  const filters = state.filters as Record<string, unknown>;
  const fixed = spec.fixed ?? {};
  // The request's filters, and any other the page set (a filter that picks another call,
  // whose request has it: Notices' keyword); reading takes only what the request has.
  const own = filterKeys(spec) ?? [];
  const keys = [...own, ...Object.keys(filters).filter((k) => !(k in fixed) && !own.includes(k))];
  for (const k of [...PAGING_KEYS, ...Object.keys(spec.links ?? {}), ...keys]) params.delete(keyOf(prefix, k));

  const put = (k: string, v: string | undefined) => v !== undefined && params.set(keyOf(prefix, k), v);
  put('offset', state.offset > 0 ? String(state.offset) : undefined);
  put('limit', state.limit !== defaults.limit ? String(state.limit) : undefined);
  put('sort', state.sort !== undefined && state.sort !== defaults.sort ? state.sort : undefined);
  put('order', state.order !== defaults.order ? state.order : undefined);
  for (const k of keys) put(k, textOf(filters[k]));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The filters' part of the URL alone: what the filter form was last filled from. */
export function filtersKey<F>(state: PagedState<F>, spec: ListParamsSpec): string {
  const bare: PagedState<F> = { ...state, offset: 0, limit: spec.defaults.limit, order: spec.defaults.order };
  return writeListParams('', { ...bare, sort: spec.defaults.sort }, spec);
}

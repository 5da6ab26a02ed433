import { ApiError } from '@/lib';
import type { StaleRecord } from '@console/contract';

/** One field that differs between the record a form was loaded from and the record now. */
export interface FieldChange {
  path: string;
  before: unknown;
  after: unknown;
}

/** The 409 of a stale save (contract `staleRecord`), or null for any other failure. */
export function staleOf<T>(e: unknown): StaleRecord<T> | null {
  if (!(e instanceof ApiError) || e.key !== 'recordChanged') return null;
  const d = e.data as Partial<StaleRecord<T>> | null;
  return d && typeof d.version === 'number' && d.current && typeof d.current === 'object'
    ? (d as StaleRecord<T>)
    : null;
}

function flatten(value: unknown, prefix: string, into: Map<string, unknown>) {
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, into);
  } else into.set(prefix, value);
}

const blank = (v: unknown) => v === null || v === undefined || v === '';

/**
 * The fields the form shows (`fields`: paths or their prefixes; `items` covers `items.0.name`,
 * `items.*.name` the name of every item)
 * whose value differs between `before` and `after`, nested objects and lists compared leaf by
 * leaf. Empty, null and missing are one value (the forms send empty text as null).
 */
export function changedFields(before: unknown, after: unknown, fields?: readonly string[]): FieldChange[] {
  const a = new Map<string, unknown>();
  const b = new Map<string, unknown>();
  flatten(before, '', a);
  flatten(after, '', b);
  // A list's positions match `*` (`items.*.name`), so a form names the columns it shows once.
  const shown = (p: string) => {
    const any = p.replace(/\.\d+(?=\.|$)/g, '.*');
    return !fields || fields.some((f) => [p, any].some((x) => x === f || x.startsWith(`${f}.`)));
  };
  const paths = [...new Set([...a.keys(), ...b.keys()])].filter(shown);
  return paths
    .filter((p) => !(blank(a.get(p)) && blank(b.get(p))) && String(a.get(p)) !== String(b.get(p)))
    .map((p) => ({ path: p, before: a.get(p) ?? null, after: b.get(p) ?? null }));
}

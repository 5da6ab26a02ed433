import type { z } from 'zod';

/**
 * Walks a request schema as a client sees it (the input side): the fields a body can
 * carry, and a valid body. Used by the contract's own tests (every field obeys the
 * rules of fields.ts) and the server's hostile-request tests, so both stay generated
 * from the contract rather than listed by hand.
 */

export type LeafKind = 'string' | 'number' | 'boolean' | 'enum' | 'unknown' | 'other';
export type Path = (string | number)[];

export interface Leaf {
  /** Where the value sits in a body: object keys and array indexes. */
  path: Path;
  kind: LeafKind;
  /** The schema of the field as its parent holds it (optional, defaults, pre-processing and all). */
  field: z.ZodType;
  /** The innermost schema (the string, the number). */
  leaf: z.ZodType;
  /** The field itself takes arrays (pasted numbers: a text or a list). */
  acceptsArray: boolean;
}

type Def = { type: string } & Record<string, any>;
const defOf = (s: z.ZodType): Def => (s as unknown as z.core.$ZodType)._zod.def as unknown as Def;
/** May the field be left out? (A pre-processed field is judged by its target, not by the step before it.) */
function isOptional(s: z.ZodType): boolean {
  for (;;) {
    const d = defOf(s);
    if (['optional', 'default', 'prefault', 'catch'].includes(d.type)) return true;
    if (['nullable', 'nonoptional', 'readonly'].includes(d.type)) s = d.innerType;
    else if (d.type === 'pipe') s = defOf(d.in).type === 'transform' ? d.out : d.in;
    else return false;
  }
}

/** The schema a value meets first, past wrappers; a pre-processed field is its target. */
function unwrap(s: z.ZodType): z.ZodType {
  for (;;) {
    const d = defOf(s);
    if (['optional', 'nullable', 'default', 'prefault', 'nonoptional', 'readonly', 'catch'].includes(d.type))
      s = d.innerType;
    else if (d.type === 'pipe') s = defOf(d.in).type === 'transform' ? d.out : d.in;
    else if (d.type === 'lazy') s = d.getter();
    else return s;
  }
}

function kindOf(d: Def): LeafKind {
  if (d.type === 'string') return 'string';
  if (d.type === 'number' || d.type === 'int') return 'number';
  if (d.type === 'boolean') return 'boolean';
  if (d.type === 'enum' || d.type === 'literal') return 'enum';
  if (d.type === 'unknown' || d.type === 'any') return 'unknown';
  return 'other';
}

/** Every scalar field of a request schema (array elements at index 0; unions by their first option). */
export function leavesOf(schema: z.ZodType): Leaf[] {
  const out: Leaf[] = [];
  const visit = (field: z.ZodType, path: Path, acceptsArray: boolean) => {
    const inner = unwrap(field);
    const d = defOf(inner);
    if (d.type === 'object') {
      for (const [k, v] of Object.entries(d.shape as Record<string, z.ZodType>)) visit(v, [...path, k], false);
    } else if (d.type === 'array') {
      visit(d.element, [...path, 0], false);
    } else if (d.type === 'union') {
      const options = d.options as z.ZodType[];
      const arrays = options.some((o) => defOf(unwrap(o)).type === 'array');
      visit(options[0]!, path, arrays);
    } else {
      out.push({ path, kind: kindOf(d), field, leaf: inner, acceptsArray });
    }
  };
  visit(schema, [], false);
  return out;
}

/** Picks a value for a field, or undefined for the generator's own choice. */
export type Pick = (path: Path, leaf: Leaf['kind']) => unknown;

// A corporate number (13 digits, check digit first), an email address and a URL (a webhook's) for the fields that check them.
const STRING_CANDIDATES = [
  'a',
  'aaaaaaaa',
  '1',
  '2026-11-01',
  '110000',
  'A1',
  '12345670',
  'JP',
  '7000012050002',
  'a@b.example',
  'https://a.example/hook',
];

/**
 * A valid body: required fields only, each the simplest value its schema accepts; the
 * optional objects on the way to `include` (a leaf's path) are filled in too.
 */
export function sampleOf(
  schema: z.ZodType,
  pick: Pick = () => undefined,
  include: Path = [],
  path: Path = [],
): unknown {
  const inner = unwrap(schema);
  const d = defOf(inner);
  const on = (k: string | number) => include.length > path.length && include[path.length] === k;
  switch (d.type) {
    case 'object': {
      const body: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(d.shape as Record<string, z.ZodType>)) {
        if (!isOptional(v) || (on(k) && include.length > path.length + 1))
          body[k] = sampleOf(v, pick, include, [...path, k]);
      }
      return body;
    }
    case 'array': {
      const min = (d.checks ?? []).map((c: any) => c._zod.def.minimum).find((m: unknown) => typeof m === 'number');
      return Array.from({ length: Math.max(min ?? 0, 1) }, (_, i) => sampleOf(d.element, pick, include, [...path, i]));
    }
    case 'union':
      return sampleOf((d.options as z.ZodType[])[0]!, pick, include, path);
    case 'enum':
      return Object.values(d.entries as Record<string, unknown>)[0];
    case 'literal':
      return (d.values as unknown[])[0];
    case 'boolean':
      return pick(path, 'boolean') ?? false;
    case 'number':
    case 'int':
      return pick(path, 'number') ?? 1;
    case 'string': {
      const chosen = pick(path, 'string');
      if (chosen !== undefined) return chosen;
      return STRING_CANDIDATES.find((c) => inner.safeParse(c).success) ?? 'a';
    }
    case 'null':
      return null;
    default:
      return pick(path, 'unknown') ?? {};
  }
}

/** A copy of `body` with `value` at `path` (objects and arrays created on the way). */
export function withValue(body: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  const copy: any = Array.isArray(body)
    ? [...body]
    : typeof body === 'object' && body !== null
      ? { ...body }
      : typeof head === 'number'
        ? []
        : {};
  copy[head!] = withValue(copy[head!], rest, value);
  return copy;
}

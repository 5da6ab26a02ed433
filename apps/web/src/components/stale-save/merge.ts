/**
 * The three-way merge behind "keep my changes" of the stale-save dialog (issue 36 #20).
 *
 * `base` is the record as the form was loaded from it, `mine` the form's values now, `theirs`
 * the record now (the 409's `current`), all three in the form's shape. A field only one side
 * changed takes that side's value; a field both changed to different values is a conflict and
 * takes mine (the user chose to keep theirs out). Plain objects are merged key by key; a list
 * is one field, compared by value (its rows have no reliable identity by position: a row one
 * user removed and a row the other edited cannot be told apart), as is any other value.
 */
export interface Merge<V> {
  /** The form's values to save: mine where I changed, theirs where only they changed. */
  merged: V;
  /** Fields only I changed: my values stay. */
  mine: string[];
  /** Fields only they changed: their values are taken. */
  theirs: string[];
  /** Fields both changed to different values: my values win. */
  both: string[];
}

const blank = (v: unknown) => v === null || v === undefined || v === '';

const plain = (v: unknown): v is Record<string, unknown> => {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/** Every leaf under `value` by its path (lists by position, `items.0.name`). */
function leaves(value: unknown, prefix: string, into = new Map<string, unknown>()) {
  if (plain(value) || Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) leaves(v, prefix ? `${prefix}.${k}` : k, into);
  } else into.set(prefix, value);
  return into;
}

/** A path matched against the form's fields (`items.*.name` matches every row's name). */
function matcher(fields: readonly string[] | undefined) {
  const starred = (p: string) => p.replace(/\.\d+(?=\.|$)/g, '.*');
  const under = (p: string, f: string) => p === f || p.startsWith(`${f}.`);
  return {
    /** A leaf the form shows. */
    shown: (p: string) => !fields || fields.some((f) => under(p, f) || under(starred(p), f)),
    /** A path the form shows, or holds something the form shows. */
    relevant: (p: string) => !fields || fields.some((f) => under(p, f) || under(starred(p), f) || under(f, starred(p))),
  };
}

/**
 * One value compared with another by value, on the leaves the form shows: empty, null and
 * missing are one value (the forms send empty text as null), and a number equals its text
 * (`1` and `'1'`: an input may hand back either).
 */
function same(a: unknown, b: unknown, path: string, shown: (p: string) => boolean) {
  const x = leaves(a, path);
  const y = leaves(b, path);
  for (const p of new Set([...x.keys(), ...y.keys()])) {
    if (!shown(p)) continue;
    const [u, v] = [x.get(p), y.get(p)];
    if (blank(u) && blank(v)) continue;
    if (blank(u) || blank(v) || String(u) !== String(v)) return false;
  }
  return true;
}

/**
 * Merges `mine` with `theirs` over `base` on the form's `fields` (paths or their prefixes,
 * `items.*.name` for every row's name; all when absent). Outside them `mine` stays as it is
 * (what the form keeps but does not send, the caller sets, as the version).
 */
export function mergeRecords<V>(base: unknown, mine: V, theirs: unknown, fields?: readonly string[]): Merge<V> {
  const { shown, relevant } = matcher(fields);
  const out: Merge<V> = { merged: mine, mine: [], theirs: [], both: [] };
  const walk = (b: unknown, m: unknown, t: unknown, path: string): unknown => {
    if (path && !relevant(path)) return m;
    const sides = [b, m, t];
    if (sides.some(plain) && sides.every((s) => plain(s) || s === null || s === undefined)) {
      const keys = new Set(sides.flatMap((s) => (plain(s) ? Object.keys(s) : [])));
      const merged: Record<string, unknown> = plain(m) ? { ...m } : {};
      for (const k of keys) {
        const get = (s: unknown) => (plain(s) ? s[k] : undefined);
        const v = walk(get(b), get(m), get(t), path ? `${path}.${k}` : k);
        if (v === undefined) delete merged[k];
        else merged[k] = v;
      }
      return merged;
    }
    const mineChanged = !same(b, m, path, shown);
    const theirsChanged = !same(b, t, path, shown);
    if (theirsChanged && !mineChanged) {
      out.theirs.push(path);
      return t;
    }
    if (mineChanged && theirsChanged && !same(m, t, path, shown)) out.both.push(path);
    else if (mineChanged && !theirsChanged) out.mine.push(path);
    return m;
  };
  out.merged = walk(base, mine, theirs, '') as V;
  return out;
}

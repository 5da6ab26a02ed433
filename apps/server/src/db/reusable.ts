import { type Compilable, CompiledQuery, type Kysely } from 'kysely';
import { readOffLoop } from './database.ts';

/**
 * Building and compiling a Kysely query costs 30–100 µs, more than SQLite takes to run an
 * indexed page of 20 rows; on the hottest reads (every call's session lookup, the order list)
 * that was most of the call. A reusable query is built once per *shape* — the choices that
 * change its SQL text — with a placeholder in place of every value, compiled, and from then on
 * only re-bound to the new values.
 *
 * The rule for `build`: it may look at `shape` freely, and at a value only to test whether it is
 * present (`!== undefined`) or how long an array is (both are part of the shape); every value
 * itself goes into the query untouched (no `? 1 : 0`, no date arithmetic — do that before).
 */
export interface Reusable<S, V, R> {
  execute(shape: S, values: V): Promise<R[]>;
}

class Slot {
  readonly key: string;
  readonly index: number;
  constructor(key: string, index: number) {
    this.key = key;
    this.index = index;
  }
}

type Value = unknown;
const signature = (values: Record<string, Value>) =>
  Object.keys(values)
    .sort()
    .map((k) => {
      const v = values[k];
      return v === undefined ? '' : Array.isArray(v) ? `${k}[${v.length}]` : k;
    })
    .join(',');

export function reusable<S, V extends Record<string, Value>, R>(
  db: Kysely<any>,
  build: (shape: S, values: V) => Compilable<R>,
  /** `offLoop`: a read that can take long runs where it holds the event loop least (readOffLoop). */
  opts: { offLoop?: boolean } = {},
): Reusable<S, V, R> {
  const compiled = new Map<string, { query: CompiledQuery<R>; slots: (Slot | { constant: unknown })[] }>();
  return {
    async execute(shape, values) {
      const key = `${JSON.stringify(shape)}|${signature(values)}`;
      let entry = compiled.get(key);
      if (!entry) {
        const slotted: Record<string, Value> = {};
        for (const [k, v] of Object.entries(values)) {
          if (v === undefined) continue;
          slotted[k] = Array.isArray(v) ? v.map((_, i) => new Slot(k, i)) : new Slot(k, -1);
        }
        const query = build(shape, slotted as V).compile();
        const slots = query.parameters.map((p) => (p instanceof Slot ? p : { constant: p }));
        if (compiled.size > 1000) compiled.clear();
        entry = { query, slots };
        compiled.set(key, entry);
      }
      const parameters = entry.slots.map((s) => {
        if (!(s instanceof Slot)) return s.constant;
        const v = values[s.key];
        return s.index < 0 ? v : (v as unknown[])[s.index];
      });
      const query = CompiledQuery.raw(entry.query.sql, parameters) as CompiledQuery<R>;
      if (opts.offLoop) return readOffLoop(db, query);
      return (await db.executeQuery<R>(query)).rows;
    },
  };
}

import type { Kysely } from 'kysely';
import { dataVersionOf } from './database.ts';

/**
 * Values computed from the database, kept with the data version read before they were
 * computed and given out again only while that version is unchanged: any commit by any
 * connection or process retires every entry, so a cached value is never older than the data.
 * Least recently used entries go first; `maxEntries` 0, or PostgreSQL (no cheap data version,
 * see dataVersionOf), computes every time.
 */
export function versionedCache<V>(db: Kysely<any>, maxEntries: number) {
  const dataVersion = dataVersionOf(db);
  const entries = new Map<string, { version: number; value: V }>();
  return async (key: string, compute: () => Promise<V>): Promise<V> => {
    const version = maxEntries > 0 ? dataVersion() : null;
    if (version === null) return compute();
    const hit = entries.get(key);
    if (hit) {
      entries.delete(key);
      if (hit.version === version) {
        entries.set(key, hit);
        return hit.value;
      }
    }
    const value = await compute();
    if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
    entries.set(key, { version, value });
    return value;
  };
}

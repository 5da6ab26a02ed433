import type { Kysely } from 'kysely';
import { dataVersionOf } from './database.ts';

/** What a cache has done since it was made: for benchmarks and tests. */
export interface CacheStats {
  hits: number;
  misses: number;
  /** Entries dropped at once because the data changed under them. */
  retired: number;
  /** Entries held now. */
  size: number;
}

export type VersionedCache<V> = ((key: string, compute: () => Promise<V>) => Promise<V>) & {
  stats(): CacheStats;
};

/**
 * Values computed from the database, kept with the data version read before they were
 * computed and given out again only while that version is unchanged: any commit by any
 * connection or process retires every entry, so a cached value is never older than the data.
 * Least recently used entries go first; `maxEntries` 0, or PostgreSQL (no cheap data version,
 * see dataVersionOf), computes every time.
 *
 * A changed version empties the whole cache at once: none of its entries can be given out
 * again. Left in place until pushed out one at a time, up to `maxEntries` answers nobody could
 * use stayed in memory; under a writer committing 20 times a second (bench:orders) that kept
 * thousands of dead buffers for the collector and made a cached list slower than none.
 */
export function versionedCache<V>(db: Kysely<any>, maxEntries: number): VersionedCache<V> {
  const dataVersion = dataVersionOf(db);
  const entries = new Map<string, V>();
  /** The version every entry was computed under (all share one: see above). */
  let held: number | null = null;
  const stats = { hits: 0, misses: 0, retired: 0 };
  const cache = async (key: string, compute: () => Promise<V>): Promise<V> => {
    const version = maxEntries > 0 ? dataVersion() : null;
    if (version === null) return compute();
    if (version !== held) {
      stats.retired += entries.size;
      entries.clear();
      held = version;
    }
    const hit = entries.get(key);
    if (hit !== undefined) {
      stats.hits++;
      entries.delete(key);
      entries.set(key, hit);
      return hit;
    }
    stats.misses++;
    const value = await compute();
    // Computed under `version`: kept only if no commit came meanwhile (else it may be older).
    if (held === version && value !== undefined) {
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(key, value);
    }
    return value;
  };
  return Object.assign(cache, { stats: () => ({ ...stats, size: entries.size }) });
}

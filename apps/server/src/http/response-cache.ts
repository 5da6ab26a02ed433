import type { CallDef, CallResponse } from '@console/contract';
import type { Database } from '../db/database.ts';
import { type CacheStats, versionedCache } from '../db/versioned-cache.ts';
import { Prepared } from './call-context.ts';

/** Each database's answer caches by call path, for their stats (bench:orders prints them). */
const caches = new WeakMap<Database, Map<string, () => CacheStats>>();

/** What each answer cache on this database has done: hits, misses, entries retired by commits. */
export function responseCacheStats(db: Database): Record<string, CacheStats> {
  return Object.fromEntries([...(caches.get(db) ?? [])].map(([path, stats]) => [path, stats()]));
}

/**
 * Answers of one read call, kept checked and serialised while the data is unchanged
 * (db/versioned-cache.ts). Only for calls whose answer depends on nothing but the key (the
 * caller's scope and request) and the database.
 *
 * Why: the order list is read far more than orders change, and many users reopen the same
 * first pages; building one costs several times a bare HTTP answer (bench:orders).
 */
export function responseCache<C extends CallDef>(db: Database, def: C, maxEntries: number) {
  const cache = versionedCache<Prepared>(db, maxEntries);
  const byPath = caches.get(db) ?? caches.set(db, new Map()).get(db)!;
  byPath.set(def.path, cache.stats);
  return (key: string, compute: () => Promise<CallResponse<C>>): Promise<Prepared> =>
    cache(key, async () => new Prepared(Buffer.from(JSON.stringify(def.response.parse((await compute()) ?? null)))));
}

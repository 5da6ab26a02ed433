/**
 * Lazy page loading with the spec's 120 s chunk timeout: a chunk that does not arrive (or
 * fails, e.g. after a deploy removed it) renders a reload offer instead of a white page.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { ChunkError } from '@/components/ChunkError.tsx';
import { addLog } from '@/lib/log.ts';
import type { PageLoader, PageModule } from './registry.tsx';

export const CHUNK_TIMEOUT_MS = 120_000;

export function withChunkTimeout<T>(load: () => Promise<T>, ms = CHUNK_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`chunk load timeout after ${ms} ms`)), ms);
    load().then(
      (m) => {
        clearTimeout(timer);
        resolve(m);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/** Modules whose chunk has arrived, by the loader that asked for them (see `lazyLoaded`). */
const loaded = new Map<() => Promise<unknown>, unknown>();

/** Loads a chunk ahead of its first render (prefetch) and remembers its module for `lazyLoaded`. */
export function preload<T>(load: () => Promise<T>): Promise<T> {
  return load().then((m) => {
    loaded.set(load, m);
    return m;
  });
}

/** The module `load` gave, if a `preload(load)` has finished. */
export const preloaded = <T,>(load: () => Promise<T>): T | undefined => loaded.get(load) as T | undefined;

/**
 * `lazy(load)`, except that a module already preloaded renders in the same pass: React's lazy
 * always suspends on a fresh promise, even a settled one, which costs a fallback commit and a
 * second render of the frame (after login: the spinner, then the frame, then home). A thenable
 * that calls back at once lets React take the module synchronously.
 */
export function lazyLoaded(
  load: PageLoader,
  slow: PageLoader = () => withChunkTimeout(load),
): LazyExoticComponent<ComponentType> {
  return lazy(() => {
    const m = loaded.get(load) as PageModule | undefined;
    if (!m) return slow();
    return { then: (ok: (v: PageModule) => unknown) => void ok(m) } as unknown as Promise<PageModule>;
  });
}

const cache = new Map<PageLoader, LazyExoticComponent<ComponentType>>();

export function lazyPage(loader: PageLoader): LazyExoticComponent<ComponentType> {
  let c = cache.get(loader);
  if (!c) {
    c = lazyLoaded(loader, () =>
      withChunkTimeout(loader).catch((e: Error) => {
        addLog('error', `chunk: ${e.message}`);
        cache.delete(loader);
        return { default: () => <ChunkError error={e} /> };
      }),
    );
    cache.set(loader, c);
  }
  return c;
}

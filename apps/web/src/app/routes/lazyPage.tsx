/**
 * Lazy page loading with the spec's 120 s chunk timeout: a chunk that does not arrive (or
 * fails, e.g. after a deploy removed it) renders a reload offer instead of a white page.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { ChunkError } from '@/components/ChunkError.tsx';
import { addLog } from '@/lib/log.ts';
import type { PageLoader } from './registry.tsx';

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

const cache = new Map<PageLoader, LazyExoticComponent<ComponentType>>();

export function lazyPage(loader: PageLoader): LazyExoticComponent<ComponentType> {
  let c = cache.get(loader);
  if (!c) {
    c = lazy(() =>
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

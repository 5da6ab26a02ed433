/**
 * Chunks fetched before they are needed, so that after "log in" the frame and the first page
 * are already in the browser instead of loading one after the other (login → me → shell →
 * home → its calls took 1.0–1.35 s). `import()` of a module already requested shares the one
 * request, so a prefetch never loads anything twice. Failures are left to the real load, which
 * shows its reload offer.
 */
import { routeCatalogue } from '@console/contract';
import { pages, type PageLoader } from './routes/registry.tsx';

export const loadShell = () => import('./layout/ShellRoot.tsx');

const quietly = (load: () => Promise<unknown>) => void load().catch(() => undefined);

/** Runs `work` when the browser is idle (soon, at the latest), not competing with a paint. */
export function whenIdle(work: () => void, timeout = 2000) {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(work, { timeout });
  else setTimeout(work, 200);
}

const loaderForPath = (path: string): PageLoader | undefined => {
  const route = routeCatalogue.find((r) => r.path === path);
  return route && pages[route.name];
};

/** The frame and the page at `path` (home by default): on the login page while the user types, and in the guard. */
export function prefetchShell(path = '/index') {
  quietly(loadShell);
  const page = loaderForPath(path) ?? pages.index;
  if (page) quietly(page);
}

/** The chunks of the menu's first pages, for when the user opens them. */
export function prefetchPages(loaders: readonly PageLoader[]) {
  for (const load of loaders) quietly(load);
}

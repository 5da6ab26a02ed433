/**
 * Chunks fetched before they are needed, so that after "log in" the frame and the first page
 * are already in the browser instead of loading one after the other (login → me → shell →
 * home → its calls took 1.0–1.35 s). `import()` of a module already requested shares the one
 * request, so a prefetch never loads anything twice. Failures are left to the real load, which
 * shows its reload offer.
 */
import { routeCatalogue, type RouteName } from '@console/contract';
import { getSession, mustChangePasswordFirst } from '@/lib/session.ts';
import { preload, preloaded } from './routes/lazyPage.tsx';
import { pages, type PageLoader } from './routes/registry.tsx';

export const loadShell = () => import('./layout/ShellRoot.tsx');

const quietly = (load: () => Promise<unknown>) => void preload(load).catch(() => undefined);

/** Runs `work` when the browser is idle (soon, at the latest), not competing with a paint. */
export function whenIdle(work: () => void, timeout = 2000) {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(work, { timeout });
  else setTimeout(work, 200);
}

/**
 * A landing page's calls, started with `me` instead of after the frame and the page have
 * rendered. The module (`prefetch()`, no components) is itself preloaded on the login page,
 * so that the calls leave at once rather than after a chunk request and the frame's render.
 */
const pageCalls: Partial<Record<RouteName, () => Promise<{ prefetch: () => void }>>> = {
  index: () => import('@/features/home/api/prefetch.ts'),
};

const routeOf = (path: string | undefined) =>
  routeCatalogue.find((r) => r.path === (path && path !== '/' ? path : '/index'));

const loaderForPath = (path: string): PageLoader | undefined => {
  const route = routeOf(path);
  return route && pages[route.name];
};

const callsForPath = (path: string | undefined) => {
  const route = routeOf(path);
  return route && pageCalls[route.name];
};

/** The frame and the page at `path` (home by default): on the login page while the user types, and in the guard. */
export function prefetchShell(path = '/index') {
  quietly(loadShell);
  const page = loaderForPath(path) ?? pages.index;
  if (page) quietly(page);
  const calls = callsForPath(path);
  if (calls) quietly(calls);
}

/** The chunks of the menu's first pages, for when the user opens them. */
export function prefetchPages(loaders: readonly PageLoader[]) {
  for (const load of loaders) quietly(load);
}

/**
 * The first screen's calls, in parallel with `me`: the page's at once (the token is all they
 * need), the header badges' once `me` says which the user may see.
 */
export function prefetchCalls(path: string | undefined, me: Promise<unknown>) {
  // Refused until the password is changed: the page loads its calls once it is.
  if (mustChangePasswordFirst()) return;
  const calls = callsForPath(path);
  const ready = calls && preloaded(calls);
  if (ready) ready.prefetch();
  else if (calls)
    void calls().then(
      (m) => m.prefetch(),
      () => undefined,
    );
  void Promise.all([import('./layout/badgeCalls.ts'), me]).then(
    ([{ prefetchBadges }]) => {
      if (!getSession().user?.mustChangePassword) prefetchBadges(getSession().routeNames);
    },
    () => undefined,
  );
}

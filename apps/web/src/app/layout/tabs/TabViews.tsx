/**
 * Tab contents. Each open tab renders in React's <Activity>: hidden tabs keep their state
 * (forms, scroll, filters) but their effects are paused. A bounded cache (KEEP_ALIVE_MAX,
 * least recently used out) keeps memory flat; `refresh` bumps a key to remount one tab.
 * Each tab renders inside <Routes location={its path}> so its router hooks see its own URL.
 */
import type { AccessedRoute } from '@console/contract';
import { Spin } from 'antd';
import { Activity, Suspense, useMemo } from 'react';
import { Route, Routes } from 'react-router';
import ComingSoon from '@/components/ComingSoon.tsx';
import { ErrorBoundary } from '@/components/ErrorBoundary.tsx';
import { NoticesGate } from '@/components/NoticesGate.tsx';
import { TabContext } from '@/components/tab-context.ts';
import { lazyPage } from '../../routes/lazyPage.tsx';
import { noticeGatedRoutes, pages, recordPages } from '../../routes/registry.tsx';
import { NeedsRecord } from './NeedsRecord.tsx';
import { KEEP_ALIVE_MAX, setTabDirty, setTabLabel, tabKey, useTabs } from './store.ts';

const pathOf = (p: string) => p.split('?')[0];

function PageHost({ route, path }: { route: AccessedRoute; path: string }) {
  const list = recordPages[route.name as keyof typeof recordPages];
  if (list && !new URLSearchParams(path.split('?')[1] ?? '').get('id')) return <NeedsRecord list={list} />;
  const loader = pages[route.name as keyof typeof pages];
  const Page = loader ? lazyPage(loader) : ComingSoon;
  const page = <Page />;
  return noticeGatedRoutes.has(route.name) ? <NoticesGate>{page}</NoticesGate> : page;
}

/** `active` is null while the frame shows a 403/404 instead: every tab stays mounted but hidden. */
export function TabViews({ active, byPath }: { active: string | null; byPath: Map<string, AccessedRoute> }) {
  const { paths, recent, refreshKeys, dirty } = useTabs();
  const mounted = useMemo(() => {
    // Tabs with unsaved edits stay mounted beyond the cache: unmounting would drop the edits.
    const keep = new Set([...recent.slice(0, KEEP_ALIVE_MAX), ...Object.keys(dirty)]);
    if (active) keep.add(active);
    const shown = paths.filter((p) => keep.has(p));
    // The address moved on and the store has not followed yet: the tab is still there.
    return active && !shown.some((p) => tabKey(p) === tabKey(active)) ? [...shown, active] : shown;
  }, [paths, recent, active, dirty]);

  return mounted.map((stored) => {
    // The shown tab is at the address as soon as it changes: a list writing its page into
    // its URL, or back, re-renders that tab in place, before the store has followed the
    // address (the one render in between showed the tab hidden).
    const isActive = active !== null && tabKey(stored) === tabKey(active);
    const path = isActive ? active : stored;
    const route = byPath.get(pathOf(path));
    if (!route) return null;
    return (
      // Keyed by identity, not address: a list reopened with another query keeps its page.
      <Activity key={tabKey(path)} mode={isActive ? 'visible' : 'hidden'}>
        <TabContext value={{ path, name: route.name, active: isActive, setTabLabel, setTabDirty }}>
          <div className="tab-view" data-tab-view={path}>
            <Routes location={path}>
              <Route
                path="*"
                element={
                  <ErrorBoundary key={refreshKeys[stored] ?? 0}>
                    <Suspense fallback={<Spin className="page-spin" />}>
                      <PageHost key={refreshKeys[stored] ?? 0} route={route} path={path} />
                    </Suspense>
                  </ErrorBoundary>
                }
              />
            </Routes>
          </div>
        </TabContext>
      </Activity>
    );
  });
}

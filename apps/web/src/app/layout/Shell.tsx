/**
 * The frame every module page lives in (spec §2 layout): header, aside, tab bar and the
 * kept-alive tab views. Loaded lazily after login so the login route stays small.
 */
import { Layout } from 'antd';
import { useEffect, useMemo } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { routeCatalogue } from '@console/contract';
import { useI18n } from '@/lib/i18n.ts';
import { useSession } from '@/lib/session.ts';
import { useAppearance } from '../theme/appearance.ts';
import { AsideMenu } from './AsideMenu.tsx';
import { Header } from './Header.tsx';
import { buildMenu, flattenMenu, routeIndex } from './menu.ts';
import { prefetchPages, whenIdle } from '../prefetch.ts';
import { afterFirstScreen } from './afterFirstScreen.ts';
import { keepScrollRegionsFocusable } from './focusable-scroll.ts';
import { pages, type PageLoader } from '../routes/registry.tsx';
import { TabBar } from './tabs/TabBar.tsx';
import { Unavailable } from './Unavailable.tsx';
import { TabViews } from './tabs/TabViews.tsx';
import { HOME_PATH, OPEN_TABS_MAX, getTabs, openTab, refreshTab, retainTabs } from './tabs/store.ts';
import { pageTitle, tabTitle } from './tabs/titles.ts';
import { feedback } from '@/lib/feedback.ts';
import { useNoticesRecheck } from '@/components/NoticesGate.tsx';

/** `/refresh` (hidden): remounts the current tab, then returns to it. */
function RefreshRoute() {
  const navigate = useNavigate();
  const location = useLocation();
  useEffect(() => {
    const target = new URLSearchParams(location.search).get('path') ?? getTabs().recent[0] ?? HOME_PATH;
    refreshTab(target);
    void navigate(target, { replace: true });
  }, [location.search, navigate]);
  return null;
}

const pathOf = (fullPath: string) => fullPath.split('?')[0];

/** How many of the menu's first pages have their chunks fetched when the browser is idle. */
const PREFETCHED_PAGES = 6;

/** Paths of every page the console has, whoever may open it: not holding one is a 403, not a 404. */
const knownPaths = new Set<string>(routeCatalogue.map((r) => r.path).filter(Boolean));

export default function Shell() {
  const location = useLocation();
  const { routes } = useSession();
  const { t, localized } = useI18n();
  const appearance = useAppearance();
  const byPath = useMemo(() => routeIndex(routes), [routes]);
  const menu = useMemo(() => buildMenu(routes), [routes]);
  const fullPath = location.pathname + location.search;
  const route = byPath.get(location.pathname);

  useEffect(() => {
    retainTabs((p) => byPath.has(pathOf(p)));
  }, [byPath]);

  // The pages a user opens first are near the top of the menu: have them ready.
  useEffect(() => {
    const loaders = flattenMenu(menu)
      .map((r) => pages[r.name as keyof typeof pages])
      .filter((x): x is PageLoader => Boolean(x))
      .slice(0, PREFETCHED_PAGES);
    // Not before the first screen has its data: evaluating six pages' chunks competed with
    // home's render, and their bytes with home's calls.
    return afterFirstScreen(() => whenIdle(() => prefetchPages(loaders), 5000));
  }, [menu]);

  useEffect(() => {
    if (!route) return;
    const { labels } = getTabs();
    const closed = openTab(fullPath);
    // The limit closed a tab to make room: say which, so it is not lost without a word.
    if (closed) {
      const title = tabTitle(closed, byPath, labels, localized);
      void feedback().then((f) => f.message.info(t('frame.tabs.autoClosed', { max: OPEN_TABS_MAX, title })));
    }
    // Only a new address opens a tab; a change of language must not.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [route, fullPath]);

  useEffect(() => {
    if (route) document.title = `${t('frame.titlePrefix')} - ${pageTitle(route, localized)}`;
  }, [route, t, localized]);

  useEffect(() => keepScrollRegionsFocusable(), []);

  useNoticesRecheck();

  if (location.pathname === '/' || location.pathname === '') return <Navigate to={HOME_PATH} replace />;
  if (location.pathname === '/refresh') return <RefreshRoute />;
  if (location.pathname.startsWith('/redirect/')) {
    return <Navigate to={location.pathname.slice('/redirect'.length) + location.search} replace />;
  }
  return (
    <Layout className="frame">
      <Header menu={menu} activeName={route?.name ?? ''} />
      <Layout className="frame-main">
        <AsideMenu menu={menu} activeName={route?.name ?? ''} collapsed={appearance.asideCollapse} />
        <Layout.Content className="frame-content">
          <TabBar active={fullPath} byPath={byPath} />
          <div className="frame-views">
            {!route && <Unavailable kind={knownPaths.has(location.pathname) ? 403 : 404} />}
            <TabViews active={route ? fullPath : null} byPath={byPath} />
          </div>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}

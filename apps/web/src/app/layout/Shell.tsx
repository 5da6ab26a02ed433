/**
 * The frame every module page lives in (spec §2 layout): header, aside, tab bar and the
 * kept-alive tab views. Loaded lazily after login so the login route stays small.
 */
import { Layout } from 'antd';
import { useEffect, useMemo } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { NotFound } from '@/components/NotFound.tsx';
import { useI18n } from '@/lib/i18n.ts';
import { useSession } from '@/lib/session.ts';
import { useAppearance } from '../theme/appearance.ts';
import { AsideMenu } from './AsideMenu.tsx';
import { Header } from './Header.tsx';
import { buildMenu, routeIndex } from './menu.ts';
import { TabBar } from './tabs/TabBar.tsx';
import { TabViews } from './tabs/TabViews.tsx';
import { HOME_PATH, getTabs, openTab, refreshTab, retainTabs } from './tabs/store.ts';
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

  useEffect(() => {
    if (route) openTab(fullPath);
  }, [route, fullPath]);

  useEffect(() => {
    if (route) document.title = `${t('frame.titlePrefix')} - ${localized(route.title)}`;
  }, [route, t, localized]);

  useNoticesRecheck();

  if (location.pathname === '/' || location.pathname === '') return <Navigate to={HOME_PATH} replace />;
  if (location.pathname === '/refresh') return <RefreshRoute />;
  if (location.pathname.startsWith('/redirect/')) {
    return <Navigate to={location.pathname.slice('/redirect'.length) + location.search} replace />;
  }
  if (!route) return <NotFound />;

  return (
    <Layout className="frame">
      <Header menu={menu} activeName={route.name} />
      <Layout className="frame-main">
        <AsideMenu menu={menu} activeName={route.name} collapsed={appearance.asideCollapse} />
        <Layout.Content className="frame-content">
          <TabBar active={fullPath} byPath={byPath} />
          <div className="frame-views">
            <TabViews active={fullPath} byPath={byPath} />
          </div>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}

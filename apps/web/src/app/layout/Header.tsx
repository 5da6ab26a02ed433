import {
  BgColorsOutlined,
  BugOutlined,
  CompassOutlined,
  DownOutlined,
  FullscreenExitOutlined,
  FullscreenOutlined,
  KeyOutlined,
  LogoutOutlined,
  SearchOutlined,
  TranslationOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { App, Button, Dropdown, Layout, Tooltip } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { switchableLocales, useI18n, type Locale } from '@/lib/i18n.ts';
import { logout, useSession } from '@/lib/session.ts';
import { TRACKING_URL } from '../config.ts';
import { forgetAppearanceUser } from '../theme/appearance.ts';
import { OrderBadges } from './Badges.tsx';
import { HeaderMenu } from './HeaderMenu.tsx';
import type { MenuNode } from './menu.ts';
import { SearchPanel } from './SearchPanel.tsx';
import { resetTabs } from './tabs/store.ts';
import { useDirtyTabCount } from './tabs/leave-warning.ts';

const SettingsDrawer = lazy(() => import('./SettingsDrawer.tsx'));
const ChangePassword = lazy(() => import('./ChangePassword.tsx'));

export const localeLabels: Record<Locale, string> = {
  'zh-chs': '简体中文',
  en: 'English',
  ja: '日本語',
  'zh-cht': '繁體中文',
};

function useFullscreen() {
  const [on, setOn] = useState(Boolean(document.fullscreenElement));
  useEffect(() => {
    const f = () => setOn(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', f);
    return () => document.removeEventListener('fullscreenchange', f);
  }, []);
  const toggle = () =>
    void (document.fullscreenElement ? document.exitFullscreen() : document.documentElement.requestFullscreen()).catch(
      () => undefined,
    );
  return [on, toggle] as const;
}

export function Header({ menu, activeName }: { menu: MenuNode[]; activeName: string }) {
  const { t, locale, setLocale } = useI18n();
  const { user } = useSession();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const [fullscreen, toggleFullscreen] = useFullscreen();
  const [searchOpen, setSearchOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [passwordOpen, setPasswordOpen] = useState(false);
  const unsaved = useDirtyTabCount();

  const confirmLogout = () =>
    modal.confirm({
      title: t('frame.header.logoutConfirmTitle'),
      // Logging out drops every tab's unsaved edits: say so, as closing those tabs would (issue 36 #19).
      content: unsaved
        ? `${t('frame.header.logoutConfirmContent')} ${t('frame.header.logoutUnsaved', { n: unsaved })}`
        : t('frame.header.logoutConfirmContent'),
      okText: t('common.confirm'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        await logout();
        resetTabs();
        forgetAppearanceUser();
        void navigate('/login', { replace: true });
      },
    });

  return (
    <Layout.Header className="frame-header">
      <Link
        to="/index"
        className="frame-logo"
        // The visible name first (WCAG 2.5.3: a speech user says what they see), then where it goes.
        aria-label={`${t('frame.titlePrefix')} ${t('frame.header.home')}`}
      >
        <img src={`${import.meta.env.BASE_URL}logo.svg`} alt="" width={28} height={28} />
        <span className="frame-logo__text">{t('frame.titlePrefix')}</span>
      </Link>
      <HeaderMenu menu={menu} activeName={activeName} />
      <div className="frame-actions">
        <Tooltip title={t('frame.header.trajectory')}>
          <Button
            type="text"
            className="header-action"
            icon={<CompassOutlined />}
            aria-label={t('frame.header.trajectory')}
            data-testid="trajectory"
            onClick={() => window.open(TRACKING_URL, '_blank', 'noopener,noreferrer,width=1200,height=800')}
          />
        </Tooltip>
        <OrderBadges />
        <Tooltip title={t('frame.header.search')}>
          <Button
            type="text"
            className="header-action"
            icon={<SearchOutlined />}
            aria-label={t('frame.search.open')}
            data-testid="search-open"
            onClick={() => setSearchOpen(true)}
          />
        </Tooltip>
        <Tooltip title={fullscreen ? t('frame.header.exitFullscreen') : t('frame.header.fullscreen')}>
          <Button
            type="text"
            className="header-action"
            icon={fullscreen ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
            aria-label={t('frame.header.fullscreen')}
            onClick={toggleFullscreen}
          />
        </Tooltip>
        <Dropdown
          trigger={['click']}
          menu={{
            selectable: true,
            selectedKeys: [locale],
            items: switchableLocales.map((l) => ({ key: l, label: localeLabels[l] })),
            onClick: (e) => setLocale(e.key as Locale),
          }}
        >
          <Button type="text" className="header-action" icon={<TranslationOutlined />} data-testid="language-switch">
            {localeLabels[locale]}
          </Button>
        </Dropdown>
        <Dropdown
          trigger={['click']}
          menu={{
            items: [
              { key: 'password', icon: <KeyOutlined />, label: t('frame.header.changePassword') },
              { key: 'appearance', icon: <BgColorsOutlined />, label: t('frame.header.appearance') },
              { key: 'log', icon: <BugOutlined />, label: t('frame.header.log') },
              { type: 'divider' },
              { key: 'logout', icon: <LogoutOutlined />, label: t('frame.header.logout'), danger: true },
            ],
            onClick: (e) => {
              if (e.key === 'password') setPasswordOpen(true);
              else if (e.key === 'appearance') setSettingsOpen(true);
              else if (e.key === 'log') void navigate('/log');
              else if (e.key === 'logout') confirmLogout();
            },
          }}
        >
          <Button type="text" className="header-action header-user" data-testid="user-menu">
            <UserOutlined />
            <span className="header-user__greeting">
              {user
                ? t('frame.header.greeting', { name: user.displayName || user.name })
                : t('frame.header.notLoggedIn')}
            </span>
            <DownOutlined />
          </Button>
        </Dropdown>
      </div>
      <SearchPanel open={searchOpen} onOpenChange={setSearchOpen} />
      <Suspense>
        {settingsOpen && <SettingsDrawer open={settingsOpen} onClose={() => setSettingsOpen(false)} />}
        {passwordOpen && <ChangePassword open={passwordOpen} onClose={() => setPasswordOpen(false)} />}
      </Suspense>
    </Layout.Header>
  );
}

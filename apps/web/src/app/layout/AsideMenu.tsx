import { Layout, Menu, Tooltip, type MenuProps } from 'antd';
import { useMemo, useState } from 'react';
import { useI18n } from '@/lib/i18n.ts';
import { setAppearance } from '../theme/appearance.ts';
import { RouteIcon } from './icons.tsx';
import type { MenuNode } from './menu.ts';
import { useOpenRoute } from './useMenuClick.ts';

type Item = Required<MenuProps>['items'][number];

/**
 * A menu label that shows its whole text in a tooltip when the aside cuts it off (long
 * English titles such as "Create Importer Order Alone" do not fit 208 px).
 */
function MenuLabel({ text }: { text: string }) {
  const [cut, setCut] = useState(false);
  return (
    <Tooltip title={cut ? text : undefined} placement="right">
      <span
        className="menu-label"
        onMouseEnter={(e) => setCut(e.currentTarget.scrollWidth > e.currentTarget.clientWidth)}
      >
        {text}
      </span>
    </Tooltip>
  );
}

export function toMenuItems(
  nodes: readonly MenuNode[],
  localized: (x: { zh: string; en: string }) => string,
  withIcons = true,
  tooltips = false,
): Item[] {
  return nodes.map((n) => {
    const text = localized(n.route.title);
    const label = tooltips ? <MenuLabel text={text} /> : text;
    const icon = withIcons ? <RouteIcon name={n.route.icon} route={n.route.name} /> : undefined;
    return n.children.length
      ? { key: n.route.name, label, icon, children: toMenuItems(n.children, localized, false, tooltips) }
      : { key: n.route.name, label, icon };
  });
}

const ASIDE_WIDTH = 208;
const ASIDE_WIDTH_EN = 272;

const rootOf = (menu: readonly MenuNode[], name: string): MenuNode | undefined =>
  menu.find((n) => n.route.name === name || n.children.some((c) => c.route.name === name));

/**
 * D2Admin's aside: the children of the header section being used, or the whole menu when
 * that section has none (home). Collapsing keeps only the icons.
 */
export function AsideMenu({
  menu,
  activeName,
  collapsed,
}: {
  menu: MenuNode[];
  activeName: string;
  collapsed: boolean;
}) {
  const { localized, locale } = useI18n();
  const open = useOpenRoute({ lastParams: true });
  const root = rootOf(menu, activeName);
  const nodes = root && root.children.length ? root.children : menu;
  // Collapsed, antd shows each title in its own tooltip already.
  const items = useMemo(() => toMenuItems(nodes, localized, true, !collapsed), [nodes, localized, collapsed]);
  return (
    <Layout.Sider
      className="frame-aside"
      collapsible
      collapsed={collapsed}
      onCollapse={(c) => setAppearance({ asideCollapse: c })}
      // English titles are longer ("Create Importer Order Alone" was cut twice at 208 px).
      width={locale === 'en' ? ASIDE_WIDTH_EN : ASIDE_WIDTH}
      collapsedWidth={56}
      theme="light"
      data-testid="aside"
    >
      {root && root.children.length > 0 && !collapsed && (
        <div className="frame-aside__title">{localized(root.route.title)}</div>
      )}
      <Menu
        mode="inline"
        items={items}
        selectedKeys={[activeName]}
        defaultOpenKeys={root ? [root.route.name] : []}
        onClick={(e) => open(e.key)}
      />
    </Layout.Sider>
  );
}

import { Layout, Menu, type MenuProps } from 'antd';
import { useMemo } from 'react';
import { useI18n } from '@/lib/i18n.ts';
import { setAppearance } from '../theme/appearance.ts';
import { RouteIcon } from './icons.tsx';
import type { MenuNode } from './menu.ts';
import { useOpenRoute } from './useMenuClick.ts';

type Item = Required<MenuProps>['items'][number];

export function toMenuItems(
  nodes: readonly MenuNode[],
  localized: (x: { zh: string; en: string }) => string,
  withIcons = true,
): Item[] {
  return nodes.map((n) =>
    n.children.length
      ? {
          key: n.route.name,
          label: localized(n.route.title),
          icon: withIcons ? <RouteIcon name={n.route.icon} /> : undefined,
          children: toMenuItems(n.children, localized, false),
        }
      : {
          key: n.route.name,
          label: localized(n.route.title),
          icon: withIcons ? <RouteIcon name={n.route.icon} /> : undefined,
        },
  );
}

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
  const { localized } = useI18n();
  const open = useOpenRoute();
  const root = rootOf(menu, activeName);
  const nodes = root && root.children.length ? root.children : menu;
  const items = useMemo(() => toMenuItems(nodes, localized), [nodes, localized]);
  return (
    <Layout.Sider
      className="frame-aside"
      collapsible
      collapsed={collapsed}
      onCollapse={(c) => setAppearance({ asideCollapse: c })}
      width={208}
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

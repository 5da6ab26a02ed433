import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { Button, Menu } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useI18n } from '@/lib/i18n.ts';
import { toMenuItems } from './AsideMenu.tsx';
import type { MenuNode } from './menu.ts';
import { useOpenRoute } from './useMenuClick.ts';

/** Spec §9: the header menu's overflow is re-checked at most every 300 ms. */
export const MENU_SCROLL_THROTTLE_MS = 300;

export function throttle<A extends unknown[]>(fn: (...a: A) => void, ms: number) {
  let last = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  return (...a: A) => {
    const wait = last + ms - Date.now();
    clearTimeout(timer);
    if (wait <= 0) {
      last = Date.now();
      fn(...a);
    } else {
      timer = setTimeout(() => {
        last = Date.now();
        fn(...a);
      }, wait);
    }
  };
}

/** The server's menu, horizontal; when wider than the header it scrolls with two buttons (D2Admin). */
export function HeaderMenu({ menu, activeName }: { menu: MenuNode[]; activeName: string }) {
  const { t, localized } = useI18n();
  const open = useOpenRoute({ lastParams: true });
  const viewport = useRef<HTMLDivElement>(null);
  const [overflow, setOverflow] = useState(false);
  const items = useMemo(() => toMenuItems(menu, localized), [menu, localized]);
  const selected = menu.find((n) => n.route.name === activeName || n.children.some((c) => c.route.name === activeName));

  useEffect(() => {
    const el = viewport.current;
    if (!el) return;
    const check = throttle(() => setOverflow(el.scrollWidth > el.clientWidth + 1), MENU_SCROLL_THROTTLE_MS);
    // No first check here: it would force a layout of the whole new frame inside the commit.
    // A ResizeObserver reports every element it starts observing once, after the next layout.
    const ro = new ResizeObserver(check);
    ro.observe(el);
    if (el.firstElementChild) ro.observe(el.firstElementChild);
    window.addEventListener('resize', check);
    return () => {
      ro.disconnect();
      window.removeEventListener('resize', check);
    };
  }, [items]);

  const scroll = (dir: 1 | -1) => viewport.current?.scrollBy({ left: dir * 240, behavior: 'smooth' });

  return (
    <div className={`header-menu${overflow ? ' header-menu--overflow' : ''}`} data-testid="header-menu">
      {overflow && (
        <Button
          type="text"
          size="small"
          icon={<LeftOutlined />}
          aria-label={t('frame.header.scrollLeft')}
          onClick={() => scroll(-1)}
        />
      )}
      <div className="header-menu__viewport" ref={viewport}>
        <Menu
          mode="horizontal"
          disabledOverflow
          items={items}
          selectedKeys={selected ? [selected.route.name, activeName] : [activeName]}
          onClick={(e) => open(e.key)}
        />
      </div>
      {overflow && (
        <Button
          type="text"
          size="small"
          icon={<RightOutlined />}
          aria-label={t('frame.header.scrollRight')}
          onClick={() => scroll(1)}
        />
      )}
    </div>
  );
}

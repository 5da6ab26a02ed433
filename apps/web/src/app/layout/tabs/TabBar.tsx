/**
 * Multi-tab bar (spec §2): closable tabs (home is not), drag to reorder, right-click menu
 * (refresh, close left/right/others/all; home: close all only), and a dropdown with the
 * close actions for the active tab. The active tab is always scrolled into sight: with
 * many tabs it would otherwise sit far off the right end of the bar.
 */
import type { AccessedRoute } from '@console/contract';
import { CloseOutlined, DownOutlined } from '@ant-design/icons';
import { App, Button, Dropdown, type MenuProps } from 'antd';
import { useLayoutEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useI18n } from '@/lib/i18n.ts';
import { HOME_PATH, closeTabs, dirtyClosedBy, moveTab, refreshTab, useTabs, type CloseAction } from './store.ts';
import { useTabTitle } from './titles.ts';
import { useKeepDraftsOnSessionEnd, useLeaveWarning } from './leave-warning.ts';

type Action = 'refresh' | CloseAction;

/** Scrolls the bar (only the bar, never the page) so that `el` is wholly visible. */
function revealInBar(list: HTMLElement, el: HTMLElement) {
  const bar = list.getBoundingClientRect();
  const tab = el.getBoundingClientRect();
  const margin = 16;
  if (tab.left < bar.left) list.scrollLeft -= bar.left - tab.left + margin;
  else if (tab.right > bar.right) list.scrollLeft += tab.right - bar.right + margin;
}

export function TabBar({ active, byPath }: { active: string; byPath: Map<string, AccessedRoute> }) {
  const { t } = useI18n();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const { paths, labels, dirty } = useTabs();
  const titleOf = useTabTitle(byPath);
  useLeaveWarning();
  useKeepDraftsOnSessionEnd();
  const [dragging, setDragging] = useState<string | null>(null);
  const [over, setOver] = useState<string | null>(null);
  const listRef = useRef<HTMLDivElement>(null);

  // On every change of the active tab or of the tabs (a new one is added at the end).
  useLayoutEffect(() => {
    // Measured in the next frame, just before the browser lays it out anyway: measuring here,
    // in the commit, forced a whole extra layout of the new page (75 ms at 4× slowdown after
    // login) that the page's own effects then invalidated again. Still before that frame's paint.
    const frame = requestAnimationFrame(() => {
      const list = listRef.current;
      const el =
        list && [...list.querySelectorAll<HTMLElement>('[data-testid="tab"]')].find((x) => x.dataset.path === active);
      if (list && el) revealInBar(list, el);
    });
    return () => cancelAnimationFrame(frame);
  }, [active, paths, labels]);

  const act = (action: Action, path: string) => {
    if (action === 'refresh') {
      refreshTab(path);
      if (path !== active) void navigate(path);
      return;
    }
    const close = () => {
      const next = closeTabs(action, active, path);
      if (next) void navigate(next);
    };
    // Edits not saved are lost with their tab: say which, and close only when the user agrees.
    const unsaved = dirtyClosedBy(action, path);
    if (!unsaved.length) return close();
    modal.confirm({
      title: t('frame.tabs.discardTitle'),
      content: t('frame.tabs.discardBody', { titles: unsaved.map((p) => `“${titleOf(p)}”`).join('、') }),
      okText: t('frame.tabs.discardOk'),
      okButtonProps: { danger: true },
      cancelText: t('frame.tabs.keep'),
      onOk: close,
    });
  };

  const menuFor = (path: string): MenuProps['items'] => {
    const idx = paths.indexOf(path);
    if (path === HOME_PATH) return [{ key: 'closeAll', label: t('frame.tabs.closeAll') }];
    return [
      { key: 'refresh', label: t('frame.tabs.refresh') },
      { key: 'closeLeft', label: t('frame.tabs.closeLeft'), disabled: idx <= 1 },
      { key: 'closeRight', label: t('frame.tabs.closeRight'), disabled: idx === paths.length - 1 },
      { key: 'closeOthers', label: t('frame.tabs.closeOthers'), disabled: paths.length <= 2 },
      { key: 'closeAll', label: t('frame.tabs.closeAll') },
    ];
  };

  const close = (path: string) => act('close', path);

  return (
    <div className="tab-bar" data-testid="tab-bar">
      <div className="tab-bar__list" role="tablist" ref={listRef}>
        {paths.map((path) => {
          const title = titleOf(path);
          const isHome = path === HOME_PATH;
          return (
            <Dropdown
              key={path}
              trigger={['contextMenu']}
              menu={{ items: menuFor(path), onClick: (e) => act(e.key as Action, path) }}
            >
              <div
                role="tab"
                aria-selected={path === active}
                tabIndex={0}
                data-path={path}
                data-testid="tab"
                className={[
                  'tab',
                  path === active && 'is-active',
                  dirty[path] && 'is-dirty',
                  dragging === path && 'is-dragging',
                  over === path && dragging !== path && 'is-over',
                ]
                  .filter(Boolean)
                  .join(' ')}
                draggable={!isHome}
                onDragStart={(e) => {
                  e.dataTransfer.effectAllowed = 'move';
                  e.dataTransfer.setData('text/plain', path);
                  setDragging(path);
                }}
                onDragOver={(e) => {
                  if (!dragging || isHome) return;
                  e.preventDefault();
                  setOver(path);
                }}
                onDragLeave={() => setOver((o) => (o === path ? null : o))}
                onDrop={(e) => {
                  e.preventDefault();
                  const from = e.dataTransfer.getData('text/plain') || dragging;
                  if (from) moveTab(from, path);
                  setDragging(null);
                  setOver(null);
                }}
                onDragEnd={() => {
                  setDragging(null);
                  setOver(null);
                }}
                onClick={() => path !== active && void navigate(path)}
                onKeyDown={(e) => e.key === 'Enter' && void navigate(path)}
                onAuxClick={(e) => e.button === 1 && !isHome && close(path)}
              >
                <span className="tab__title">{title}</span>
                {dirty[path] && (
                  <span
                    className="tab__dirty"
                    role="img"
                    aria-label={t('frame.tabs.unsaved')}
                    title={t('frame.tabs.unsaved')}
                  />
                )}
                {!isHome && (
                  <CloseOutlined
                    className="tab__close"
                    aria-label={t('common.close')}
                    data-testid="tab-close"
                    onClick={(e) => {
                      e.stopPropagation();
                      close(path);
                    }}
                  />
                )}
              </div>
            </Dropdown>
          );
        })}
      </div>
      <Dropdown
        trigger={['click']}
        menu={{
          items: (menuFor(active) ?? []).filter((i) => i && i.key !== 'refresh'),
          onClick: (e) => act(e.key as Action, active),
        }}
      >
        <Button
          type="text"
          size="small"
          className="tab-bar__more"
          aria-label={t('frame.tabs.menu')}
          data-testid="tabs-dropdown"
        >
          <DownOutlined />
        </Button>
      </Dropdown>
    </div>
  );
}

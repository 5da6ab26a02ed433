/**
 * Search panel (spec §2): `s` opens it, `esc` closes it, the input is focused after 500 ms,
 * fuzzy search over the menu in both languages; hotkeys jump to the spec's seven pages.
 */
import type { RouteName } from '@console/contract';
import { Input, Tag, type InputRef } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useI18n } from '@/lib/i18n.ts';
import { useSession } from '@/lib/session.ts';
import { recordPages } from '../routes/registry.tsx';
import { searchRoutes, staticRoutes } from './menu.ts';
import { useOpenRoute } from './useMenuClick.ts';

export const SEARCH_FOCUS_DELAY_MS = 500;

/** Alt+<digit> anywhere (outside text inputs); listed in the panel. */
export const hotkeys: { key: string; code: string; route: RouteName }[] = [
  { key: 'Alt+1', code: 'Digit1', route: 'item.list' },
  { key: 'Alt+2', code: 'Digit2', route: 'item.noPassItem' },
  { key: 'Alt+3', code: 'Digit3', route: 'order.createImport' },
  { key: 'Alt+4', code: 'Digit4', route: 'order.batchList' },
  { key: 'Alt+5', code: 'Digit5', route: 'order.error' },
  { key: 'Alt+6', code: 'Digit6', route: 'order.abnormal' },
  { key: 'Alt+7', code: 'Digit7', route: 'bill' },
];

const isEditable = (el: EventTarget | null) =>
  el instanceof HTMLElement &&
  (el.isContentEditable || el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT');

export function SearchPanel({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t, localized } = useI18n();
  const { routes, routeNames } = useSession();
  const openRoute = useOpenRoute({ lastParams: true });
  const [query, setQuery] = useState('');
  const [cursor, setCursor] = useState(0);
  const input = useRef<InputRef>(null);

  // Pages of one record are opened from their list with an id; offered here they opened empty.
  const searchable = useMemo(
    () =>
      [...staticRoutes.filter((s) => !routes.some((r) => r.name === s.name)), ...routes].filter(
        (r) => r.path && !(r.name in recordPages),
      ),
    [routes],
  );
  const results = useMemo(() => searchRoutes(query, searchable).slice(0, 20), [query, searchable]);
  const allowedHotkeys = hotkeys.filter((h) => routeNames.has(h.route));

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && open) {
        e.preventDefault();
        onOpenChange(false);
        return;
      }
      if (isEditable(e.target) && !(open && e.target === input.current?.input)) return;
      if (e.altKey && !e.ctrlKey && !e.metaKey) {
        const hk = hotkeys.find((h) => h.code === e.code);
        if (hk && routeNames.has(hk.route)) {
          e.preventDefault();
          onOpenChange(false);
          openRoute(hk.route);
        }
        return;
      }
      if (!open && (e.key === 's' || e.key === 'S') && !e.ctrlKey && !e.metaKey && !isEditable(e.target)) {
        e.preventDefault();
        onOpenChange(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, onOpenChange, openRoute, routeNames]);

  useEffect(() => {
    if (!open) return;
    setQuery('');
    setCursor(0);
    const timer = setTimeout(() => input.current?.focus(), SEARCH_FOCUS_DELAY_MS);
    return () => clearTimeout(timer);
  }, [open]);

  if (!open) return null;

  const go = (name: string) => {
    onOpenChange(false);
    openRoute(name);
  };

  return (
    <div className="search-panel" role="dialog" aria-label={t('frame.search.open')} data-testid="search-panel">
      <div className="search-panel__backdrop" onClick={() => onOpenChange(false)} />
      <div className="search-panel__body">
        <Input
          ref={input}
          size="large"
          allowClear
          value={query}
          placeholder={t('frame.search.placeholder')}
          data-testid="search-input"
          onChange={(e) => {
            setQuery(e.target.value);
            setCursor(0);
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') setCursor((c) => Math.min(c + 1, results.length - 1));
            else if (e.key === 'ArrowUp') setCursor((c) => Math.max(c - 1, 0));
            else if (e.key === 'Enter' && results[cursor]) go(results[cursor].name);
            else return;
            e.preventDefault();
          }}
        />
        <ul className="search-panel__results" role="listbox">
          {results.length === 0 && <li className="search-panel__empty">{t('frame.search.empty')}</li>}
          {results.map((r, i) => (
            <li
              key={r.name}
              role="option"
              aria-selected={i === cursor}
              className={i === cursor ? 'is-active' : undefined}
              onMouseEnter={() => setCursor(i)}
              onClick={() => go(r.name)}
              data-route={r.name}
            >
              <span className="search-panel__title">{localized(r.title)}</span>
              <span className="search-panel__alt">{r.title.zh === localized(r.title) ? r.title.en : r.title.zh}</span>
              <span className="search-panel__path">{r.path}</span>
            </li>
          ))}
        </ul>
        {allowedHotkeys.length > 0 && (
          <div className="search-panel__hotkeys" data-testid="search-hotkeys">
            <div className="search-panel__hotkeys-title">{t('frame.search.hotkeys')}</div>
            {allowedHotkeys.map((h) => {
              const r = routes.find((x) => x.name === h.route);
              return (
                <button type="button" key={h.route} className="search-panel__hotkey" onClick={() => go(h.route)}>
                  <Tag>{h.key}</Tag>
                  {r ? localized(r.title) : h.route}
                </button>
              );
            })}
          </div>
        )}
      </div>
    </div>
  );
}

/**
 * Open tabs (spec §2 multi-tab bar): home first and not closable, order by the user (drag),
 * remembered per user locally and on the server. A tab holds its full path (path + query),
 * but is identified by `tabKey`: one tab per page whatever query it was opened with, except
 * pages of one record (`?id=`), so two order details are two tabs while a list opened from
 * a badge with its filter in the query reuses the list's tab (issue 28, finding 14).
 */
import { useSyncExternalStore } from 'react';
import { queryClient } from '@/lib/query.ts';
import { APP_VERSION, writeLocal } from '@/lib/storage.ts';
import { localKey, readUserSetting, saveUserSetting } from '../../userSettings.ts';

export const HOME_PATH = '/index';
/** Mounted (state-keeping) tabs at most; older hidden ones are unmounted, their tab stays. */
export const KEEP_ALIVE_MAX = 12;
/**
 * Open tabs at most: opening one more closes the least recently used (home and the new tab
 * stay). Without a cap, a day's order details piled up to the saved limit and every first
 * screen drew them all.
 */
export const OPEN_TABS_MAX = 30;

interface TabsState {
  user: string | null;
  paths: string[];
  /** Bumped by `refresh` to remount one tab. */
  refreshKeys: Record<string, number>;
  /** Most recently used first; the keep-alive cache. */
  recent: string[];
  /**
   * The record a tab shows, by path ("DM100030" for `/order/info?id=12`), so two tabs of one
   * page can be told apart. Set by the page once it has loaded the record; kept locally so
   * tabs restored after a reload keep their names before their pages mount again.
   */
  labels: Record<string, string>;
  /**
   * Tabs whose page holds edits not saved yet (`useTabDirty`). Such a tab is never unmounted by
   * the keep-alive cache nor closed by the tab limit, and closing it by hand asks first.
   */
  dirty: Record<string, true>;
}

const empty = (user: string | null): TabsState => ({
  user,
  paths: [HOME_PATH],
  refreshKeys: {},
  recent: [],
  labels: {},
  dirty: {},
});
let state: TabsState = empty(null);

/** A tab's identity: its page, plus the record for pages of one record. */
export function tabKey(path: string): string {
  const [pathname, query] = path.split('?');
  const id = new URLSearchParams(query ?? '').get('id');
  return id ? `${pathname}?id=${id}` : pathname!;
}
const listeners = new Set<() => void>();

function set(next: Partial<TabsState>, persist = true) {
  state = { ...state, ...next };
  if (!state.paths.includes(HOME_PATH)) state.paths = [HOME_PATH, ...state.paths];
  if (state.paths[0] !== HOME_PATH) state.paths = [HOME_PATH, ...state.paths.filter((p) => p !== HOME_PATH)];
  state.recent = state.recent.filter((p) => state.paths.includes(p));
  if (Object.keys(state.dirty).some((p) => !state.paths.includes(p))) {
    state.dirty = Object.fromEntries(Object.entries(state.dirty).filter(([p]) => state.paths.includes(p)));
  }
  if (Object.keys(state.labels).some((p) => !state.paths.includes(p))) {
    state.labels = Object.fromEntries(Object.entries(state.labels).filter(([p]) => state.paths.includes(p)));
    if (state.user && persist) saveUserSetting(state.user, 'tabLabels', state.labels);
  }
  if (persist && state.user) saveUserSetting(state.user, 'tabs', state.paths);
  listeners.forEach((l) => l());
}

/** Saved tabs as paths, one per `tabKey` (tabs saved before keys existed may repeat a page). */
function sanitize(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  const byKey = new Map<string, string>();
  for (const p of v) {
    if (typeof p === 'string' && p.startsWith('/') && !p.startsWith('//') && !byKey.has(tabKey(p))) {
      byKey.set(tabKey(p), p);
    }
  }
  return [...byKey.values()].slice(0, OPEN_TABS_MAX);
}

/** Saved record names: strings by tab path, nothing else. */
function sanitizeLabels(v: unknown): Record<string, string> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return {};
  return Object.fromEntries(Object.entries(v).filter(([p, l]) => p.startsWith('/') && typeof l === 'string'));
}

/**
 * A user's tabs and the names of the records they show, saved with the user's settings on the
 * server as the tabs are (issue 36 #22: restored in another browser or after a new login, a tab
 * not opened yet was titled with its internal id, "订单详情 #368").
 */
export function loadTabsFor(user: string, serverValue?: unknown, serverLabels?: unknown) {
  const paths = sanitize(serverValue ?? readUserSetting(user, 'tabs', [HOME_PATH]));
  const labels = sanitizeLabels(serverLabels ?? readUserSetting(user, 'tabLabels', {}));
  state = { ...empty(user), paths: [], labels };
  set({ paths }, false);
  writeLocal(localKey(user, 'tabs'), state.paths);
}

export function useTabs() {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => state,
  );
}

export const getTabs = () => state;

/** Drops tabs the user can no longer open (routes changed, permission withdrawn). */
export function retainTabs(keep: (path: string) => boolean) {
  const paths = state.paths.filter((p) => p === HOME_PATH || keep(p));
  if (paths.length !== state.paths.length) set({ paths });
}

/** The open tab with the same identity as `path` (perhaps with another query), if any. */
export const tabFor = (path: string) => state.paths.find((p) => tabKey(p) === tabKey(path));

/**
 * The last address of each page (a list with its filters, page and sort) opened in this browser
 * tab, so the menu opens a list as it was left, its tab closed or not (issue 40, item 4; react-admin
 * remembers a list's parameters likewise). Per user and in sessionStorage: another user, or a new
 * browser tab, starts from the bare lists. Pages of one record are not remembered: the menu opens none.
 */
const lastPathsKey = () => `${APP_VERSION}-${state.user}-lastPaths`;

function readLastPaths(): Record<string, string> {
  try {
    const v: unknown = JSON.parse(sessionStorage.getItem(lastPathsKey()) ?? '{}');
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, string>) : {};
  } catch {
    return {};
  }
}

function rememberPath(path: string) {
  const [pathname] = path.split('?');
  if (!state.user || tabKey(path) !== pathname) return;
  try {
    sessionStorage.setItem(lastPathsKey(), JSON.stringify({ ...readLastPaths(), [pathname!]: path }));
  } catch {
    // Quota or privacy mode: the menu then opens the bare list, as before.
  }
}

/** Where the menu opens `pathname`: its open tab's address, else the last one it had, else itself. */
export function lastPathOf(pathname: string): string {
  const last = tabFor(pathname) ?? readLastPaths()[pathname];
  return last && tabKey(last) === pathname ? last : pathname;
}

/** Moves what is kept per tab from one path to another (the same tab, opened with another query). */
function renamed<T>(map: Record<string, T>, from: string, to: string): Record<string, T> {
  if (!(from in map)) return map;
  const { [from]: value, ...rest } = map;
  return { ...rest, [to]: value as T };
}

/**
 * Opens (or shows) the tab of `path`. Returns the tab the limit closed to make room, so the
 * shell can say which; tabs with unsaved edits are never closed for room (the bar then holds
 * one more than the limit until one is closed).
 */
export function openTab(path: string): string | null {
  rememberPath(path);
  const existing = tabFor(path);
  if (existing && existing !== path) {
    // The same page opened with another query: its tab follows the new address, keeping its place.
    set({
      paths: state.paths.map((p) => (p === existing ? path : p)),
      recent: [path, ...state.recent.filter((p) => p !== existing)],
      labels: renamed(state.labels, existing, path),
      refreshKeys: renamed(state.refreshKeys, existing, path),
      dirty: renamed(state.dirty, existing, path),
    });
    return null;
  }
  const recent = [path, ...state.recent.filter((p) => p !== path)];
  if (existing) {
    set({ recent }, false);
    return null;
  }
  let paths = [...state.paths, path];
  let victim: string | null = null;
  if (paths.length > OPEN_TABS_MAX) {
    // Tabs not used since the page loaded go first (leftmost first), then the least recent.
    const rank = (p: string) =>
      recent.includes(p) ? recent.indexOf(p) : recent.length + paths.length - paths.indexOf(p);
    const candidates = paths.filter((p) => p !== HOME_PATH && p !== path && !state.dirty[p]);
    victim = candidates.length ? candidates.reduce((a, b) => (rank(b) > rank(a) ? b : a)) : null;
    paths = paths.filter((p) => p !== victim);
  }
  set({ paths, recent });
  return victim;
}

/** Closes tabs; returns where to go when the active one was among them. */
function closeWhere(active: string, keep: (p: string, i: number) => boolean): string | null {
  const before = state.paths;
  const paths = before.filter((p, i) => p === HOME_PATH || keep(p, i));
  set({ paths });
  if (paths.includes(active)) return null;
  // Like D2Admin: go to the neighbour on the left of the closed active tab, else home.
  const idx = before.indexOf(active);
  for (let i = idx - 1; i >= 0; i--) if (paths.includes(before[i])) return before[i];
  return paths[paths.length - 1] ?? HOME_PATH;
}

export type CloseAction = 'close' | 'closeLeft' | 'closeRight' | 'closeOthers' | 'closeAll';

/** Which tabs an action on `path` keeps (home always stays). */
function keeperOf(action: CloseAction, path: string): (p: string, i: number) => boolean {
  const at = state.paths.indexOf(path);
  if (action === 'close') return (p) => p !== path;
  if (action === 'closeLeft') return (_p, i) => i >= at;
  if (action === 'closeRight') return (_p, i) => i <= at;
  if (action === 'closeOthers') return (p) => p === path;
  return () => false;
}

/** The tabs with unsaved edits that an action would close: the bar asks before it closes them. */
export function dirtyClosedBy(action: CloseAction, path: string): string[] {
  const keep = keeperOf(action, path);
  return state.paths.filter((p, i) => p !== HOME_PATH && !keep(p, i) && state.dirty[p]);
}

/** Closes tabs; returns where to go when the active one was among them. */
export const closeTabs = (action: CloseAction, active: string, path: string) =>
  closeWhere(active, keeperOf(action, path));
export const closeTab = (active: string, path: string) => closeTabs('close', active, path);
export const closeLeft = (active: string, path: string) => closeTabs('closeLeft', active, path);
export const closeRight = (active: string, path: string) => closeTabs('closeRight', active, path);
export const closeOthers = (active: string, path: string) => closeTabs('closeOthers', active, path);
export const closeAll = (active: string) => closeTabs('closeAll', active, active);

export function moveTab(from: string, to: string) {
  if (from === HOME_PATH || to === HOME_PATH || from === to) return;
  const paths = state.paths.filter((p) => p !== from);
  const at = paths.indexOf(to);
  const fromIdx = state.paths.indexOf(from);
  const toIdx = state.paths.indexOf(to);
  // Dropping on a tab to the right places it after that tab, on the left before it.
  paths.splice(fromIdx < toIdx ? at + 1 : at, 0, from);
  set({ paths });
}

export function refreshTab(path: string) {
  // The remounted page asks the server again rather than showing cached answers (issue 28, item 4):
  // every cached answer is marked stale, and only the queries mounted now refetch.
  void queryClient.invalidateQueries({ refetchType: 'none' });
  set({ refreshKeys: { ...state.refreshKeys, [path]: (state.refreshKeys[path] ?? 0) + 1 } }, false);
}

/** Names the record an open tab shows (see `labels`); ignored once the tab is closed. */
export function setTabLabel(path: string, label: string) {
  if (!state.paths.includes(path) || state.labels[path] === label) return;
  set({ labels: { ...state.labels, [path]: label } }, false);
  if (state.user) saveUserSetting(state.user, 'tabLabels', state.labels);
}

/** Marks a tab as holding unsaved edits or not (see `dirty`); ignored once the tab is closed. */
export function setTabDirty(path: string, dirty: boolean) {
  if (!state.paths.includes(path) || Boolean(state.dirty[path]) === dirty) return;
  const { [path]: _was, ...rest } = state.dirty;
  set({ dirty: dirty ? { ...rest, [path]: true } : rest }, false);
}

export function resetTabs() {
  state = empty(null);
  listeners.forEach((l) => l());
}

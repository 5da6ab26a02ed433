/**
 * Open tabs (spec §2 multi-tab bar): home first and not closable, order by the user (drag),
 * remembered per user locally and on the server. A tab is identified by its full path
 * (path + query) so two order details are two tabs.
 */
import { useSyncExternalStore } from 'react';
import { queryClient } from '@/lib/query.ts';
import { readLocal, writeLocal } from '@/lib/storage.ts';
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
}

let state: TabsState = { user: null, paths: [HOME_PATH], refreshKeys: {}, recent: [], labels: {} };
const labelsKey = (user: string) => `tab-labels:${user}`;
const listeners = new Set<() => void>();

function set(next: Partial<TabsState>, persist = true) {
  state = { ...state, ...next };
  if (!state.paths.includes(HOME_PATH)) state.paths = [HOME_PATH, ...state.paths];
  if (state.paths[0] !== HOME_PATH) state.paths = [HOME_PATH, ...state.paths.filter((p) => p !== HOME_PATH)];
  state.recent = state.recent.filter((p) => state.paths.includes(p));
  if (Object.keys(state.labels).some((p) => !state.paths.includes(p))) {
    state.labels = Object.fromEntries(Object.entries(state.labels).filter(([p]) => state.paths.includes(p)));
    if (state.user) writeLocal(labelsKey(state.user), state.labels);
  }
  if (persist && state.user) saveUserSetting(state.user, 'tabs', state.paths);
  listeners.forEach((l) => l());
}

const sanitize = (v: unknown): string[] =>
  Array.isArray(v)
    ? [
        ...new Set(v.filter((p): p is string => typeof p === 'string' && p.startsWith('/') && !p.startsWith('//'))),
      ].slice(0, OPEN_TABS_MAX)
    : [];

export function loadTabsFor(user: string, serverValue?: unknown) {
  const paths = sanitize(serverValue ?? readUserSetting(user, 'tabs', [HOME_PATH]));
  const labels = readLocal<Record<string, string>>(labelsKey(user), {});
  state = { user, paths: [], refreshKeys: {}, recent: [], labels: typeof labels === 'object' && labels ? labels : {} };
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

export function openTab(path: string) {
  const recent = [path, ...state.recent.filter((p) => p !== path)];
  if (state.paths.includes(path)) {
    set({ recent }, false);
    return;
  }
  let paths = [...state.paths, path];
  if (paths.length > OPEN_TABS_MAX) {
    // Tabs not used since the page loaded go first (leftmost first), then the least recent.
    const rank = (p: string) =>
      recent.includes(p) ? recent.indexOf(p) : recent.length + paths.length - paths.indexOf(p);
    const victim = paths.filter((p) => p !== HOME_PATH && p !== path).reduce((a, b) => (rank(b) > rank(a) ? b : a));
    paths = paths.filter((p) => p !== victim);
  }
  set({ paths, recent });
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

export const closeTab = (active: string, path: string) => closeWhere(active, (p) => p !== path);
export const closeLeft = (active: string, path: string) => {
  const at = state.paths.indexOf(path);
  return closeWhere(active, (_p, i) => i >= at);
};
export const closeRight = (active: string, path: string) => {
  const at = state.paths.indexOf(path);
  return closeWhere(active, (_p, i) => i <= at);
};
export const closeOthers = (active: string, path: string) => closeWhere(active, (p) => p === path);
export const closeAll = (active: string) => closeWhere(active, () => false);

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
  if (state.user) writeLocal(labelsKey(state.user), state.labels);
}

export function resetTabs() {
  state = { user: null, paths: [HOME_PATH], refreshKeys: {}, recent: [], labels: {} };
  listeners.forEach((l) => l());
}

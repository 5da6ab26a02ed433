/** Finding 23: the tab store (spec §2): home first and kept, paths as identity, closing goes left, per-user. */
import { describe, expect, it } from 'vitest';
import {
  closeAll,
  closeLeft,
  closeOthers,
  closeRight,
  closeTab,
  lastPathOf,
  dirtyClosedBy,
  getTabs,
  HOME_PATH,
  loadTabsFor,
  moveTab,
  OPEN_TABS_MAX,
  openTab,
  retainTabs,
  setTabDirty,
  setTabLabel,
  tabKey,
} from '../src/app/layout/tabs/store.ts';
import { readUserSetting } from '../src/app/userSettings.ts';

const paths = () => getTabs().paths;

describe('finding 23: tab store', () => {
  it('loads a user’s tabs with home first, dropping duplicates and foreign addresses', () => {
    loadTabsFor('demo', ['/order/list', '//evil.example', '/order/list', 42, '/index', '/order/error']);
    expect(paths()).toEqual([HOME_PATH, '/order/list', '/order/error']);
  });

  it('two details of different records are two tabs; opening one again does not add it', () => {
    loadTabsFor('demo', []);
    openTab('/order/info?id=1');
    openTab('/order/info?id=2');
    openTab('/order/info?id=1');
    expect(paths()).toEqual([HOME_PATH, '/order/info?id=1', '/order/info?id=2']);
  });

  it('closing the active tab goes to its left neighbour; closing another stays', () => {
    loadTabsFor('demo', ['/a', '/b', '/c']);
    expect(closeTab('/b', '/b')).toBe('/a');
    expect(paths()).toEqual([HOME_PATH, '/a', '/c']);
    expect(closeTab('/a', '/c')).toBeNull();
    expect(closeTab('/a', HOME_PATH)).toBeNull();
    expect(paths()).toEqual([HOME_PATH, '/a']);
  });

  it('close left, right, others and all keep home', () => {
    loadTabsFor('demo', ['/a', '/b', '/c', '/d']);
    expect(closeLeft('/c', '/c')).toBeNull();
    expect(paths()).toEqual([HOME_PATH, '/c', '/d']);
    expect(closeRight('/d', '/c')).toBe('/c');
    expect(paths()).toEqual([HOME_PATH, '/c']);
    loadTabsFor('demo', ['/a', '/b']);
    expect(closeOthers('/a', '/b')).toBe(HOME_PATH);
    expect(paths()).toEqual([HOME_PATH, '/b']);
    expect(closeAll('/b')).toBe(HOME_PATH);
    expect(paths()).toEqual([HOME_PATH]);
  });

  it('drag: dropping right places after, left before; home never moves', () => {
    loadTabsFor('demo', ['/a', '/b', '/c']);
    moveTab('/a', '/c');
    expect(paths()).toEqual([HOME_PATH, '/b', '/c', '/a']);
    moveTab('/a', '/b');
    expect(paths()).toEqual([HOME_PATH, '/a', '/b', '/c']);
    moveTab(HOME_PATH, '/c');
    moveTab('/c', HOME_PATH);
    expect(paths()).toEqual([HOME_PATH, '/a', '/b', '/c']);
  });

  it('tabs of routes no longer allowed are dropped; each user has their own tabs', () => {
    loadTabsFor('demo', ['/a', '/b']);
    retainTabs((p) => p !== '/b');
    expect(paths()).toEqual([HOME_PATH, '/a']);
    loadTabsFor('demo2');
    expect(paths()).toEqual([HOME_PATH]);
    loadTabsFor('demo');
    expect(paths()).toEqual([HOME_PATH, '/a']);
  });

  it('opening one tab past the cap closes the least recently used, never home or the new one', () => {
    const restored = Array.from({ length: OPEN_TABS_MAX - 1 }, (_, i) => `/r${i}`);
    loadTabsFor('demo', restored);
    expect(paths()).toHaveLength(OPEN_TABS_MAX);
    // Used this session: /r0 then /r1. Never used since loading: the others, leftmost oldest.
    openTab('/r0');
    openTab('/r1');
    openTab('/new1');
    expect(paths()).toHaveLength(OPEN_TABS_MAX);
    expect(paths()).not.toContain('/r2');
    expect(paths()).toContain('/r0');
    expect(paths().at(-1)).toBe('/new1');
    // Once every restored one is gone, the least recent of the used ones goes.
    for (let i = 2; i < 40; i++) openTab(`/more${i}`);
    expect(paths()).toHaveLength(OPEN_TABS_MAX);
    expect(paths()[0]).toBe(HOME_PATH);
    expect(paths()).not.toContain('/r0');
    expect(paths()).toContain('/more39');
  });
});

describe('issue 28: tabs keep unsaved edits; one tab per page', () => {
  it('finding 14: a page opened with another query reuses its tab, which follows the new address', () => {
    loadTabsFor('demo', ['/order/batchList', '/order/list']);
    setTabLabel('/order/batchList', 'x');
    openTab('/order/batchList?status=failed');
    expect(paths()).toEqual([HOME_PATH, '/order/batchList?status=failed', '/order/list']);
    expect(getTabs().labels['/order/batchList?status=failed']).toBe('x');
    expect(getTabs().recent[0]).toBe('/order/batchList?status=failed');
    // Pages of one record stay one tab per record.
    openTab('/order/info?id=1');
    openTab('/order/info?id=2&from=list');
    openTab('/order/info?id=1&from=list');
    expect(paths().filter((p) => p.startsWith('/order/info'))).toEqual([
      '/order/info?id=1&from=list',
      '/order/info?id=2&from=list',
    ]);
    expect(tabKey('/order/info?id=1&from=list')).toBe('/order/info?id=1');
  });

  it('finding 14: saved tabs that repeat a page are restored as one', () => {
    loadTabsFor('demo', ['/order/batchList', '/order/batchList?status=failed', '/order/info?id=3']);
    expect(paths()).toEqual([HOME_PATH, '/order/batchList', '/order/info?id=3']);
  });

  it('finding 1: closing dirty tabs is known beforehand, per action', () => {
    loadTabsFor('demo', ['/a', '/b', '/c']);
    setTabDirty('/a', true);
    setTabDirty('/c', true);
    expect(dirtyClosedBy('close', '/b')).toEqual([]);
    expect(dirtyClosedBy('close', '/a')).toEqual(['/a']);
    expect(dirtyClosedBy('closeOthers', '/b')).toEqual(['/a', '/c']);
    expect(dirtyClosedBy('closeLeft', '/b')).toEqual(['/a']);
    expect(dirtyClosedBy('closeRight', '/b')).toEqual(['/c']);
    expect(dirtyClosedBy('closeAll', HOME_PATH)).toEqual(['/a', '/c']);
    setTabDirty('/a', false);
    expect(dirtyClosedBy('closeAll', HOME_PATH)).toEqual(['/c']);
    closeTab('/b', '/c');
    expect(getTabs().dirty).toEqual({});
  });

  it('finding 2: the tab limit says which tab it closed and never closes one with unsaved edits', () => {
    loadTabsFor('demo', []);
    for (let i = 1; i < OPEN_TABS_MAX; i++) expect(openTab(`/p${i}`)).toBeNull();
    setTabDirty('/p1', true);
    // /p1 is the least recently used, but holds edits: /p2 goes instead, and is named.
    expect(openTab('/new')).toBe('/p2');
    expect(paths()).toContain('/p1');
    expect(paths()).toHaveLength(OPEN_TABS_MAX);
  });
});

describe('issue 36 #22: restored tabs keep the names of their records', () => {
  it('a record’s name is saved with the user’s settings, and a restore from the server shows it, not the id', () => {
    loadTabsFor('demo', ['/order/info?id=368']);
    setTabLabel('/order/info?id=368', 'ORD-1');
    expect(readUserSetting('demo', 'tabLabels', {})).toEqual({ '/order/info?id=368': 'ORD-1' });
    // Another browser (nothing saved locally): the server's copy names it; other saved values are dropped.
    localStorage.clear();
    loadTabsFor('demo', ['/order/info?id=368'], { '/order/info?id=368': 'ORD-1', '/closed': 'x', '/odd': 3 });
    expect(getTabs().labels).toEqual({ '/order/info?id=368': 'ORD-1' });
  });
});

describe('issue 40, item 4: the menu opens a list as it was left', () => {
  it('a page’s last address is kept after its tab closes, per user; a record page is not', () => {
    sessionStorage.clear();
    loadTabsFor('demo', []);
    expect(lastPathOf('/order/batchList')).toBe('/order/batchList');
    openTab('/order/batchList?batchNo=B1');
    openTab('/order/batchList?batchNo=B2&offset=20');
    openTab('/order/info?id=7');
    expect(lastPathOf('/order/batchList')).toBe('/order/batchList?batchNo=B2&offset=20');
    closeTab('/order/info?id=7', '/order/batchList?batchNo=B2&offset=20');
    expect(paths()).toEqual([HOME_PATH, '/order/info?id=7']);
    expect(lastPathOf('/order/batchList')).toBe('/order/batchList?batchNo=B2&offset=20');
    expect(lastPathOf('/order/info')).toBe('/order/info');
    // Reset leaves the bare list: that is what the menu opens next.
    openTab('/order/batchList');
    expect(lastPathOf('/order/batchList')).toBe('/order/batchList');
    openTab('/order/batchList?batchNo=B3');
    loadTabsFor('other', []);
    expect(lastPathOf('/order/batchList')).toBe('/order/batchList');
  });
});

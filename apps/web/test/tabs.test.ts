/** Finding 23: the tab store (spec §2): home first and kept, paths as identity, closing goes left, per-user. */
import { describe, expect, it } from 'vitest';
import {
  closeAll,
  closeLeft,
  closeOthers,
  closeRight,
  closeTab,
  getTabs,
  HOME_PATH,
  loadTabsFor,
  moveTab,
  openTab,
  retainTabs,
} from '../src/app/layout/tabs/store.ts';

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
});

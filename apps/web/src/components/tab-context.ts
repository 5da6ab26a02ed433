/**
 * What a page knows about its own tab. Pages in hidden tabs stay mounted, so they read
 * their query with react-router's hooks as usual (each tab renders in its own location),
 * and `active` tells them whether they are the visible one (e.g. to pause polling).
 */
import { createContext, useContext } from 'react';

export interface TabInfo {
  /** Full path (with query) of the tab; its identity. */
  path: string;
  /** Route name (permission name). */
  name: string;
  active: boolean;
}

export const TabContext = createContext<TabInfo>({ path: '/index', name: 'index', active: true });
export const useTab = () => useContext(TabContext);

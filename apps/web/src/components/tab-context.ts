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
  /**
   * The tab bar's own setters (app/layout/tabs/store.ts), handed down by the shell so pages mark
   * their tab without importing app/ (features sit below app).
   */
  setTabLabel: (path: string, label: string) => void;
  setTabDirty: (path: string, dirty: boolean) => void;
}

export const TabContext = createContext<TabInfo>({
  path: '/index',
  name: 'index',
  active: true,
  setTabLabel: () => {},
  setTabDirty: () => {},
});
export const useTab = () => useContext(TabContext);

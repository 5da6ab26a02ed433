import { useEffect } from 'react';
import { useTabs } from './store.ts';

/**
 * While any tab holds edits not saved (`dirty`), a reload, closing the browser tab or leaving
 * the console asks first with the browser's own warning (issue 36 #19): the tab bar's question
 * covers × only, and a reload dropped every typed form without a word. The browser writes the
 * warning's text itself, in its own language; a page may only ask for it.
 */
export function useLeaveWarning() {
  const { dirty } = useTabs();
  const anyDirty = Object.keys(dirty).length > 0;
  useEffect(() => {
    if (!anyDirty) return;
    const ask = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older Chromium and Safari ask only when returnValue is set.
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [anyDirty]);
}

/** How many tabs hold edits not saved: what logging out would lose. */
export function useDirtyTabCount() {
  return Object.keys(useTabs().dirty).length;
}

import { useEffect } from 'react';
import { sessionEvents } from '@/lib/events.ts';
import { keepDirtyForms } from '@/lib/form-drafts.ts';
import { getSession } from '@/lib/session.ts';
import { getTabs, setTabDirty, useTabs } from './store.ts';

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
      // Read at the moment of leaving: the session's end may have kept the edits just before.
      if (!Object.keys(getTabs().dirty).length) return;
      e.preventDefault();
      // Older Chromium and Safari ask only when returnValue is set.
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [anyDirty]);
}

/**
 * The session is ending (the refresh refused, or ended elsewhere) while tabs hold edits: their
 * forms' values are kept as the user's drafts, offered back after the next login (issue 36 #19,
 * `useFormDraft`). The tabs are then clean: nothing is left for the leave warning to ask about
 * when the end reloads the page.
 */
export function useKeepDraftsOnSessionEnd() {
  useEffect(
    () =>
      sessionEvents.on((e) => {
        if (e.type !== 'ending') return;
        const dirty = Object.keys(getTabs().dirty);
        keepDirtyForms(getSession().user?.name, dirty);
        for (const path of dirty) setTabDirty(path, false);
      }),
    [],
  );
}

/** How many tabs hold edits not saved: what logging out would lose. */
export function useDirtyTabCount() {
  return Object.keys(useTabs().dirty).length;
}

import { useCallback, useEffect, useState } from 'react';
import { useTab } from '@/components/tab-context.ts';

/**
 * A page holding edits not saved yet marks its tab (issue 28, finding 1): the bar shows it,
 * asks before closing it, and the keep-alive cache and the tab limit leave it alone.
 *
 *   useTabDirty(edit.dirty);
 *
 * No clean-up on unmount: a hidden tab's effects are torn down by <Activity> while its form
 * keeps its values, so only the page saying "clean" (or the tab closing) clears the mark.
 */
export function useTabDirty(dirty: boolean) {
  const { path, setTabDirty } = useTab();
  useEffect(() => {
    setTabDirty(path, dirty);
  }, [path, dirty, setTabDirty]);
}

/**
 * A create form's tab is dirty from the user's first change until the record is created
 * (issue 36 #18): × on a create page closed it silently with everything typed. Edit pages use
 * `useRecordForm`, which also knows when their record was (re)loaded; a create form only needs
 * the user's changes and the save.
 *
 *   const draft = useCreateFormDirty();
 *   <Form onValuesChange={draft.touched}>…
 *   // after the create succeeded:
 *   draft.created();
 */
export function useCreateFormDirty() {
  const [dirty, setDirty] = useState(false);
  useTabDirty(dirty);
  // `onValuesChange` fires for the user's changes only, never for the page's `setFieldsValue`.
  const touched = useCallback(() => setDirty(true), []);
  const created = useCallback(() => setDirty(false), []);
  return { dirty, touched, created };
}

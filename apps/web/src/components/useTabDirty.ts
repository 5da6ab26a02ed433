import { useEffect } from 'react';
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

/**
 * A table wider than its card scrolls sideways, and a keyboard user can only scroll what can take
 * focus (WCAG 2.1.1; axe's scrollable-region-focusable found the audit and rate-card tables, whose
 * rows hold no link or button). antd's Table gives its scroll container no tabindex and no prop for
 * one, so the shell gives every such container one as it appears.
 */
const SCROLLERS = '.ant-table-content:not([tabindex]), .ant-table-body:not([tabindex])';

function mark(root: ParentNode) {
  for (const el of root.querySelectorAll<HTMLElement>(SCROLLERS)) el.tabIndex = 0;
}

/** Watches the document from now on; returns the function that stops watching. */
export function keepScrollRegionsFocusable(root: HTMLElement = document.body): () => void {
  mark(root);
  // At once, in the observer's own callback (one per batch of mutations, before the next task): a
  // pass put off to the next animation frame never came in a background tab, where frames are
  // paused, and axe met the unmarked table there (the page walk's second tab).
  const observer = new MutationObserver(() => mark(root));
  observer.observe(root, { childList: true, subtree: true });
  return () => observer.disconnect();
}

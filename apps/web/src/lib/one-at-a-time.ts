import { useRef, useState } from 'react';

/**
 * `fn` that does nothing while a call of it is still running. A double click or an Enter
 * pressed again on a create form sent two creates: one made the order, the other was refused
 * as a duplicate and showed a red failure toast beside the success (issue 36 #22).
 */
export function oneAtATime<A extends unknown[]>(
  fn: (...a: A) => Promise<void>,
  onBusy: (busy: boolean) => void = () => {},
): (...a: A) => Promise<void> {
  let running = false;
  return async (...a: A) => {
    if (running) return;
    running = true;
    onBusy(true);
    try {
      await fn(...a);
    } finally {
      running = false;
      onBusy(false);
    }
  };
}

/** A form's submit as one call at a time, and whether one is running (for the button's spinner). */
export function useOneAtATime<A extends unknown[]>(fn: (...a: A) => Promise<void>) {
  const [busy, setBusy] = useState(false);
  // The latest `fn` (it closes over the form's state); the guard itself lives as long as the page.
  const latest = useRef(fn);
  latest.current = fn;
  const run = useRef<((...a: A) => Promise<void>) | null>(null);
  run.current ??= oneAtATime((...a: A) => latest.current(...a), setBusy);
  return [run.current, busy] as const;
}

/** A tiny typed emitter so lib/ can tell the app about session changes without importing it. */
export function createEmitter<T>() {
  const listeners = new Set<(v: T) => void>();
  return {
    on(fn: (v: T) => void) {
      listeners.add(fn);
      return () => void listeners.delete(fn);
    },
    emit(v: T) {
      for (const fn of listeners) fn(v);
    },
    get size() {
      return listeners.size;
    },
  };
}

/**
 * 'ending': the session is about to end without the user asking (refresh failed, or ended
 * elsewhere): said before anything is cleared, so the shell can keep dirty forms as drafts.
 * 'expired': refresh failed, go to login. 'notices': a call answered 428 (notices gate).
 * 'reset': the session was forgotten locally (logout), drop cached data.
 */
export const sessionEvents = createEmitter<
  { type: 'ending' } | { type: 'expired' } | { type: 'notices' } | { type: 'reset' }
>();

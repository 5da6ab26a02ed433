import { queryClient } from '@/lib/query.ts';

/** Longest wait for the calls to settle (a slow or hanging call must not hold prefetching back for good). */
const MAX_WAIT_MS = 10_000;

/**
 * Runs `work` once no call is in flight — the first screen has its data — or after
 * MAX_WAIT_MS. Returns a cancel function (for an effect's cleanup).
 */
export function afterFirstScreen(work: () => void): () => void {
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    unsubscribe();
    clearTimeout(fallback);
    work();
  };
  const check = () => {
    if (queryClient.isFetching() === 0) finish();
  };
  const unsubscribe = queryClient.getQueryCache().subscribe(check);
  const fallback = setTimeout(finish, MAX_WAIT_MS);
  // After this commit's effects: the page's and the header's queries have started by then.
  const first = setTimeout(check, 0);
  return () => {
    done = true;
    unsubscribe();
    clearTimeout(fallback);
    clearTimeout(first);
  };
}

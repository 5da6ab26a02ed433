/** Issue 11 (first screens): the menu's pages are prefetched only once the first screen's calls have answered. */
import { describe, expect, it } from 'vitest';
import { afterFirstScreen } from '../src/app/layout/afterFirstScreen.ts';
import { queryClient } from '../src/lib/query.ts';

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

describe('afterFirstScreen', () => {
  it('waits for the calls in flight, then runs once', async () => {
    let answer!: (v: number) => void;
    void queryClient.prefetchQuery({
      queryKey: ['first-screen'],
      queryFn: () => new Promise<number>((r) => (answer = r)),
    });
    let runs = 0;
    afterFirstScreen(() => runs++);
    await tick(20);
    expect(runs).toBe(0);
    answer(1);
    await tick(20);
    expect(runs).toBe(1);
    const again = queryClient.refetchQueries({ queryKey: ['first-screen'] });
    await tick(5);
    answer(2);
    await again;
    await tick(20);
    expect(runs).toBe(1);
  });

  it('runs at once when nothing is in flight; a cancelled wait never runs', async () => {
    let runs = 0;
    afterFirstScreen(() => runs++);
    const cancel = afterFirstScreen(() => (runs += 10));
    cancel();
    await tick(20);
    expect(runs).toBe(1);
  });
});

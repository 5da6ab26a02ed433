import { describe, expect, it } from 'vitest';
import { pageTotal } from '../../src/db/page-total.ts';

describe('pageTotal: count only when the page cannot say where the matches end', () => {
  const counting = (n: number) => {
    const calls: number[] = [];
    return { calls, count: async () => (calls.push(n), n) };
  };

  it('a page that is not full ends the matches: its offset plus its rows, no count', async () => {
    for (const [offset, rows, want] of [
      [0, 0, 0],
      [0, 5, 5],
      [40, 5, 45],
    ] as const) {
      const c = counting(999);
      expect(await pageTotal(offset, 20, rows, c.count)).toBe(want);
      expect(c.calls).toEqual([]);
    }
  });

  it('a full page, or an empty one past the end, asks the count', async () => {
    const full = counting(1234);
    expect(await pageTotal(0, 20, 20, full.count)).toBe(1234);
    expect(full.calls).toHaveLength(1);
    const past = counting(37);
    expect(await pageTotal(100, 20, 0, past.count)).toBe(37);
    expect(past.calls).toHaveLength(1);
  });
});

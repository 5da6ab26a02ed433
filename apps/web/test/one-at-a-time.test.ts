import { describe, expect, it } from 'vitest';
import { oneAtATime } from '../src/lib/one-at-a-time.ts';

describe('one submit at a time (issue 36 #22)', () => {
  it('a second call while the first runs does nothing; after it ends, a call runs again', async () => {
    const calls: number[] = [];
    const busy: boolean[] = [];
    let release!: () => void;
    const submit = oneAtATime(
      (n: number) => {
        calls.push(n);
        return new Promise<void>((r) => (release = r));
      },
      (b) => busy.push(b),
    );
    const first = submit(1);
    await submit(2);
    expect(calls).toEqual([1]);
    release();
    await first;
    expect(busy).toEqual([true, false]);
    const third = submit(3);
    release();
    await third;
    expect(calls).toEqual([1, 3]);
  });

  it('a failed run lets the next one through', async () => {
    let n = 0;
    const submit = oneAtATime(async () => {
      n++;
      throw new Error('refused');
    });
    await expect(submit()).rejects.toThrow('refused');
    await expect(submit()).rejects.toThrow('refused');
    expect(n).toBe(2);
  });
});

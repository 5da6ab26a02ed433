import { describe, expect, it } from 'vitest';
import { allCalls, specCallPaths } from './index.ts';

describe('spec calls', () => {
  it('names each of the spec’s 150 calls once, and the contract defines every one', () => {
    expect(specCallPaths).toHaveLength(150);
    expect(new Set(specCallPaths).size).toBe(specCallPaths.length);
    const defined = new Set(allCalls.map((c) => c.path));
    expect(specCallPaths.filter((p) => !defined.has(p))).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { splitNumbers } from './by-number.ts';

describe('print by number: pasted numbers', () => {
  it('a repeated number is kept once, where it last comes (spec §5, the contract rule)', () => {
    expect(splitNumbers('A001 B002\nA001,C003')).toEqual(['B002', 'A001', 'C003']);
  });
});

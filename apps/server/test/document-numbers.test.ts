import { describe, expect, it } from 'vitest';
import { documentNumber, numberSuffix } from '../src/lib/document-numbers.ts';

/**
 * Document numbers made in one millisecond (a busy server, or a test's frozen clock) are
 * distinct: their last digits were random, and one label-B dry run in ten failed under load with
 * "this batch number already exists" when two drafts drew the same three digits.
 */
describe('document numbers', () => {
  it('1,000 numbers at one instant are all distinct, in the documented shape', () => {
    const at = new Date('2026-11-24T03:00:00.123Z');
    const numbers = Array.from({ length: 1000 }, () => documentNumber('LB', at));
    expect(new Set(numbers).size).toBe(1000);
    for (const n of numbers) expect(n).toMatch(/^LB20261124\d{8}\d{3}$/);
    expect(numbers[0]!.slice(2, 18)).toBe(`20261124${String(at.getTime() % 100_000_000).padStart(8, '0')}`);
  });

  it('the two-digit suffix of import batches: 100 in a row are distinct', () => {
    const suffixes = Array.from({ length: 100 }, () => numberSuffix(100));
    expect(new Set(suffixes).size).toBe(100);
    for (const s of suffixes) expect(s).toMatch(/^\d{2}$/);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { batchNumber, documentNumber } from '../src/lib/document-numbers.ts';
import { createHarness, type Harness } from './harness.ts';

/**
 * Document numbers made in one millisecond (a busy server, or a test's frozen clock) are
 * distinct: their last digits were random, and one label-B dry run in ten failed under load with
 * "this batch number already exists" when two drafts drew the same three digits. The serial now
 * comes from the database (test/instances/document-numbers-instances.test.ts: two instances).
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ seed: false });
});

describe('document numbers', () => {
  it('1,000 numbers drawn at once at one instant are all distinct, in the documented shape', async () => {
    const at = new Date('2026-11-24T03:00:00.123Z');
    const numbers = await Promise.all(Array.from({ length: 1000 }, () => documentNumber(h.db, 'LB', at)));
    expect(new Set(numbers).size).toBe(1000);
    for (const n of numbers) expect(n).toMatch(/^LB20261124\d{11}$/);
  });

  it('drawn inside transactions and outside them at the same time, they stay distinct (and nothing waits forever)', async () => {
    const at = new Date('2026-11-24T03:00:00.123Z');
    const inTransactions = Array.from({ length: 50 }, () =>
      h.db
        .transaction()
        .execute(async (trx) => [await documentNumber(trx, 'SO', at), await documentNumber(trx, 'SO', at)]),
    );
    const lone = Array.from({ length: 50 }, () => documentNumber(h.db, 'SO', at));
    const numbers = [...(await Promise.all(inTransactions)).flat(), ...(await Promise.all(lone))];
    expect(new Set(numbers).size).toBe(150);
  });

  it('import batch numbers: B, the China date, 9 digits; 100 at once are distinct', async () => {
    const at = new Date('2026-11-24T17:00:00Z'); // 01:00 on the 25th in China
    const numbers = await Promise.all(Array.from({ length: 100 }, () => batchNumber(h.db, at)));
    expect(new Set(numbers).size).toBe(100);
    for (const n of numbers) expect(n).toMatch(/^B20261125\d{9}$/);
  });
});

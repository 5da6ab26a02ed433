import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

/**
 * Issue 28 #18: spec §5 "duplicate order numbers in pasted text: the last wins" held for sheets
 * only. Search, storage entry and outbound follow the one rule of the contract (pasted.ts); the
 * storage and outbound lines are in test/storage (a repeat is received or shipped by its last line).
 */
let h: Harness;
let demo: string;
beforeAll(async () => {
  h = await createHarness();
  demo = await h.login('demo');
});

describe('order search: pasted numbers, the last wins', () => {
  it('a repeated number is looked for where it last comes', async () => {
    const known = await h.db
      .selectFrom('orders')
      .innerJoin('users', 'users.customer_id', 'orders.customer_id')
      .select('orders.order_no')
      .where('users.name', '=', 'demo')
      .orderBy('orders.id')
      .limit(1)
      .executeTakeFirstOrThrow();
    const r = await h.post(
      'order/search',
      { numbers: `NOPE-1\nNOPE-2\n${known.order_no}\nNOPE-1`, offset: 0, limit: 10 },
      demo,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data.notFound).toEqual(['NOPE-2', 'NOPE-1']);
    expect(r.body.data.total).toBe(1);
  });
});

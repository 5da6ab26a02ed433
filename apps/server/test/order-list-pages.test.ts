/**
 * The order list finds a page's ids first and reads only those rows (a deferred join, for speed at
 * 1M orders): its pages must be exactly what the plain join would answer — same rows, same order,
 * same scope — for every sort, direction, page and the intercepted filter (which now has a
 * partial index and a literal condition beside its bound one). Sorts by status, channel and print
 * count break ties by creation time, then id (the order their indexes hold); the others by id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  // Some intercepted orders of both customers, print counts that tie, and creation times that
  // tie in pairs, so both tie-breaks (creation time, then id) are checked.
  const ids = (await h.db.selectFrom('orders').select('id').orderBy('id').execute()).map((r) => r.id);
  expect(ids.length).toBeGreaterThan(20);
  for (const [k, id] of ids.entries()) {
    await h.db
      .updateTable('orders')
      .set({
        intercepted: k % 4 === 0 ? 1 : 0,
        print_count: k % 3,
        created_at: new Date(Date.UTC(2026, 10, 1) + Math.floor(((k * 7) % ids.length) / 2) * 60_000).toISOString(),
      })
      .where('id', '=', id)
      .execute();
  }
});
afterAll(() => h?.app.close());

/** Sorts whose ties break by creation time before id (orders.repository SORT_ORDER). */
const BY_TIME = new Set(['status', 'printCount', 'channel']);
const SORT = {
  createdAt: 'created_at',
  orderNo: 'order_no',
  waybillNo: 'waybill_no',
  status: 'status',
  printCount: 'print_count',
  channel: 'channel_code',
} as const;

/** The plain answer: every visible order of the scope, sorted in JavaScript. */
async function expected(
  customerIds: number[] | null,
  sort: keyof typeof SORT,
  order: 'asc' | 'desc',
  intercepted?: boolean,
) {
  let q = h.db.selectFrom('orders').select(['id', 'created_at', SORT[sort]]);
  if (customerIds) q = q.where('customer_id', 'in', customerIds);
  if (intercepted !== undefined) q = q.where('intercepted', '=', intercepted ? 1 : 0);
  const rows = (await q.execute()) as Record<string, unknown>[];
  const dir = order === 'asc' ? 1 : -1;
  return rows
    .sort((a, b) => {
      const x = a[SORT[sort]] as string | number;
      const y = b[SORT[sort]] as string | number;
      if (x !== y) return (x < y ? -1 : 1) * dir;
      const [s, t] = [a.created_at as string, b.created_at as string];
      if (BY_TIME.has(sort) && s !== t) return (s < t ? -1 : 1) * dir;
      return ((a.id as number) - (b.id as number)) * dir;
    })
    .map((r) => r.id as number);
}

describe('order list pages (deferred join)', () => {
  it('answer the same rows in the same order as the plain query, for every sort, page and scope', async () => {
    const customers = await h.db.selectFrom('customers').select(['id', 'code']).execute();
    const demoId = customers.find((c) => c.code === 'DEMO')!.id;
    const agentIds = (
      await h.db
        .selectFrom('customers')
        .innerJoin('users', 'users.id', 'customers.agent_user_id')
        .select('customers.id')
        .where('users.name', '=', 'agent')
        .execute()
    ).map((r) => r.id);
    expect(agentIds.length).toBeGreaterThan(1);
    const users: [string, number[] | null][] = [
      ['demo', [demoId]],
      ['agent', agentIds],
      ['operator', null],
    ];
    let compared = 0;
    for (const [name, scope] of users) {
      const token = await h.login(name);
      for (const sort of Object.keys(SORT) as (keyof typeof SORT)[]) {
        for (const order of ['asc', 'desc'] as const) {
          for (const intercepted of [undefined, true, false]) {
            const all = await expected(scope, sort, order, intercepted);
            expect(all.length).toBeGreaterThan(0);
            for (const offset of [0, 5, all.length - 2]) {
              const body = { offset, limit: 5, sort, order, ...(intercepted === undefined ? {} : { intercepted }) };
              const r = await h.post('order/orderList', body, token);
              expect(r.status, JSON.stringify(body)).toBe(200);
              const got = r.body.data.list.map((x: { id: number }) => x.id);
              expect(got, `${name} ${JSON.stringify(body)}`).toEqual(all.slice(offset, offset + 5));
              expect(r.body.data.total).toBe(all.length);
              compared++;
            }
          }
        }
      }
    }
    expect(compared).toBe(3 * 6 * 2 * 3 * 3);
  });
});

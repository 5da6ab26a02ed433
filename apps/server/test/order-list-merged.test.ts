import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../src/lib/scope.ts';
import { createOrderListRepository } from '../src/modules/orders/orders.list.repository.ts';
import { createHarness, type Harness } from './harness.ts';

/**
 * Issue 29: in a scope of a few customers (an agent's) the order list reads each customer's
 * page off its own index and merges them (pageIdsByCustomer). Merged pages must be the pages the
 * plain `customer_id in (…)` query gives, for every sort, direction, filter and page, on both
 * engines (the suite runs on PostgreSQL too). The demo seed's 60 orders are spread over the
 * agent's two customers, with every status, channel and several print counts.
 */
let h: Harness;
let agentScope: Scope;
beforeAll(async () => {
  h = await createHarness();
  const agent = await h.db.selectFrom('users').select('id').where('name', '=', 'agent').executeTakeFirstOrThrow();
  const ids = (
    await h.db.selectFrom('customers').select('id').where('agent_user_id', '=', agent.id).orderBy('id').execute()
  ).map((c) => c.id);
  agentScope = { all: false, customerIds: ids };
});
afterAll(() => h?.app.close());

const SORTS = ['createdAt', 'orderNo', 'waybillNo', 'status', 'printCount', 'channel'] as const;
const FILTERS: Record<string, unknown>[] = [{}, { status: 'created' }, { channel: 'JP' }, { printFlag: true }];
const PAGES = [
  [0, 20],
  [5, 7],
  [25, 20],
  [200, 20],
] as const;

describe('an agent order list merged per customer', () => {
  it('covers both of the agent customers, each with orders', async () => {
    if (agentScope.all) throw new Error('the agent sees every customer');
    const ids = agentScope.customerIds;
    expect(ids.length).toBe(2);
    for (const id of ids) {
      const { n } = await h.db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('customer_id', '=', id)
        .executeTakeFirstOrThrow();
      expect(Number(n)).toBeGreaterThan(5);
    }
  });

  it('gives the same pages and totals as the plain query, for every sort, direction, filter and page', async () => {
    const merged = createOrderListRepository(h.db);
    const plain = createOrderListRepository(h.db, { mergedCustomers: 1 });
    let compared = 0;
    for (const sort of SORTS)
      for (const order of ['asc', 'desc'] as const)
        for (const filter of FILTERS)
          for (const [offset, limit] of PAGES) {
            const body = { sort, order, offset, limit, ...filter } as never;
            const [a, b] = await Promise.all([merged.listPage(agentScope, body), plain.listPage(agentScope, body)]);
            const what = JSON.stringify({ sort, order, offset, limit, ...filter });
            expect(
              a.list.map((r) => r.id),
              what,
            ).toEqual(b.list.map((r) => r.id));
            expect({ total: a.total, exact: a.exact }, what).toEqual({ total: b.total, exact: b.exact });
            if (a.list.length) compared++;
          }
    // Most bodies have rows: the comparison is not of empty pages.
    expect(compared).toBeGreaterThan(SORTS.length * 2 * FILTERS.length * 2);
  });
});

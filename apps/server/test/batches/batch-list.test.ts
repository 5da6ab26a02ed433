import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness.ts';

/**
 * The batch list as bench:lists made it (issue 29): ids found on `batches` alone, the number's
 * "contains" search a plain LIKE on the upper-cased text, the total counted only when the page
 * cannot say it. Batches written straight into the table: 30 of DEMO's, 5 of DEMO2's.
 */
let h: Harness;
let demo: string;
let operator: string;
const numbers: string[] = [];

beforeAll(async () => {
  h = await createHarness();
  [demo, operator] = await Promise.all(['demo', 'operator'].map((n) => h.login(n)));
  const customers = await h.db.selectFrom('customers').select(['id', 'code']).execute();
  const user = await h.db.selectFrom('users').select('id').where('name', '=', 'operator').executeTakeFirstOrThrow();
  const idOf = (code: string) => customers.find((c) => c.code === code)!.id;
  const t0 = Date.parse('2026-10-01T00:00:00Z');
  const rows = Array.from({ length: 35 }, (_, i) => {
    const at = new Date(t0 + i * 3_600_000).toISOString();
    const batchNo = `B20261001${String(900_000_000 + i).slice(0, 9)}`;
    numbers.push(batchNo);
    return {
      batch_no: batchNo,
      customer_id: idOf(i < 30 ? 'DEMO' : 'DEMO2'),
      channel_code: 'JP',
      template_kind: 'order',
      status: i % 10 === 3 ? 'failed' : 'done',
      created_by: user.id,
      created_at: at,
      updated_at: at,
    };
  });
  await h.db.insertInto('batches').values(rows).execute();
});
afterAll(() => h?.app.close());

const list = async (token: string, body: Record<string, unknown>) => {
  // The days of the batches written here: the demo seed's own batches are not among them.
  const r = await h.post(
    'order/batches',
    { offset: 0, limit: 10, from: '2026-10-01', to: '2026-10-02', ...body },
    token,
  );
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data as { total: number; list: { batchNo: string; customer: { code: string } | string }[] };
};

describe('the batch list: numbers, totals and scope', () => {
  it('finds a number by any part of it, typed in lower case, and counts a page that says its own end', async () => {
    const one = await list(demo, { batchNo: numbers[7]!.slice(3).toLowerCase() });
    expect(one.list.map((b) => b.batchNo)).toEqual([numbers[7]]);
    expect(one.total).toBe(1);
    const lower = await list(operator, { batchNo: 'b2026100190000000' });
    expect(lower.list.map((b) => b.batchNo).sort()).toEqual(numbers.slice(0, 10).sort());
    expect(lower.total).toBe(10);
  });

  it('matches % and _ as typed, not as wildcards', async () => {
    expect((await list(operator, { batchNo: '%' })).total).toBe(0);
    expect((await list(operator, { batchNo: 'B2026100_' })).total).toBe(0);
  });

  it('counts when the page is full, newest first, within the caller scope', async () => {
    const first = await list(demo, {});
    expect(first.total).toBe(30);
    expect(first.list.map((b) => b.batchNo)).toEqual(numbers.slice(20, 30).reverse());
    const last = await list(demo, { offset: 25 });
    expect(last.total).toBe(30);
    expect(last.list).toHaveLength(5);
    const past = await list(demo, { offset: 40 });
    expect(past).toMatchObject({ total: 30, list: [] });
    expect((await list(operator, {})).total).toBe(35);
    expect((await list(demo, { status: 'failed' })).total).toBe(3);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness.ts';
import { v1 } from '../api-v1/helpers.ts';

/**
 * docs/api-v1.md's quickstart, step by step, with its own bodies read from the page: making a key
 * by the console's call, creating the order it shows with an Idempotency-Key, getting it by id and
 * number, and listing it with `updatedSince`. A body the page shows that the server refuses fails here.
 */
const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../../../../docs/api-v1.md'), 'utf8');
/**
 * The JSON after `-d '` in the n-th curl of the page. Only the steps this test replays are parsed:
 * later steps may abbreviate (the batch's `{…an order as in step 2…}`).
 */
const bodyOf = (n: number) => JSON.parse([...doc.matchAll(/-d '(\{[\s\S]*?\})'/g)][n]![1]!);

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});

describe('docs/api-v1.md quickstart', () => {
  it('works as written', async () => {
    const login = await h.post('login', bodyOf(0));
    expect(login.status).toBe(200);
    const made = await h.post('apiKey/create', bodyOf(1), login.body.data.access_token);
    expect(made.status).toBe(200);
    const key = made.body.data.key as string;
    const order = bodyOf(2);
    const created = await v1(h.app, 'POST', 'orders', key, {
      body: order,
      headers: { 'idempotency-key': 'quickstart-1' },
    });
    expect(created.status, created.raw).toBe(200);
    const id = created.body.data.id as number;
    expect((await v1(h.app, 'GET', `orders/${id}`, key)).body.data.orderNo).toBe(order.orderNo);
    const byNo = await v1(h.app, 'GET', `orders?orderNo=${order.orderNo}`, key);
    expect(byNo.body.data.list.map((o: { id: number }) => o.id)).toEqual([id]);
    const since = await v1(
      h.app,
      'GET',
      `orders?updatedSince=${encodeURIComponent('2000-01-01T00:00:00Z')}&limit=2`,
      key,
    );
    expect(since.status).toBe(200);
    expect(since.body.data.nextCursor).not.toBeNull();
    const next = await v1(
      h.app,
      'GET',
      `orders?updatedSince=2000-01-01T00:00:00Z&limit=2&cursor=${since.body.data.nextCursor}`,
      key,
    );
    expect(next.status).toBe(200);
  });
});

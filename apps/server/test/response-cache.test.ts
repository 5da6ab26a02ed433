import { DatabaseSync } from 'node:sqlite';
import path from 'node:path';
import { orders } from '@console/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { versionedCache } from '../src/db/versioned-cache.ts';
import { responseCacheStats } from '../src/http/response-cache.ts';
import { createHarness, type Harness } from './harness.ts';

let h: Harness;
let demo: string;
let demo2: string;
beforeAll(async () => {
  h = await createHarness();
  demo = await h.login('demo');
  demo2 = await h.login('demo2');
});

const page = async (token: string, body: Record<string, unknown> = {}) => {
  const r = await h.call(orders.orderList, { offset: 0, limit: 5, ...body } as never, token);
  expect(r.status).toBe(200);
  return r.body.data as { total: number; list: { id: number; orderNo: string; recipientName: string }[] };
};

describe('the order list answer cache', () => {
  it('answers the same page twice identically, and never across tenants', async () => {
    const a = await page(demo);
    const b = await page(demo);
    expect(b).toEqual(a);
    const other = await page(demo2);
    const mine = new Set(a.list.map((o) => o.id));
    expect(other.list.some((o) => mine.has(o.id))).toBe(false);
  });

  it('shows a change made through the API on the very next call', async () => {
    // A created order that can be deleted: the seed intercepts some created orders.
    const before = await page(demo, { status: 'created', intercepted: false });
    expect(before.list.length).toBeGreaterThan(0);
    const first = before.list[0]!;
    const del = await h.call(orders.orderDelete, { ids: [first.id] }, demo);
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    const after = await page(demo, { status: 'created', intercepted: false });
    expect(after.list.map((o) => o.id)).not.toContain(first.id);
    expect(after.total).toBe(before.total - 1);
  });

  it('shows a change committed by another connection (another process) on the next call', async () => {
    const before = await page(demo);
    const target = before.list[0]!;
    if (process.env.TEST_DATABASE_URL) {
      await h.db.updateTable('orders').set({ recipient_name: '赵六' }).where('id', '=', target.id).execute();
    } else {
      const other = new DatabaseSync(path.join(h.dataDir, 'test.sqlite'));
      other.prepare('update orders set recipient_name = ? where id = ?').run('赵六', target.id);
      other.close();
    }
    const after = await page(demo);
    const row = after.list.find((o) => o.id === target.id)!;
    // Names are masked in lists: 赵六 → 赵*. The seeded names are not 赵.
    expect(target.recipientName.startsWith('赵')).toBe(false);
    expect(row.recipientName).toBe('赵*');
  });
});

// PostgreSQL has no cheap data version: nothing is cached there (db/versioned-cache.ts), so
// these cases are defined on SQLite only.
if (!process.env.TEST_DATABASE_URL)
  describe('the read cache under a writer (issue 10 finding 21)', () => {
    it('a commit retires every entry at once, not one at a time as new ones push them out', async () => {
      const cache = versionedCache<string>(h.db, 100);
      for (const k of ['a', 'b', 'c']) expect(await cache(k, async () => `${k}1`)).toBe(`${k}1`);
      expect(await cache('a', async () => 'never')).toBe('a1');
      expect(cache.stats()).toMatchObject({ hits: 1, misses: 3, size: 3 });
      // Another user's write commits: none of the three may be given out again, and none stays held.
      await h.db.updateTable('customers').set({ name: 'DEMO Trading' }).where('code', '=', 'DEMO').execute();
      await new Promise((r) => setImmediate(r));
      expect(await cache('a', async () => 'a2')).toBe('a2');
      expect(cache.stats()).toMatchObject({ hits: 1, misses: 4, retired: 3, size: 1 });
    });

    it('the order list cache counts its hits and misses where a benchmark can read them', async () => {
      const before = responseCacheStats(h.db)['order/orderList']!;
      await page(demo, { limit: 7 });
      await page(demo, { limit: 7 });
      const after = responseCacheStats(h.db)['order/orderList']!;
      expect(after.misses - before.misses).toBeGreaterThanOrEqual(1);
      expect(after.hits + after.misses - before.hits - before.misses).toBe(2);
    });
  });

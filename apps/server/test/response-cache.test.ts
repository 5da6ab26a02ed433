import { DatabaseSync } from 'node:sqlite';
import path from 'node:path';
import { orders } from '@console/contract';
import { beforeAll, describe, expect, it } from 'vitest';
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
    const before = await page(demo, { status: 'created' });
    const first = before.list[0]!;
    const del = await h.call(orders.orderDelete, { ids: [first.id] }, demo);
    expect(del.status).toBe(200);
    const after = await page(demo, { status: 'created' });
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

import { beforeAll, describe, expect, it } from 'vitest';
import { currentTenant } from '../src/lib/fair-turns.ts';
import { createHarness, type Harness } from './harness.ts';
import { waitFor } from './support/jobs.ts';
import { heldStore, INSTANCES_ENV } from './support/two-instances.ts';

/**
 * Issue 36 item 3: one customer's thirty parallel exports filled the render queue and another
 * customer's one-page export waited a minute behind them. A tenant's renders asked and not yet
 * answered are bounded (RENDERS_QUEUED_PER_TENANT, lib/render-bound.ts): one past it is refused
 * at once with 429 and a key of the catalogue, another tenant is not, and a slot comes back when a
 * render ends. demo's renders are held under way by holding the file store's writes made in its
 * calls (the render's input goes to the store first).
 */
let demoTenant = '';
let held_ = 0;
const held = heldStore('put', () => {
  if (currentTenant() !== demoTenant) return false;
  held_++;
  return true;
});

let h: Harness;
let demo: string;
let demo2: string;
beforeAll(async () => {
  h = await createHarness({ env: { ...INSTANCES_ENV, RENDERS_QUEUED_PER_TENANT: '2' }, storage: held.storage });
  held.attach(h);
  [demo, demo2] = await Promise.all([h.login('demo'), h.login('demo2')]);
  const u = await h.db.selectFrom('users').select('customer_id').where('name', '=', 'demo').executeTakeFirstOrThrow();
  demoTenant = `c${u.customer_id}`;
});

const exportOrders = (token: string, lang = 'en') =>
  h.post('order/downloadOrderExcel', {}, token, { 'accept-language': lang });

describe('a bound on one tenant’s renders asked at once', () => {
  it('past the bound a call answers 429 at once, in the caller’s language; another tenant’s is served; a slot comes back', async () => {
    const gate = held.closeGate();
    let first: Awaited<ReturnType<typeof exportOrders>>[];
    try {
      const pending = [exportOrders(demo), exportOrders(demo)];
      await waitFor("demo's two renders under way", () => held_ >= 2);
      // The third: refused, not queued (before the bound it waited at the gate like the others).
      let third: Awaited<ReturnType<typeof exportOrders>> | undefined;
      void exportOrders(demo).then((r) => (third = r));
      await waitFor("demo's third call answered while its two are held", () => third !== undefined);
      expect(third!.status).toBe(429);
      expect(third!.body).toMatchObject({ code: 429, key: 'rendersQueuedTooMany', data: null });
      expect(third!.body.message).toMatch(/2 downloads or exports/);
      const zh = await exportOrders(demo, 'zh-CN');
      expect(zh.status).toBe(429);
      expect(zh.body.message).toMatch(/已有 2 个下载或导出/);
      expect(held_).toBe(2);
      // Another customer's export is its own tenant's: served while demo's wait.
      const other = await exportOrders(demo2);
      expect(other.status).toBe(200);
      gate.open();
      first = await Promise.all(pending);
    } finally {
      gate.open();
    }
    expect(first.map((r) => r.status)).toEqual([200, 200]);
    // Both ended: demo may ask again.
    expect((await exportOrders(demo)).status).toBe(200);
  }, 60_000);
});

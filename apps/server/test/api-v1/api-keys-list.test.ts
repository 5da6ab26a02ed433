import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness.ts';
import { makeKey } from './helpers.ts';

/**
 * Issue 39, the API key list paged on the server like every console list: offset, limit, sort and
 * order, a keyword on name or prefix, revoked keys when asked; `total` counts what the filters
 * match in the caller's keys only.
 */
let h: Harness;
let demo: string;
let demo2: string;
let admin: string;
const made: { id: number; prefix: string; name: string }[] = [];

const list = async (token: string, body: Record<string, unknown>) => {
  const r = await h.post('apiKey/list', body, token);
  expect(r.status).toBe(200);
  return r.body.data as {
    total: number;
    list: { id: number; name: string; prefix: string; revokedAt: string | null }[];
  };
};

beforeAll(async () => {
  h = await createHarness();
  [demo, demo2, admin] = await Promise.all(['demo', 'demo2', 'admin'].map((n) => h.login(n)));
  for (const name of ['ERP', 'Shop', 'Audit', 'WMS', 'Billing'])
    made.push({ ...(await makeKey(h, demo, { name })), name });
  await makeKey(h, demo2, { name: 'Other' });
  // The third key made (Audit) is revoked.
  expect((await h.post('apiKey/revoke', { id: made[2]!.id }, demo)).status).toBe(200);
});

describe('apiKey/list pages on the server', () => {
  it('pages newest first by default, with the total of live keys', async () => {
    const first = await list(demo, { limit: 2 });
    expect(first.total).toBe(4);
    expect(first.list.map((k) => k.name)).toEqual(['Billing', 'WMS']);
    const second = await list(demo, { limit: 2, offset: 2 });
    expect(second.list.map((k) => k.name)).toEqual(['Shop', 'ERP']);
  });

  it('sorts by name either way, and takes revoked keys when asked', async () => {
    const asc = await list(demo, { sort: 'name', order: 'asc', includeRevoked: true });
    expect(asc.total).toBe(5);
    expect(asc.list.map((k) => k.name)).toEqual(['Audit', 'Billing', 'ERP', 'Shop', 'WMS']);
    const desc = await list(demo, { sort: 'name', order: 'desc', limit: 1 });
    expect([desc.total, desc.list.map((k) => k.name)]).toEqual([4, ['WMS']]);
  });

  it('filters by a keyword in the name or the prefix, within the caller’s keys', async () => {
    expect((await list(demo, { keyword: 'sho' })).list.map((k) => k.name)).toEqual(['Shop']);
    const byPrefix = await list(demo, { keyword: made[0]!.prefix });
    expect(byPrefix.list.map((k) => k.id)).toEqual([made[0]!.id]);
    // Another customer's key is not found by its name; the admin finds it.
    expect((await list(demo, { keyword: 'Other' })).total).toBe(0);
    expect((await list(demo2, {})).list.map((k) => k.name)).toEqual(['Other']);
    expect((await list(admin, { keyword: 'Other' })).total).toBe(1);
  });

  it('refuses an unknown sort', async () => {
    expect((await h.post('apiKey/list', { sort: 'secretHash' }, demo)).status).toBe(422);
  });
});

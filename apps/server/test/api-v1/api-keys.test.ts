import { beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../src/lib/crypto.ts';
import { createHarness, type Harness } from '../harness.ts';
import { customerIdOf, makeKey, v1 } from './helpers.ts';

/**
 * Issue 39, API keys: made in the console, shown once, stored as a hash, listed by prefix,
 * revoked (refused from the next request on), audited; a key never opens a console call and a
 * session never opens a v1 call.
 */
let h: Harness;
let demo: string;
let demo2: string;
let agent: string;
let admin: string;
let operator: string;

beforeAll(async () => {
  h = await createHarness();
  [demo, demo2, agent, admin, operator] = await Promise.all(
    ['demo', 'demo2', 'agent', 'admin', 'operator'].map((n) => h.login(n)),
  );
});

describe('making and listing keys', () => {
  it('shows the key once, stores only its SHA-256, lists it by prefix with its maker, and audits', async () => {
    const made = await makeKey(h, demo, {
      name: 'ERP',
      scopes: ['orders:read'],
      expiresAt: '2099-01-01T00:00:00+08:00',
    });
    expect(made.key).toMatch(/^ck_live_[a-z2-7]{8}_[A-Za-z0-9_-]{43}$/);
    expect(made.key.startsWith(`${made.prefix}_`)).toBe(true);
    const row = await h.db.selectFrom('api_keys').selectAll().where('id', '=', made.id).executeTakeFirstOrThrow();
    expect(row.secret_hash).toBe(sha256(made.key));
    expect(JSON.stringify(row)).not.toContain(made.key.slice(made.prefix.length));

    const list = await h.post('apiKey/list', {}, demo);
    const listed = list.body.data.list.find((k: { id: number }) => k.id === made.id);
    expect(listed).toMatchObject({
      name: 'ERP',
      prefix: made.prefix,
      scopes: ['orders:read'],
      createdBy: 'demo',
      customerCode: 'DEMO',
      expiresAt: '2098-12-31T16:00:00.000Z',
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(JSON.stringify(list.body)).not.toContain(made.key);
    // Another customer does not see it; the admin does.
    expect((await h.post('apiKey/list', {}, demo2)).body.data.list.map((k: { id: number }) => k.id)).not.toContain(
      made.id,
    );
    expect((await h.post('apiKey/list', {}, admin)).body.data.list.map((k: { id: number }) => k.id)).toContain(made.id);

    const audits = await h.db.selectFrom('audit_log').selectAll().where('action', '=', 'apiKey.create').execute();
    const mine = audits.find((a) => a.target === `apiKey:${made.prefix}`);
    expect(mine?.user_name).toBe('demo');
    expect(mine?.detail).not.toContain(made.key);
  });

  it('refuses an expiry in the past, staff makers, and an agent limiting a key to a customer not its own', async () => {
    const past = await h.post(
      'apiKey/create',
      { name: 'x', scopes: ['orders:read'], expiresAt: '2001-01-01T00:00:00Z' },
      demo,
    );
    expect(past.status).toBe(422);
    expect(Object.keys(past.body.data)).toEqual(['expiresAt']);
    // The operator lacks the permission; the admin holds every route but has no tenant to give a key.
    expect((await h.post('apiKey/create', { name: 'x', scopes: ['orders:read'] }, operator)).status).toBe(403);
    const staff = await h.post('apiKey/create', { name: 'x', scopes: ['orders:read'] }, admin);
    expect([staff.status, staff.body.key]).toEqual([403, 'apiKeyNotForStaff']);
    const other = await h.post('apiKey/create', { name: 'x', scopes: ['orders:read'], customerIds: [999_999] }, agent);
    expect([other.status, Object.keys(other.body.data)]).toEqual([422, ['customerIds']]);
    const demoId = await customerIdOf(h, 'DEMO');
    const asCustomer = await h.post(
      'apiKey/create',
      { name: 'x', scopes: ['orders:read'], customerIds: [demoId] },
      demo,
    );
    expect(asCustomer.status).toBe(422);
  });
});

describe('the customers a key acts for', () => {
  it("an agent's key limited to some customers lists them by code and name, not only by id", async () => {
    const mine = await h.db
      .selectFrom('customers')
      .innerJoin('users', 'users.id', 'customers.agent_user_id')
      .select(['customers.id', 'customers.code', 'customers.name'])
      .where('users.name', '=', 'agent')
      .orderBy('customers.id')
      .execute();
    expect(mine.length).toBeGreaterThan(0);
    const made = await h.post(
      'apiKey/create',
      { name: 'ERP', scopes: ['orders:read'], customerIds: mine.map((c) => c.id).reverse() },
      agent,
    );
    expect(made.status).toBe(200);
    const expected = mine.map((c) => ({ id: c.id, code: c.code, name: c.name }));
    expect(made.body.data.customers).toEqual(expected);
    const listed = (await h.post('apiKey/list', {}, agent)).body.data.list.find(
      (k: { id: number }) => k.id === made.body.data.id,
    );
    expect(listed).toMatchObject({ customerIds: mine.map((c) => c.id), customers: expected });
    // The admin's list says it too; an unlimited key and a customer's key list none.
    const all = (await h.post('apiKey/list', {}, admin)).body.data.list.find(
      (k: { id: number }) => k.id === made.body.data.id,
    );
    expect(all.customers).toEqual(expected);
    const open = await h.post('apiKey/create', { name: 'all', scopes: ['orders:read'] }, agent);
    expect([open.body.data.customerIds, open.body.data.customers]).toEqual([[], []]);
    const own = await h.post('apiKey/create', { name: 'own', scopes: ['orders:read'] }, demo);
    expect([own.body.data.customerCode, own.body.data.customers]).toEqual(['DEMO', []]);
  });
});

describe('revoking', () => {
  it('refuses a revoked key on the very next request, writes an audit row, and lets only its tenant or the admin revoke', async () => {
    const made = await makeKey(h, demo);
    expect((await v1(h.app, 'GET', 'orders?limit=1', made.key)).status).toBe(200);
    // Another customer cannot revoke it (as if it did not exist).
    expect((await h.post('apiKey/revoke', { id: made.id }, demo2)).status).toBe(404);
    expect((await v1(h.app, 'GET', 'orders?limit=1', made.key)).status).toBe(200);

    // A second instance on the same database has served the key (anything it kept, it kept now).
    const other = await h.restarted();
    expect((await v1(other, 'GET', 'orders?limit=1', made.key)).status).toBe(200);

    expect((await h.post('apiKey/revoke', { id: made.id }, demo)).status).toBe(200);
    // Refused on the next request by both instances: nothing waits for a cache to expire.
    for (const app of [h.app, other]) {
      const refused = await v1(app, 'GET', 'orders?limit=1', made.key);
      expect([refused.status, refused.body.key]).toEqual([401, 'apiKeyInvalid']);
    }
    const audit = await h.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'apiKey.revoke')
      .where('target', '=', `apiKey:${made.prefix}`)
      .execute();
    expect(audit.map((a) => a.user_name)).toEqual(['demo']);

    // The admin revokes anyone's key.
    const theirs = await makeKey(h, demo2);
    expect((await h.post('apiKey/revoke', { id: theirs.id }, admin)).status).toBe(200);
    expect((await v1(h.app, 'GET', 'orders?limit=1', theirs.key)).status).toBe(401);
    const listed = (await h.post('apiKey/list', { includeRevoked: true }, demo2)).body.data.list;
    expect(listed.find((k: { id: number }) => k.id === theirs.id).revokedAt).not.toBeNull();
  });

  it('refuses an expired key', async () => {
    const made = await makeKey(h, demo, { expiresAt: new Date(h.clock.now.getTime() + 60_000).toISOString() });
    expect((await v1(h.app, 'GET', 'orders?limit=1', made.key)).status).toBe(200);
    const was = h.clock.now;
    h.clock.now = new Date(was.getTime() + 61_000);
    try {
      expect((await v1(h.app, 'GET', 'orders?limit=1', made.key)).body.key).toBe('apiKeyInvalid');
    } finally {
      h.clock.now = was;
    }
  });
});

describe('the two doors', () => {
  it('refuses a session token on v1 and an API key on a console call', async () => {
    const session = await v1(h.app, 'GET', 'orders', demo);
    expect([session.status, session.body.key]).toEqual([401, 'sessionNotForApi']);
    const none = await v1(h.app, 'GET', 'orders', undefined);
    expect([none.status, none.body.key]).toEqual([401, 'apiKeyInvalid']);
    const made = await makeKey(h, demo);
    const consoleCall = await h.post('order/order', { id: 1 }, made.key);
    expect([consoleCall.status, consoleCall.body.key]).toEqual([401, 'apiKeyNotForConsole']);
    const keys = await h.post('apiKey/list', {}, made.key);
    expect(keys.status).toBe(401);
  });

  it('updates last-used at most once a minute', async () => {
    const made = await makeKey(h, demo);
    const lastUsed = async () =>
      (await h.db.selectFrom('api_keys').select('last_used_at').where('id', '=', made.id).executeTakeFirstOrThrow())
        .last_used_at;
    const was = h.clock.now;
    try {
      await v1(h.app, 'GET', 'orders?limit=1', made.key);
      const first = await lastUsed();
      expect(first).toBe(was.toISOString());
      h.clock.now = new Date(was.getTime() + 30_000);
      await v1(h.app, 'GET', 'orders?limit=1', made.key);
      expect(await lastUsed()).toBe(first);
      h.clock.now = new Date(was.getTime() + 61_000);
      await v1(h.app, 'GET', 'orders?limit=1', made.key);
      expect(await lastUsed()).toBe(h.clock.now.toISOString());
    } finally {
      h.clock.now = was;
    }
  });
});

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHarness, type Harness } from '../harness.ts';
import { waitFor } from '../support/jobs.ts';
import { webhookReceiver } from '../support/webhook-receiver.ts';
import { makeKey, v1 } from './helpers.ts';

/**
 * Issue 39, webhook delivery latency: deliveries run in a lane of their own, a customer's at most
 * its share at once per instance (docs/decisions/2026-12-07-webhook-delivery-lane.md). Two customers
 * whose endpoints never answer hold their share each, and no render or import holds any: another
 * customer's deliveries all succeed while theirs are still unanswered. Asserted on the recorded
 * state (the held requests still open, no attempt of theirs recorded), not on a time. Before the
 * lane, deliveries were heavy jobs: two slow customers (or two heavy renders) held both of an
 * instance's slots, and demo's waited until the endpoints' 10 s timeout let go.
 */
let h: Harness;
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
const WAIT_MS = 45_000;
/** A customer's share of the delivery lane (WEBHOOK_DELIVERY_PER_CUSTOMER). */
const SHARE = 2;
vi.setConfig({ testTimeout: 120_000 });
const scopes = ['orders:read', 'orders:write', 'webhooks:manage'];
let key: string;
/** The slow customers' keys and endpoints (demo2's and demo3's), each at a path that never answers. */
const slow: { key: string; endpointId: number; path: string }[] = [];
let endpointId: number;

/** An endpoint's deliveries, newest first, read from the table (polling v1 would meet its rate limit). */
const deliveriesOf = async (_key: string, endpoint: number) =>
  h.db
    .selectFrom('webhook_deliveries')
    .select(['id', 'status', 'attempts'])
    .where('endpoint_id', '=', endpoint)
    .orderBy('id', 'desc')
    .execute();

/** A third customer, demo3, with demo2's password: the seed has two. */
async function thirdCustomer() {
  const at = new Date().toISOString();
  const customer = await h.db
    .insertInto('customers')
    .values({ code: 'DEMO3', name: 'demo3', agent_user_id: null, created_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  const demo2 = await h.db.selectFrom('users').selectAll().where('name', '=', 'demo2').executeTakeFirstOrThrow();
  await h.db
    .insertInto('users')
    .values({
      name: 'demo3',
      display_name: 'demo3',
      password_hash: demo2.password_hash,
      role: 'customer',
      customer_id: customer.id,
      created_at: at,
      password_changed_at: at,
    })
    .execute();
}

/** Sends `n` test events to an endpoint; their event ids. */
async function testEvents(k: string, endpoint: number, n: number) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await v1(h.app, 'POST', `webhook-endpoints/${endpoint}/test`, k);
    expect(r.status).toBe(200);
    ids.push(r.body.data.eventId as string);
  }
  return ids;
}

beforeAll(async () => {
  receiver = await webhookReceiver();
  // Paths starting /slow are held (never answered until released); the rest answer 200.
  receiver.answer((r) => (r.path.startsWith('/slow') ? 'hold' : 200));
  h = await createHarness({
    env: {
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_RETRY_DELAY_SECONDS: '0',
      WEBHOOK_DELIVERY_CONCURRENCY: '8',
      WEBHOOK_DELIVERY_PER_CUSTOMER: String(SHARE),
    },
  });
  await thirdCustomer();
  const [demo, demo2, demo3] = await Promise.all([h.login('demo'), h.login('demo2'), h.login('demo3')]);
  key = (await makeKey(h, demo, { scopes })).key;
  const made = await v1(h.app, 'POST', 'webhook-endpoints', key, {
    body: { url: receiver.url('/fast'), eventTypes: ['order.created'] },
  });
  expect(made.status).toBe(200);
  endpointId = made.body.data.id;
  for (const [name, token] of [
    ['demo2', demo2],
    ['demo3', demo3],
  ] as const) {
    const k = (await makeKey(h, token, { scopes })).key;
    const path = `/slow-${name}`;
    const e = await v1(h.app, 'POST', 'webhook-endpoints', k, {
      body: { url: receiver.url(path), eventTypes: ['order.created'] },
    });
    expect(e.status).toBe(200);
    slow.push({ key: k, endpointId: e.body.data.id, path });
  }
});

afterAll(() => receiver.release());

const heldOf = (path: string) => receiver.received.filter((r) => r.path === path);

describe('a slow endpoint slows nobody else', () => {
  it("two customers' endpoints that never answer hold their share each: demo's deliveries all succeed meanwhile", async () => {
    // Each slow customer has one delivery more than its share waiting; its share gets under way and is held.
    for (const s of slow) await testEvents(s.key, s.endpointId, SHARE + 1);
    await waitFor(
      'both slow endpoints holding a request',
      () => slow.every((s) => heldOf(s.path).length >= SHARE),
      WAIT_MS,
    );

    const mine = await testEvents(key, endpointId, 5);
    await waitFor(
      "demo's five deliveries recorded",
      async () => (await deliveriesOf(key, endpointId)).filter((d) => d.status !== 'pending').length >= 5,
      WAIT_MS,
    );
    // Demo's all succeeded, once each, in a slot of their own …
    const got = await deliveriesOf(key, endpointId);
    expect(got.map((d) => [d.status, d.attempts])).toEqual(Array(5).fill(['succeeded', 1]));
    expect(
      receiver.received
        .filter((r) => mine.includes(r.id))
        .map((r) => r.id)
        .sort(),
    ).toEqual([...mine].sort());
    // … while each slow customer's first requests are still unanswered, and were its only ones: it
    // held its own share (the last waits), and nothing of it was recorded yet (no attempt ended).
    for (const s of slow) {
      const held = heldOf(s.path);
      expect(held.map((r) => r.closed)).toEqual(Array(SHARE).fill(false));
      const theirs = await deliveriesOf(s.key, s.endpointId);
      expect(theirs.map((d) => d.attempts)).toEqual(Array(SHARE + 1).fill(0));
    }
  });

  it('heavy jobs holding every shared slot do not hold deliveries', async () => {
    // Two tenants' heavy jobs (renders, imports) take the shared heavy slots and keep them.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const holding: number[] = [];
    h.app.jobs.unchecked.define<{ n: number }>({
      name: 'test-heavy-hold',
      run: async ({ n }) => {
        holding.push(n);
        await released;
      },
    });
    for (const n of [1, 2])
      await h.app.jobs.unchecked.enqueue('test-heavy-hold', { n }, { customerId: 900 + n, size: 'heavy' });
    try {
      await waitFor('both heavy jobs running', () => holding.length === 2, WAIT_MS);
      const before = (await deliveriesOf(key, endpointId)).length;
      const mine = await testEvents(key, endpointId, 3);
      await waitFor(
        "demo's three deliveries recorded",
        async () => (await deliveriesOf(key, endpointId)).filter((d) => d.status !== 'pending').length >= before + 3,
        WAIT_MS,
      );
      const got = (await deliveriesOf(key, endpointId)).slice(0, 3);
      expect(got.map((d) => d.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
      expect(mine.every((id) => receiver.received.some((r) => r.id === id))).toBe(true);
      // Recorded while both heavy jobs still held their slots (they end only below).
      expect(holding).toEqual([1, 2]);
    } finally {
      release();
    }
  });
});

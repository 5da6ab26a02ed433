import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../test/support/jobs.ts';
import { jpOrderBody } from '../test/support/orders.ts';
import { webhookReceiver } from '../test/support/webhook-receiver.ts';
import {
  client,
  freshDatabase,
  type ServerProcess,
  sleep,
  startHaproxy,
  startServer,
  stopServer,
  waitReady,
} from './cluster.ts';

/**
 * Issue 39 across instances: the v1 door as customers' systems meet it in production, two server
 * processes on one PostgreSQL behind haproxy round robin. What must hold across processes is kept
 * in the database (rate-limit windows, idempotency records, keys, the webhook outbox), and each
 * case below would break if any of it lived in one process: the per-key rate, one order for 20
 * parallel POSTs with one Idempotency-Key, a revoked key refused by both at once, and each webhook
 * event delivered once when nothing fails.
 */
const RATE = 30;
const ports = { lb: 8321, a: 8322, b: 8323 };

let db: Awaited<ReturnType<typeof freshDatabase>>;
let lb: ReturnType<typeof startHaproxy>;
const servers: Record<'a' | 'b', ServerProcess> = {} as never;
let api: ReturnType<typeof client>;
let demo: string;
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;

/** A v1 call through `base` (the balancer or one instance): status, body, the instance that answered. */
async function v1(base: string, method: 'GET' | 'POST', path: string, key: string, body?: unknown, idem?: string) {
  const r = await fetch(`${base}/v1/${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      'accept-language': 'en',
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(idem ? { 'idempotency-key': idem } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await r.text();
  return { status: r.status, text, body: JSON.parse(text), servedBy: r.headers.get('x-served-by') };
}

async function makeKey(scopes: string[]) {
  const r = await api.post('apiKey/create', { name: `cluster-${scopes.join('-')}`, scopes }, demo);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data as { key: string; id: number };
}

beforeAll(async () => {
  db = await freshDatabase();
  receiver = await webhookReceiver();
  const env = {
    DATABASE_URL: db.url,
    JD_SECRET_KEY: 'a1'.repeat(32),
    FILE_STORE: 'database',
    JOB_LEASE_SECONDS: '10',
    JOB_POLL_SECONDS: '0.5',
    API_RATE_LIMIT_PER_MINUTE: String(RATE),
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    WEBHOOK_ALLOW_HTTP: 'true',
  };
  servers.a = startServer('v1a', ports.a, env);
  servers.b = startServer('v1b', ports.b, env);
  await Promise.all([waitReady(servers.a), waitReady(servers.b)]);
  lb = startHaproxy(ports.lb, [
    { name: 'a', port: ports.a },
    { name: 'b', port: ports.b },
  ]);
  api = client(lb.url);
  // haproxy marks a server up after two passed checks.
  for (let i = 0; i < 100; i++) {
    const calls = [0, 1, 2, 3].map(() => api.post('login', {}).catch(() => null));
    const seen = new Set((await Promise.all(calls)).map((r) => r?.servedBy));
    if (seen.has('a') && seen.has('b')) break;
    await sleep(100);
  }
  demo = await api.login('demo');
}, 180_000);

afterAll(async () => {
  await lb?.stop();
  for (const s of Object.values(servers)) await stopServer(s, 'SIGKILL');
  await db?.drop();
  for (const s of Object.values(servers)) fs.rmSync(s.dataDir, { recursive: true, force: true });
}, 60_000);

describe('the v1 API on two instances behind haproxy', () => {
  it('one rate per key across both instances: 40 parallel calls, exactly the budget answered', async () => {
    const { key } = await makeKey(['orders:read']);
    // The budget is a calendar minute's: start early enough in one that the burst cannot straddle two.
    while (new Date().getSeconds() > 40) await sleep(250);
    const answers = await Promise.all(
      Array.from({ length: RATE + 10 }, () => v1(lb.url, 'GET', 'orders?limit=1', key)),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(RATE);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    expect(new Set(answers.map((a) => a.servedBy))).toEqual(new Set(['a', 'b']));
    for (const a of answers.filter((x) => x.status === 429)) expect(a.body.key).toBe('tooManyRequests');
  });

  it('20 parallel POSTs with one Idempotency-Key through both instances make one order', async () => {
    const { key } = await makeKey(['orders:read', 'orders:write']);
    const body = jpOrderBody('CLV1');
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => v1(lb.url, 'POST', 'orders', key, body, `cl-${body.orderNo}`)),
    );
    const ok = answers.filter((a) => a.status === 200);
    const busy = answers.filter((a) => a.status === 409);
    expect(ok.length + busy.length, JSON.stringify(answers.map((a) => a.status))).toBe(20);
    expect(new Set(ok.map((a) => a.text)).size).toBe(1);
    for (const b of busy) expect(b.body.key).toBe('requestInProgress');
    expect(new Set(answers.map((a) => a.servedBy))).toEqual(new Set(['a', 'b']));
    const list = await v1(lb.url, 'GET', `orders?orderNo=${body.orderNo}`, key);
    expect(list.status).toBe(200);
    expect(list.body.data.list.filter((o: { orderNo: string }) => o.orderNo === body.orderNo)).toHaveLength(1);
  });

  it('a revoked key is refused by both instances on their next call', async () => {
    const made = await makeKey(['orders:read']);
    for (const port of [ports.a, ports.b])
      expect((await v1(`http://127.0.0.1:${port}/api`, 'GET', 'orders?limit=1', made.key)).status).toBe(200);
    const revoked = await api.post('apiKey/revoke', { id: made.id }, demo);
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    for (const port of [ports.a, ports.b]) {
      const r = await v1(`http://127.0.0.1:${port}/api`, 'GET', 'orders?limit=1', made.key);
      expect(r.status).toBe(401);
    }
  });

  it('each webhook event is delivered once when nothing fails, whichever instance relays it', async () => {
    const { key } = await makeKey(['orders:read', 'orders:write', 'webhooks:manage']);
    const endpoint = await v1(lb.url, 'POST', 'webhook-endpoints', key, {
      url: receiver.url(),
      eventTypes: ['order.created'],
    });
    expect(endpoint.status, endpoint.text).toBe(200);
    receiver.secrets.push(endpoint.body.data.secret);
    const made = await Promise.all(
      Array.from({ length: 10 }, () => v1(lb.url, 'POST', 'orders', key, jpOrderBody('CLWH'))),
    );
    for (const m of made) expect(m.status, m.text).toBe(200);
    const ids = new Set(made.map((m) => m.body.data.id as number));
    const ours = () => receiver.received.filter((r) => ids.has(r.event.data.order?.id));
    await waitFor('10 deliveries', () => ours().length >= 10, 60_000);
    // Both instances run jobs: once every delivery's job has ended, nothing more will come.
    await waitFor('the deliveries settled', async () => {
      const d = await v1(lb.url, 'GET', `webhook-deliveries?endpointId=${endpoint.body.data.id}&limit=100`, key);
      return (
        d.status === 200 &&
        d.body.data.list.length >= 10 &&
        d.body.data.list.every((x: { status: string }) => x.status !== 'pending')
      );
    });
    const got = ours();
    expect(got).toHaveLength(10);
    expect(new Set(got.map((r) => r.id)).size).toBe(10);
    for (const r of got) expect(r.verifiedBy).toEqual([0]);
  });
});

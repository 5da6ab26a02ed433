import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createHarness, type Harness } from '../harness.ts';
import { waitFor } from '../support/jobs.ts';
import { webhookReceiver } from '../support/webhook-receiver.ts';
import { makeKey, v1 } from './helpers.ts';

/**
 * Issue 39 item 4, an endpoint saved with a plain http:// address before the https-only check
 * (WEBHOOK_ALLOW_HTTP off, as in production): nothing is sent to it any more. Each delivery ends
 * failed after one attempt whose reason is the rule's key (`webhookUrlHttps`, worded in zh and en
 * in messages.ts), without retries; the endpoint list says its URL must be fixed.
 */
let h: Harness;
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
let key: string;
let oldId: number;
let goodId: number;
vi.setConfig({ testTimeout: 120_000 });

beforeAll(async () => {
  receiver = await webhookReceiver();
  // The receiver's address is allowed, so only the scheme can keep a delivery from it.
  h = await createHarness({ env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_RETRY_DELAY_SECONDS: '0' } });
  const demo = await h.login('demo');
  key = (await makeKey(h, demo, { scopes: ['webhooks:manage'] })).key;
  const make = async (url: string) => {
    const r = await v1(h.app, 'POST', 'webhook-endpoints', key, { body: { url, eventTypes: ['order.created'] } });
    expect(r.status).toBe(200);
    return r.body.data.id as number;
  };
  oldId = await make('https://hooks.example.com/old');
  goodId = await make('https://hooks.example.com/good');
  // As the row was written before the check: a plain http address to the (allowed) receiver.
  await h.db
    .updateTable('webhook_endpoints')
    .set({ url: receiver.url('/old') })
    .where('id', '=', oldId)
    .execute();
});

describe('an endpoint stored with http:// while WEBHOOK_ALLOW_HTTP is off', () => {
  it('gets nothing: its delivery fails once with the rule as reason, not retried', async () => {
    const sent = await v1(h.app, 'POST', `webhook-endpoints/${oldId}/test`, key);
    expect(sent.status).toBe(200);
    const deliveryId = sent.body.data.deliveryId as number;
    const detail = async () => (await v1(h.app, 'GET', `webhook-deliveries/${deliveryId}`, key)).body.data;
    await waitFor('the delivery to settle', async () => (await detail()).status !== 'pending', 45_000);
    const d = await detail();
    expect(d.status).toBe('failed');
    expect(d.attemptLog).toEqual([expect.objectContaining({ attempt: 1, statusCode: null, error: 'webhookUrlHttps' })]);
    expect(receiver.received.filter((r) => r.path === '/old')).toEqual([]);
  });

  it('is listed as needing its URL fixed (the rule it breaks); a https endpoint is not', async () => {
    const list = (await v1(h.app, 'GET', 'webhook-endpoints', key)).body.data.list as {
      id: number;
      urlProblem: string | null;
    }[];
    expect(list.find((e) => e.id === oldId)?.urlProblem).toBe('webhookUrlHttps');
    expect(list.find((e) => e.id === goodId)?.urlProblem).toBeNull();
    // Fixed by an edit, it is fine again.
    const fixed = await v1(h.app, 'POST', `webhook-endpoints/${oldId}`, key, {
      body: { url: 'https://hooks.example.com/fixed' },
    });
    expect([fixed.status, fixed.body.data.urlProblem]).toEqual([200, null]);
  });
});

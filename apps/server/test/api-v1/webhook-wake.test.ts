import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createHarness, type Harness } from '../harness.ts';
import { waitFor } from '../support/jobs.ts';
import { jpOrderBody } from '../support/orders.ts';
import { webhookReceiver } from '../support/webhook-receiver.ts';
import { makeKey, v1 } from './helpers.ts';

/**
 * The relay's wake (docs/decisions/2026-12-07-webhook-wake.md): an event this instance commits is
 * relayed at once, not at the relay's next period. The period here is a day (it ran once at start,
 * with nothing waiting), so only the wake can deliver the order's event.
 */
vi.setConfig({ testTimeout: 90_000 });
let h: Harness;
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
let key: string;

beforeAll(async () => {
  receiver = await webhookReceiver();
  h = await createHarness({
    env: {
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_RETRY_DELAY_SECONDS: '0',
      WEBHOOK_RELAY_SECONDS: '86400',
    },
  });
  key = (await makeKey(h, await h.login('demo'), { scopes: ['orders:write', 'webhooks:manage'] })).key;
  const made = await v1(h.app, 'POST', 'webhook-endpoints', key, {
    body: { url: receiver.url(), eventTypes: ['order.created'] },
  });
  expect(made.status).toBe(200);
  receiver.secrets.push(made.body.data.secret);
});

describe('the relay woken by the commit', () => {
  it('delivers an order created now without waiting for the relay period', async () => {
    const order = await v1(h.app, 'POST', 'orders', key, { body: jpOrderBody('WAKE1') });
    expect(order.status).toBe(200);
    const orderId = order.body.data.id as number;
    await waitFor('the delivery', () => receiver.received.some((r) => r.event.data.order?.id === orderId), 45_000);
    expect(receiver.received.find((r) => r.event.data.order?.id === orderId)!.verifiedBy).toEqual([0]);
  });
});

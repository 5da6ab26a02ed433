import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createHarness, type Harness } from '../harness.ts';
import { waitFor } from '../support/jobs.ts';
import { webhookReceiver } from '../support/webhook-receiver.ts';

/**
 * A resend asked while a try is out, whose job starts only once that try has recorded `succeeded`
 * (the customer's share of the lane is one slot here, so the resend's job waits for the first):
 * the customer asked for the event once more, and gets it; the job does not take "succeeded",
 * written by the try that was already out, for its own.
 */
vi.setConfig({ testTimeout: 90_000 });
let h: Harness;
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
let demo: string;
let endpointId: number;

beforeAll(async () => {
  receiver = await webhookReceiver();
  h = await createHarness({
    env: {
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_RETRY_DELAY_SECONDS: '0',
      WEBHOOK_DELIVERY_PER_CUSTOMER: '1',
    },
  });
  demo = await h.login('demo');
  const made = await h.post('webhook/endpoint/create', { url: receiver.url(), eventTypes: ['order.created'] }, demo);
  expect(made.status).toBe(200);
  receiver.secrets.push(made.body.data.secret);
  endpointId = made.body.data.id;
});

describe('a resend whose job starts after the try that was out succeeded', () => {
  it('sends the event once more', async () => {
    receiver.answer(() => 'hold');
    const sent = await h.post('webhook/endpoint/test', { id: endpointId }, demo);
    expect(sent.status).toBe(200);
    const { eventId, deliveryId } = sent.body.data;
    const tries = () => receiver.received.filter((r) => r.id === eventId);
    await waitFor('the first try to be out', () => tries().length === 1);
    expect((await h.post('webhook/delivery/resend', { id: deliveryId }, demo)).status).toBe(200);
    receiver.answer(() => 200);
    receiver.release();
    await waitFor('the resend sent', () => tries().length === 2, 45_000);
    await waitFor('both tries recorded', async () => {
      const d = (await h.post('webhook/delivery/get', { id: deliveryId }, demo)).body.data;
      return d.attemptLog.length === 2;
    });
    const d = (await h.post('webhook/delivery/get', { id: deliveryId }, demo)).body.data;
    expect(d).toMatchObject({ attempts: 2, status: 'succeeded' });
    expect(tries().map((t) => t.verifiedBy)).toEqual([[0], [0]]);
  });
});

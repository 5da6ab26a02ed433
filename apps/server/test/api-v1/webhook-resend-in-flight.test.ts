import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness.ts';
import { waitFor } from '../support/jobs.ts';
import { webhookReceiver } from '../support/webhook-receiver.ts';

/**
 * A resend while the delivery's try is still out (the receiver has not answered): a customer's
 * share of the delivery lane is more than one slot, so the resend's job sends at once, beside the
 * first. Each try keeps a number of its own in the log; both had read the same count before
 * sending, and each wrote count + 1 (two tries numbered 1).
 */
let h: Harness;
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
let demo: string;
let endpointId: number;

beforeAll(async () => {
  receiver = await webhookReceiver();
  h = await createHarness({
    env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_RETRY_DELAY_SECONDS: '0' },
  });
  demo = await h.login('demo');
  const made = await h.post('webhook/endpoint/create', { url: receiver.url(), eventTypes: ['order.created'] }, demo);
  expect(made.status).toBe(200);
  receiver.secrets.push(made.body.data.secret);
  endpointId = made.body.data.id;
});

describe('a resend while the first try is out', () => {
  it('numbers the two tries 1 and 2, and the delivery counts two', async () => {
    receiver.answer(() => 'hold');
    const sent = await h.post('webhook/endpoint/test', { id: endpointId }, demo);
    expect(sent.status).toBe(200);
    const { eventId, deliveryId } = sent.body.data;
    const tries = () => receiver.received.filter((r) => r.id === eventId);
    await waitFor('the first try to be out', () => tries().length === 1);
    expect((await h.post('webhook/delivery/resend', { id: deliveryId }, demo)).status).toBe(200);
    await waitFor('the resend to be out beside it', () => tries().length === 2);
    receiver.answer(() => 200);
    receiver.release();
    await waitFor('both tries recorded', async () => {
      const d = (await h.post('webhook/delivery/get', { id: deliveryId }, demo)).body.data;
      return d.attemptLog.length === 2;
    });
    const d = (await h.post('webhook/delivery/get', { id: deliveryId }, demo)).body.data;
    expect(d.attemptLog.map((a: { attempt: number }) => a.attempt).sort()).toEqual([1, 2]);
    expect(d).toMatchObject({ attempts: 2, status: 'succeeded' });
  });
});

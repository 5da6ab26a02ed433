import { v1 as contract } from '@console/contract';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createHarness, type Harness } from '../harness.ts';
import { waitFor } from '../support/jobs.ts';
import { webhookReceiver } from '../support/webhook-receiver.ts';
import { customerIdOf, makeKey, v1 } from './helpers.ts';

/**
 * Issue 39 item 4, `bill.issued`: a month's bill issued by an operator is sent to the customer's
 * endpoints subscribed to it, with the bill as the console's bill list shows it (period, lines,
 * totals per currency), written in the transaction; another customer hears nothing.
 */
let h: Harness;
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
vi.setConfig({ testTimeout: 120_000 });
let operator: string;
let demoId: number;

beforeAll(async () => {
  receiver = await webhookReceiver();
  h = await createHarness({
    env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_RETRY_DELAY_SECONDS: '0' },
  });
  const [demo, demo2] = await Promise.all([h.login('demo'), h.login('demo2')]);
  operator = await h.login('operator');
  demoId = await customerIdOf(h, 'DEMO');
  for (const [token, path] of [
    [demo, '/demo'],
    [demo2, '/demo2'],
  ] as const) {
    const key = (await makeKey(h, token, { scopes: ['webhooks:manage'] })).key;
    const made = await v1(h.app, 'POST', 'webhook-endpoints', key, {
      body: { url: receiver.url(path), eventTypes: ['bill.issued'] },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    receiver.secrets.push(made.body.data.secret);
  }
});

describe('bill.issued', () => {
  it('an issued bill is sent to its customer, as the bill list shows it, once', async () => {
    const open = (await h.post('bills', { limit: 500, customerId: demoId, status: 'open' }, operator)).body.data
      .list[0];
    expect(open).toBeDefined();
    const issued = await h.post('bill/issue', { id: open.id }, operator);
    expect(issued.status).toBe(200);
    const ofBill = () =>
      receiver.received.filter((r) => r.event.type === 'bill.issued' && r.event.data.bill?.id === open.id);
    await waitFor('bill.issued', () => ofBill().length > 0, 45_000);
    const [got] = ofBill();
    expect([got!.path, got!.verifiedBy]).toEqual(['/demo', [0]]);
    expect(contract.webhookEventBodyOf('bill.issued').safeParse(got!.event).success).toBe(true);
    const { totalCny: _, paidAt: __, ...shown } = issued.body.data;
    expect(got!.event).toMatchObject({ type: 'bill.issued', sequence: 1, data: { bill: shown } });
    expect(got!.event.data.bill).toMatchObject({ status: 'issued', customerCode: 'DEMO', period: open.period });
    // Issued once: a second issue is refused and sends nothing.
    expect((await h.post('bill/issue', { id: open.id }, operator)).status).toBe(409);
    await new Promise((r) => setTimeout(r, 1500));
    expect(ofBill()).toHaveLength(1);
    expect(receiver.received.some((r) => r.path === '/demo2')).toBe(false);
  });
});

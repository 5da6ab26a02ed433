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
let demoKey: string;

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
    if (path === '/demo') demoKey = key;
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
    // What would be sent is in the outbox, written in the transaction, so it is final once
    // the refusal has answered (issue 37: the recorded events and deliveries, not a fixed sleep that
    // a slow relay outlasts): one bill.issued event in all, for demo only, delivered once and done.
    const issuedEvents = (
      await h.db
        .selectFrom('webhook_events')
        .select(['id', 'customer_id', 'payload'])
        .where('type', '=', 'bill.issued')
        .execute()
    ).map((e) => ({ id: e.id, customerId: e.customer_id, billId: JSON.parse(e.payload).data.bill.id as number }));
    expect(issuedEvents).toEqual([{ id: got!.event.id, customerId: demoId, billId: open.id }]);
    const deliveriesOf = () =>
      h.db
        .selectFrom('webhook_deliveries')
        .select(['status', 'attempts'])
        .where('event_id', '=', got!.event.id)
        .execute();
    // The receiver answers before the relay records its answer.
    await waitFor(
      'the delivery recorded',
      async () => (await deliveriesOf()).every((d) => d.status !== 'pending'),
      45_000,
    );
    expect(await deliveriesOf()).toEqual([{ status: 'succeeded', attempts: 1 }]);
    expect(ofBill()).toHaveLength(1);
    expect(receiver.received.some((r) => r.path === '/demo2')).toBe(false);
  });
});

describe('bill.paid', () => {
  it('a bill marked paid is sent to endpoints subscribed to it, with its paid time, as sequence 2', async () => {
    const made = await v1(h.app, 'POST', 'webhook-endpoints', demoKey, {
      body: { url: receiver.url('/demo-paid'), eventTypes: ['bill.paid'] },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    receiver.secrets.push(made.body.data.secret);
    const secretIndex = receiver.secrets.length - 1;
    // An issued bill (the test above issued one), else one issued here.
    const bills = (await h.post('bills', { limit: 500, customerId: demoId }, operator)).body.data.list as {
      id: number;
      status: string;
      period: string;
    }[];
    const open = bills.find((b) => b.status === 'issued') ?? bills.find((b) => b.status === 'open');
    expect(open).toBeDefined();
    if (open!.status === 'open') expect((await h.post('bill/issue', { id: open!.id }, operator)).status).toBe(200);
    const paid = await h.post('bill/markPaid', { id: open!.id }, operator);
    expect(paid.status).toBe(200);
    const ofBill = () => receiver.received.filter((r) => r.path === '/demo-paid' && r.event.data.bill?.id === open!.id);
    await waitFor('bill.paid', () => ofBill().length > 0, 45_000);
    const [got] = ofBill();
    // Only the paid event reaches this endpoint: it is not subscribed to bill.issued.
    expect([got!.event.type, got!.event.sequence, got!.verifiedBy]).toEqual(['bill.paid', 2, [secretIndex]]);
    expect(contract.webhookEventBodyOf('bill.paid').safeParse(got!.event).success).toBe(true);
    expect(got!.event.data.bill).toMatchObject({ status: 'paid', paidAt: paid.body.data.paidAt, period: open!.period });
  });
});

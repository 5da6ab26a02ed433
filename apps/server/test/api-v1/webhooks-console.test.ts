import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness.ts';
import { waitFor } from '../support/jobs.ts';
import { webhookReceiver } from '../support/webhook-receiver.ts';
import { customerIdOf, makeKey, v1 } from './helpers.ts';

/**
 * Issue 39 item 5, the console's webhook calls: a signed-in customer manages its endpoints as a
 * key does on v1, through the same service (an endpoint made in the console is the v1 one); the
 * secret is shown once; writes are audited as on v1; another customer's endpoint and deliveries
 * are as unknown as missing ones; the permission `developer.webhooks` is the server's to enforce.
 */
let h: Harness;
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
let demo: string;
let demo2: string;
let agent: string;
let operator: string;
let endpointId: number;

const audits = (action: string) =>
  h.db
    .selectFrom('audit_log')
    .selectAll()
    .where('action', '=', action)
    .where('target', '=', `webhookEndpoint:${endpointId}`)
    .execute();

beforeAll(async () => {
  receiver = await webhookReceiver();
  h = await createHarness({
    env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_RETRY_DELAY_SECONDS: '0' },
  });
  [demo, demo2, agent, operator] = await Promise.all(['demo', 'demo2', 'agent', 'operator'].map((n) => h.login(n)));
  const made = await h.post(
    'webhook/endpoint/create',
    { url: receiver.url(), description: 'ERP', eventTypes: ['order.created'] },
    demo,
  );
  expect(made.status).toBe(200);
  expect(made.body.data.secret).toMatch(/^whsec_/);
  receiver.secrets.push(made.body.data.secret);
  endpointId = made.body.data.id;
});

describe('endpoints from the console', () => {
  it('lists the endpoint without its secret, the same one v1 serves, and audits its making', async () => {
    const list = await h.post('webhook/endpoint/list', {}, demo);
    expect(list.status).toBe(200);
    const mine = list.body.data.list.find((e: { id: number }) => e.id === endpointId);
    expect(mine).toMatchObject({
      url: receiver.url(),
      description: 'ERP',
      eventTypes: ['order.created'],
      active: true,
    });
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
    // One implementation: the customer's key sees the endpoint made in the console.
    const key = (await makeKey(h, demo, { scopes: ['webhooks:manage'] })).key;
    const onV1 = await v1(h.app, 'GET', `webhook-endpoints/${endpointId}`, key);
    expect([onV1.status, onV1.body.data.url]).toEqual([200, receiver.url()]);
    const [row] = await audits('webhookEndpoint.create');
    expect(row).toMatchObject({ user_name: 'demo' });
    expect(row!.detail).not.toContain('whsec_');
  });

  it('sends a test event to a real receiver, logs the delivery (filtered), shows its attempts and resends it', async () => {
    const sent = await h.post('webhook/endpoint/test', { id: endpointId }, demo);
    expect(sent.status).toBe(200);
    const { eventId, deliveryId } = sent.body.data;
    await waitFor('the test event', () => receiver.received.some((r) => r.id === eventId));
    expect(receiver.received.find((r) => r.id === eventId)!.verifiedBy).toEqual([0]);
    const log = async (q: object) =>
      (await h.post('webhook/delivery/list', q, demo)).body.data.list as { id: number }[];
    await waitFor('the log to say so', async () =>
      (await log({ endpointId, status: 'succeeded' })).some((d) => d.id === deliveryId),
    );
    expect((await log({ eventId })).map((d) => d.id)).toEqual([deliveryId]);
    expect(await log({ endpointId, status: 'failed' })).toEqual([]);
    const detail = await h.post('webhook/delivery/get', { id: deliveryId }, demo);
    expect(detail.body.data).toMatchObject({
      eventType: 'webhook.test',
      attemptLog: [{ attempt: 1, statusCode: 200 }],
    });

    expect((await h.post('webhook/delivery/resend', { id: deliveryId }, demo)).status).toBe(200);
    await waitFor('the event again', () => receiver.received.filter((r) => r.id === eventId).length === 2);
  });

  it('updates, rotates (the new secret once, the old one still signing) and deletes, each audited', async () => {
    const upd = await h.post('webhook/endpoint/update', { id: endpointId, eventTypes: ['order.shipped'] }, demo);
    expect([upd.status, upd.body.data.eventTypes, upd.body.data.url]).toEqual([200, ['order.shipped'], receiver.url()]);
    const rot = await h.post('webhook/endpoint/rotateSecret', { id: endpointId }, demo);
    expect(rot.status).toBe(200);
    expect(rot.body.data.secret).not.toBe(receiver.secrets[0]);
    receiver.secrets.push(rot.body.data.secret);
    const { eventId } = (await h.post('webhook/endpoint/test', { id: endpointId }, demo)).body.data;
    await waitFor('the test event', () => receiver.received.some((r) => r.id === eventId));
    expect(receiver.received.find((r) => r.id === eventId)!.verifiedBy).toEqual([0, 1]);

    expect((await h.post('webhook/endpoint/delete', { id: endpointId }, demo)).status).toBe(200);
    const list = await h.post('webhook/endpoint/list', {}, demo);
    expect(list.body.data.list.map((e: { id: number }) => e.id)).not.toContain(endpointId);
    for (const action of ['update', 'rotateSecret', 'delete'])
      expect(await audits(`webhookEndpoint.${action}`), action).toHaveLength(1);
  });
});

describe('tenancy and permission', () => {
  it("another customer's endpoint and deliveries are as unknown as missing ones", async () => {
    const mine = await h.post('webhook/endpoint/create', { url: receiver.url(), eventTypes: ['order.created'] }, demo);
    const id = mine.body.data.id as number;
    const { deliveryId } = (await h.post('webhook/endpoint/test', { id }, demo)).body.data;
    for (const [path, body] of [
      ['webhook/endpoint/update', { id, active: false }],
      ['webhook/endpoint/delete', { id }],
      ['webhook/endpoint/rotateSecret', { id }],
      ['webhook/endpoint/test', { id }],
      ['webhook/delivery/get', { id: deliveryId }],
      ['webhook/delivery/resend', { id: deliveryId }],
    ] as const)
      expect((await h.post(path, body, demo2)).status, path).toBe(404);
    const theirs = await h.post('webhook/endpoint/list', {}, demo2);
    expect(theirs.body.data.list.map((e: { id: number }) => e.id)).not.toContain(id);
    const log = await h.post('webhook/delivery/list', { endpointId: id }, demo2);
    expect(log.body.data.list).toEqual([]);
    // Still the owner's, untouched.
    const after = await h.post('webhook/endpoint/list', {}, demo);
    expect(after.body.data.list.find((e: { id: number }) => e.id === id)).toMatchObject({ active: true });
  });

  it('an agent names one of its customers; a customer cannot name another; staff lack the permission', async () => {
    const body = { url: receiver.url(), eventTypes: ['order.created'] };
    const unnamed = await h.post('webhook/endpoint/create', body, agent);
    expect([unnamed.status, Object.keys(unnamed.body.data)]).toEqual([422, ['customerId']]);
    const agents = await h.db
      .selectFrom('customers')
      .innerJoin('users', 'users.id', 'customers.agent_user_id')
      .select('customers.id')
      .where('users.name', '=', 'agent')
      .execute();
    const named = await h.post('webhook/endpoint/create', { ...body, customerId: agents[0]!.id }, agent);
    expect([named.status, named.body.data.customerId]).toEqual([200, agents[0]!.id]);
    const demo2Id = await customerIdOf(h, 'DEMO2');
    const foreign = await h.post('webhook/endpoint/create', { ...body, customerId: demo2Id }, demo);
    expect([foreign.status, Object.keys(foreign.body.data)]).toEqual([422, ['customerId']]);
    expect((await h.post('webhook/endpoint/list', {}, operator)).status).toBe(403);
  });
});

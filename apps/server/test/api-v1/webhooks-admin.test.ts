import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness.ts';
import { waitFor } from '../support/jobs.ts';
import { webhookReceiver } from '../support/webhook-receiver.ts';
import { customerIdOf } from './helpers.ts';

/**
 * The admin on Developers → Webhooks (docs/decisions/2026-12-07-admin-webhooks.md): it reads every
 * customer's endpoints and deliveries (each with its customer), may disable an endpoint and resend a
 * delivery, both audited under its name; making, editing, rotating, testing and deleting stay the
 * customer's (403 `webhookAdminReadOnly`, nothing changed). Customers still see only their own.
 */
let h: Harness;
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
let admin: string;
let demo: string;
let demo2: string;
let demoEndpoint: number;
let demo2Endpoint: number;
let demoDelivery: number;

const make = async (token: string, description: string) => {
  const r = await h.post(
    'webhook/endpoint/create',
    { url: receiver.url(), description, eventTypes: ['order.created'] },
    token,
  );
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  receiver.secrets.push(r.body.data.secret);
  return r.body.data.id as number;
};
const ids = (r: { body: { data: { list: { id: number }[] } } }) => r.body.data.list.map((e) => e.id).sort();

beforeAll(async () => {
  receiver = await webhookReceiver();
  h = await createHarness({ env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_ALLOW_HTTP: 'true' } });
  [admin, demo, demo2] = await Promise.all(['admin', 'demo', 'demo2'].map((n) => h.login(n)));
  demoEndpoint = await make(demo, 'demo ERP');
  demo2Endpoint = await make(demo2, 'demo2 shop');
  const sent = await h.post('webhook/endpoint/test', { id: demoEndpoint }, demo);
  expect(sent.status).toBe(200);
  demoDelivery = sent.body.data.deliveryId;
  await waitFor('the test event', () => receiver.received.some((r) => r.id === sent.body.data.eventId));
});

describe('the admin on the webhooks page', () => {
  it("reads every customer's endpoints, each with its customer, and their deliveries", async () => {
    const list = await h.post('webhook/endpoint/list', {}, admin);
    expect(list.status).toBe(200);
    expect(ids(list)).toEqual([demoEndpoint, demo2Endpoint].sort());
    const byId = new Map(list.body.data.list.map((e: { id: number; customerId: number }) => [e.id, e.customerId]));
    expect(byId.get(demoEndpoint)).toBe(await customerIdOf(h, 'DEMO'));
    expect(byId.get(demo2Endpoint)).toBe(await customerIdOf(h, 'DEMO2'));
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
    // Narrowed to one customer.
    const one = await h.post('webhook/endpoint/list', { customerId: await customerIdOf(h, 'DEMO2') }, admin);
    expect(ids(one)).toEqual([demo2Endpoint]);
    const log = await h.post('webhook/delivery/list', {}, admin);
    expect(log.body.data.list.map((d: { id: number }) => d.id)).toContain(demoDelivery);
    // Each with its customer: the admin's log holds every customer's deliveries.
    const row = log.body.data.list.find((d: { id: number }) => d.id === demoDelivery);
    expect(row.customerId).toBe(await customerIdOf(h, 'DEMO'));
    const detail = await h.post('webhook/delivery/get', { id: demoDelivery }, admin);
    expect(detail.status).toBe(200);
    expect(detail.body.data.attemptLog.length).toBeGreaterThan(0);
  });

  it('customers still see only their own', async () => {
    expect(ids(await h.post('webhook/endpoint/list', {}, demo2))).toEqual([demo2Endpoint]);
    expect((await h.post('webhook/delivery/get', { id: demoDelivery }, demo2)).status).toBe(404);
  });

  it("refuses the customer's own changes to the admin, and changes nothing", async () => {
    const refused = [
      await h.post('webhook/endpoint/create', { url: receiver.url(), eventTypes: ['order.created'] }, admin),
      await h.post('webhook/endpoint/update', { id: demoEndpoint, url: `${receiver.url()}x` }, admin),
      await h.post('webhook/endpoint/update', { id: demoEndpoint, active: true }, admin),
      await h.post('webhook/endpoint/rotateSecret', { id: demoEndpoint }, admin),
      await h.post('webhook/endpoint/test', { id: demoEndpoint }, admin),
      await h.post('webhook/endpoint/delete', { id: demoEndpoint }, admin),
    ];
    expect(refused.map((r) => [r.status, r.body.key])).toEqual(Array(6).fill([403, 'webhookAdminReadOnly']));
    const row = await h.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('id', '=', demoEndpoint)
      .executeTakeFirst();
    expect(row).toMatchObject({ url: receiver.url(), active: 1, deleted_at: null, previous_secret_sealed: null });
    const endpointAudits = await h.db
      .selectFrom('audit_log')
      .select('action')
      .where('user_name', '=', 'admin')
      .where('target', 'like', 'webhookEndpoint:%')
      .execute();
    expect(endpointAudits).toEqual([]);
  });

  it('resends a delivery and disables an endpoint, each audited under its name with the customer', async () => {
    const resent = await h.post('webhook/delivery/resend', { id: demoDelivery }, admin);
    expect(resent.status).toBe(200);
    const [resendRow] = await h.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'webhookDelivery.resend')
      .where('target', '=', `webhookDelivery:${demoDelivery}`)
      .execute();
    expect(resendRow).toMatchObject({ user_name: 'admin' });
    expect(JSON.parse(resendRow!.detail!)).toMatchObject({
      endpointId: demoEndpoint,
      customerId: await customerIdOf(h, 'DEMO'),
    });
    const off = await h.post('webhook/endpoint/update', { id: demo2Endpoint, active: false }, admin);
    expect([off.status, off.body.data?.active]).toEqual([200, false]);
    const [offRow] = await h.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'webhookEndpoint.update')
      .where('target', '=', `webhookEndpoint:${demo2Endpoint}`)
      .where('user_name', '=', 'admin')
      .execute();
    expect(JSON.parse(offRow!.detail!)).toEqual({ active: false });
    // The customer sees it off, and turns it on again itself.
    const back = await h.post('webhook/endpoint/update', { id: demo2Endpoint, active: true }, demo2);
    expect([back.status, back.body.data.active]).toEqual([200, true]);
  });
});

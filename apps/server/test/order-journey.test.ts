import { beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/lib/crypto.ts';
import { clearanceSignature } from '../src/modules/clearance/clearance.webhook.ts';
import { DEMO_PASSWORD } from '../src/seed/demo.ts';
import { createHarness, type Harness } from './harness.ts';
import { aes } from './items/helpers.ts';
import { validRecipient } from './support/orders.ts';

/**
 * Issue 13, "done means": with no demo data (DEMO_SEED off: only the accounts a deployment
 * creates) and only the calls of the issue, one order is created, intercepted and let go, stored,
 * shipped, refused by clearance, fixed and released — and every step shows in the order's
 * detail, the error badge's count and the public tracking page.
 */
const SECRET = 'journey-secret-journey-secret-0123456789';
let h: Harness;
let customer: string;
let operator: string;

async function account(name: string, role: 'customer' | 'operator') {
  const at = new Date().toISOString();
  const customerId =
    role === 'customer'
      ? (
          await h.db
            .insertInto('customers')
            .values({ code: name.toUpperCase(), name, agent_user_id: null, created_at: at })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id
      : null;
  await h.db
    .insertInto('users')
    .values({
      name,
      display_name: name,
      password_hash: await hashPassword(DEMO_PASSWORD),
      role,
      customer_id: customerId,
      created_at: at,
      password_changed_at: at,
    })
    .execute();
  return h.login(name);
}

let delivery = 0;
async function clearanceResult(waybillNo: string, result: 'released' | 'refused', reasonCode?: string) {
  const raw = JSON.stringify({
    deliveryId: `journey-${Date.now()}-${++delivery}`,
    results: [{ waybillNo, result, ...(reasonCode ? { reasonCode } : {}) }],
  });
  const ts = String(Math.floor(h.clock.now.getTime() / 1000));
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/clearance/webhook',
    headers: {
      'content-type': 'application/json',
      'x-clearance-company': 'HZ-CB',
      'x-clearance-timestamp': ts,
      'x-clearance-signature': `sha256=${clearanceSignature(SECRET, ts, Buffer.from(raw))}`,
    },
    payload: raw,
  });
  return { status: res.statusCode, body: res.json() };
}

beforeAll(async () => {
  h = await createHarness({ seed: false, env: { CLEARANCE_WEBHOOK_SECRETS: `HZ-CB=${SECRET}` } });
  customer = await account('journeycustomer', 'customer');
  operator = await account('journeyoperator', 'operator');
});

describe("issue 13: one order's life through the calls alone", () => {
  it('created, intercepted and let go, stored, shipped, refused, fixed, released', async () => {
    const en = { 'accept-language': 'en' };
    expect(await h.db.selectFrom('orders').select('id').execute()).toEqual([]);

    // Created by the customer.
    const created = await h.post(
      'order/createImport',
      {
        channel: 'JP',
        orderNo: 'JOURNEY-1',
        clearanceCompany: 'HZ-CB',
        recipient: validRecipient,
        sender: { name: 'Journey Trading', address: 'Tokyo', phone: '03-1234-5678' },
        items: [{ jan: '4901234567894', name: '明治 奶粉', quantity: 1, unitPrice: '1500' }],
        confirm: ['minorId', 'crossBorderLimit', 'multiplePricesPerJan'],
      },
      customer,
      en,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const { id, waybillNo } = created.body.data as { id: number; waybillNo: string };

    // Intercepted by the customer: the warehouse refuses to store it.
    const icp = await h.post(
      'order/create/interception',
      { noType: 'waybillNo', numbers: [waybillNo], reason: 'Wrong address' },
      customer,
      en,
    );
    expect(icp.status, JSON.stringify(icp.body)).toBe(200);
    expect(icp.body.data.intercepted).toBe(1);
    const refusedStore = await aes(h, 'storageOrder/create', { waybillNos: [waybillNo] }, operator);
    expect(refusedStore.status, JSON.stringify(refusedStore.body)).toBe(200);
    expect(refusedStore.data.lines[0].outcome).toBe('intercepted');

    // Let go: the interception is cancelled, then the parcel is stored and shipped.
    const list = await h.post('order/list/interception', { offset: 0, limit: 10, order: 'desc' }, customer);
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.data.total).toBe(1);
    const cancelled = await h.post(
      'order/cancel/interception',
      { id: list.body.data.list[0].id, cancelReason: 'Address confirmed' },
      customer,
    );
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    const stored = await aes(h, 'storageOrder/create', { waybillNos: [waybillNo] }, operator);
    expect(stored.data.lines[0].outcome).toBe('received');
    const shipped = await aes(h, 'storageOrder/outSingle', { code: waybillNo }, operator);
    expect(shipped.status, JSON.stringify(shipped.body)).toBe(200);
    expect(shipped.data.line.outcome).toBe('shipped');

    // Refused by clearance: an error order on the customer's badge.
    const errorCount = async () =>
      (await h.post('order/error', { offset: 0, limit: 1, order: 'desc' }, customer)).body.data.total;
    expect(await errorCount()).toBe(0);
    const refused = await clearanceResult(waybillNo, 'refused', 'C03');
    expect(refused.status, JSON.stringify(refused.body)).toBe(200);
    expect(await errorCount()).toBe(1);

    // Fixed by the customer (the address the refusal names), then released by clearance.
    const fixed = await h.post(
      'order/error/update',
      { id, recipient: { ...validRecipient, address: `${validRecipient.address}2号楼` }, confirm: ['minorId'] },
      customer,
      en,
    );
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    expect(fixed.body.data.cleared).toBe(true);
    expect(await errorCount()).toBe(0);
    const released = await clearanceResult(waybillNo, 'released');
    expect(released.status, JSON.stringify(released.body)).toBe(200);

    // Every step is in the order's detail, in order; the public page shows the parcel's steps only.
    const detail = await h.post('order/order', { id }, customer);
    expect(detail.body.data.status).toBe('released');
    expect(detail.body.data.events.map((e: { kind: string }) => e.kind)).toEqual([
      'created',
      'intercepted',
      'interceptionCancelled',
      'received',
      'shipped',
      'errorFlagged',
      'errorFixed',
      'released',
    ]);
    const tracking = await h.post('order/tracking', { waybillNos: [waybillNo] });
    expect(tracking.status).toBe(200);
    expect(tracking.body.data[0].status).toBe('released');
    expect(tracking.body.data[0].events.map((e: { kind: string }) => e.kind)).toEqual([
      'created',
      'intercepted',
      'interceptionCancelled',
      'received',
      'shipped',
      'released',
    ]);
    expect(JSON.stringify(tracking.body.data)).not.toContain('Wrong address');
  });
});

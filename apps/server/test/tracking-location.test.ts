import { orders } from '@console/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { transition } from '../src/domain/order-life.ts';
import { up as locationCode } from '../src/db/migrations/2026-12-07T1300-tracking-location-code.ts';
import { createHarness, type Harness } from './harness.ts';
import { aes } from './items/helpers.ts';
import { cloneOrders } from './support/orders.ts';

/**
 * Issue 36 #23 ("已发货 Warehouse"): the warehouse's own scans stored their place as the English
 * word, which the Chinese console showed as it was. They store a neutral code the console words
 * in the user's language; rows stored before are moved to it, a place an operator typed is kept.
 */
let h: Harness;
let operator: string;
let demoId: number;

const locationOf = async (orderId: number, kind: string) =>
  (
    await h.db
      .selectFrom('tracking_events')
      .select('location')
      .where('order_id', '=', orderId)
      .where('kind', '=', kind)
      .executeTakeFirstOrThrow()
  ).location;

beforeAll(async () => {
  h = await createHarness();
  operator = await h.login('operator');
  demoId = (await h.db.selectFrom('users').select('customer_id').where('name', '=', 'demo').executeTakeFirstOrThrow())
    .customer_id!;
});

describe('the location of a warehouse scan', () => {
  it('is the neutral code on a scan, a storage receipt and a shipment', async () => {
    expect(orders.WAREHOUSE_LOCATION).toBe('warehouse');
    const [scanned, stored] = await cloneOrders(h.db, demoId, 2, 'TL', { items: true });
    const scan = await h.post('order/orderScan', { code: scanned!.waybill_no }, operator);
    expect(scan.body.data.outcome).toBe('received');
    expect(await locationOf(scanned!.id, 'received')).toBe(orders.WAREHOUSE_LOCATION);

    const receipt = await aes(
      h,
      'storageOrder/create',
      { origin: 'counter', customerId: demoId, waybillNos: [stored!.waybill_no] },
      operator,
    );
    expect(receipt.data.lines[0].outcome).toBe('received');
    expect(await locationOf(stored!.id, 'received')).toBe(orders.WAREHOUSE_LOCATION);

    const shipped = await aes(h, 'storageOrder/outSingle', { code: stored!.waybill_no }, operator);
    expect(shipped.data.line.outcome).toBe('shipped');
    expect(await locationOf(stored!.id, 'shipped')).toBe(orders.WAREHOUSE_LOCATION);

    // The public tracking answers the code; the console words it.
    const tracked = await h.post('order/tracking', { waybillNos: [stored!.waybill_no] });
    const events = tracked.body.data[0].events as { kind: string; location: string | null }[];
    expect(events.find((e) => e.kind === 'shipped')?.location).toBe(orders.WAREHOUSE_LOCATION);
  });

  it('stored before as the English word, is moved to the code; a place typed by an operator stays', async () => {
    const [old, typed] = await cloneOrders(h.db, demoId, 2, 'TM', { items: true });
    const at = new Date().toISOString();
    await h.db.transaction().execute(async (trx) => {
      await transition(trx, 'receive', [old!.id], { at, by: null, location: 'Warehouse' });
      await transition(trx, 'receive', [typed!.id], { at, by: null, location: 'Tokyo' });
    });
    expect(await locationOf(old!.id, 'received')).toBe('Warehouse');
    await locationCode(h.db);
    expect(await locationOf(old!.id, 'received')).toBe(orders.WAREHOUSE_LOCATION);
    expect(await locationOf(typed!.id, 'received')).toBe('Tokyo');
  });
});

/**
 * The box-C error fix (order/error/boxcUpdate, issue 28 #16): it saves the box and split waybill
 * numbers; a reason about the recipient (an ID number that does not match the name) stands, as
 * after any change that leaves the recipient alone. It cleared every error before.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

let h: Harness;
let demo: string;
beforeAll(async () => {
  h = await createHarness();
  demo = await h.login('demo');
});

const boxedOrders = () =>
  h.db
    .selectFrom('orders as o')
    .innerJoin('users as u', 'u.customer_id', 'o.customer_id')
    .select('o.id')
    .where('u.name', '=', 'demo')
    .where('o.status', '=', 'created')
    .where('o.intercepted', '=', 0)
    .where('o.channel_code', '=', 'JP')
    .orderBy('o.id')
    .limit(2)
    .execute();
const row = (id: number) =>
  h.db
    .selectFrom('orders')
    .select(['box_no', 'split_waybill_no', 'error_at', 'error_reason'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

describe('order/error/boxcUpdate', () => {
  it('saves the box numbers but leaves an ID/name mismatch standing (cleared: false)', async () => {
    const [o] = await boxedOrders();
    const reason = JSON.stringify([{ code: 'errorReason.idCardNameMismatch' }]);
    await h.db
      .updateTable('orders')
      .set({ error_at: new Date().toISOString(), error_reason: reason })
      .where('id', '=', o!.id)
      .execute();
    const r = await h.post('order/error/boxcUpdate', { id: o!.id, boxNo: 'BOX-9', splitWaybillNo: 'SP-9' }, demo);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ id: o!.id, cleared: false });
    const after = await row(o!.id);
    expect(after).toMatchObject({ box_no: 'BOX-9', split_waybill_no: 'SP-9', error_reason: reason });
    expect(after.error_at).not.toBeNull();
  });

  it('clears a reason about the box itself and keeps the recipient’s beside it', async () => {
    const [, o] = await boxedOrders();
    const both = JSON.stringify([{ code: 'errorReason.carrierBox' }, { code: 'errorReason.idCardNameMismatch' }]);
    await h.db
      .updateTable('orders')
      .set({ error_at: new Date().toISOString(), error_reason: both })
      .where('id', '=', o!.id)
      .execute();
    const r = await h.post('order/error/boxcUpdate', { id: o!.id, boxNo: 'BOX-10' }, demo);
    expect(r.body.data.cleared).toBe(false);
    expect((await row(o!.id)).error_reason).toBe(JSON.stringify([{ code: 'errorReason.idCardNameMismatch' }]));
    // Only the box's reason left: the fix clears it.
    await h.db
      .updateTable('orders')
      .set({ error_reason: JSON.stringify([{ code: 'errorReason.carrierBox' }]) })
      .where('id', '=', o!.id)
      .execute();
    const again = await h.post('order/error/boxcUpdate', { id: o!.id, boxNo: 'BOX-11' }, demo);
    expect(again.body.data.cleared).toBe(true);
    expect(await row(o!.id)).toMatchObject({ box_no: 'BOX-11', error_at: null, error_reason: null });
  });
});

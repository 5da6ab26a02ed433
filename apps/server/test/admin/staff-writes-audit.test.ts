import { allCalls } from '@console/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { STAFF_AUDITED_WRITES } from '../../src/lib/staff-writes.ts';
import { createHarness, type Harness } from '../harness.ts';

/**
 * Issue 36 #6: an operator's order delete left no audit row and took the order's events with it;
 * a JD credential removed by an operator, likewise. Staff and agents writing on a customer's data
 * now leave a `staff.write` row; every deleted order leaves an `order.delete` tombstone.
 */
let h: Harness;
let demo: string;
let operator: string;
let ids: { demo: number };

beforeAll(async () => {
  h = await createHarness();
  [demo, operator] = await Promise.all(['demo', 'operator'].map((n) => h.login(n)));
  const rows = await h.db.selectFrom('customers').select(['id', 'code']).execute();
  ids = { demo: rows.find((r) => r.code === 'DEMO')!.id };
});

const deletable = () =>
  h.db
    .selectFrom('orders')
    .select(['id', 'order_no', 'waybill_no'])
    .where('customer_id', '=', ids.demo)
    .where('status', '=', 'created')
    .where('intercepted', '=', 0)
    // Orders that other records still name cannot be deleted (a declaration, a charge: see the note).
    .where((eb) =>
      eb.and(
        (['export_declarations', 'charges', 'shipment_orders', 'label_b_rows'] as const).map((t) =>
          eb.not(eb.exists(eb.selectFrom(t).select('order_id').whereRef(`${t}.order_id`, '=', 'orders.id'))),
        ),
      ),
    )
    .orderBy('id', 'desc')
    .limit(2)
    .execute();

const rowsOf = (action: string, target: string) =>
  h.db.selectFrom('audit_log').selectAll().where('action', '=', action).where('target', '=', target).execute();

describe('staff writes on a customer’s data', () => {
  it('every call named is a write of the contract', () => {
    const paths = new Set(allCalls.map((c) => c.path));
    expect([...STAFF_AUDITED_WRITES].filter((p) => !paths.has(p))).toEqual([]);
  });

  it('an operator’s order delete leaves a tombstone and a staff row; the customer’s own, a tombstone only', async () => {
    const [byOperator, byCustomer] = await deletable();
    expect(byCustomer).toBeDefined();
    const staffBefore = (await rowsOf('staff.write', 'order/order/delete')).length;

    const del = await h.post('order/order/delete', { ids: [byOperator.id] }, operator);
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    const [tomb] = await rowsOf('order.delete', `order:${byOperator.order_no}`);
    expect(tomb).toMatchObject({ user_name: 'operator' });
    expect(JSON.parse(tomb.detail)).toMatchObject({
      customerId: ids.demo,
      orderNo: byOperator.order_no,
      waybillNo: byOperator.waybill_no,
      status: 'created',
    });
    const staff = await rowsOf('staff.write', 'order/order/delete');
    expect(staff).toHaveLength(staffBefore + 1);
    expect(JSON.parse(staff.at(-1)!.detail)).toEqual({ role: 'operator', sent: { ids: [byOperator.id] } });

    expect((await h.post('order/order/delete', { ids: [byCustomer.id] }, demo)).status).toBe(200);
    const [own] = await rowsOf('order.delete', `order:${byCustomer.order_no}`);
    expect(own).toMatchObject({ user_name: 'demo' });
    expect(await rowsOf('staff.write', 'order/order/delete')).toHaveLength(staffBefore + 1);
  });

  it('a refused delete leaves no row', async () => {
    const shipped = await h.db
      .selectFrom('orders')
      .select(['id', 'order_no'])
      .where('customer_id', '=', ids.demo)
      .where('status', '=', 'shipped')
      .executeTakeFirstOrThrow();
    expect((await h.post('order/order/delete', { ids: [shipped.id] }, operator)).status).toBe(409);
    expect(await rowsOf('order.delete', `order:${shipped.order_no}`)).toEqual([]);
  });

  it('a JD app saved and removed by an operator is recorded without its secret', async () => {
    const app = {
      customerId: ids.demo,
      appKey: 'APPKEY-STAFF',
      appSecret: 'staff-secret-0123456789',
      customerCode: 'C',
      isvSource: 'I',
      deptNo: 'D',
      platformId: '1',
      platformName: 'P',
    };
    const made = await h.post('jdAuthorize/create', app, operator);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect((await h.post('jdAuthorize/delete', { id: made.body.data.id }, operator)).status).toBe(200);
    const [created] = await rowsOf('staff.write', 'jdAuthorize/create');
    expect(created.detail).not.toContain(app.appSecret);
    expect(JSON.parse(created.detail).sent).toMatchObject({ appKey: 'APPKEY-STAFF', appSecret: '(withheld)' });
    const [removed] = await rowsOf('staff.write', 'jdAuthorize/delete');
    expect(JSON.parse(removed.detail)).toEqual({ role: 'operator', sent: { id: made.body.data.id } });
    expect(removed.user_name).toBe('operator');
  });
});

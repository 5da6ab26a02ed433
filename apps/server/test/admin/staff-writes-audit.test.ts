import { allCalls } from '@console/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { STAFF_AUDITED_WRITES } from '../../src/lib/staff-writes.ts';
import { createHarness, type Harness } from '../harness.ts';
import { aes } from '../items/helpers.ts';

/**
 * Issue 36 #6: an operator's order delete left no audit row and took the order's events with it;
 * a JD credential removed by an operator, likewise. Staff and agents writing on a customer's data
 * now leave a `staff.write` row; every deleted order leaves an `order.delete` tombstone.
 */
let h: Harness;
let demo: string;
let operator: string;
let demo2: string;
let ids: { demo: number };

beforeAll(async () => {
  h = await createHarness();
  [demo, operator, demo2] = await Promise.all(['demo', 'operator', 'demo2'].map((n) => h.login(n)));
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
    expect(JSON.parse(staff.at(-1)!.detail)).toEqual({
      role: 'operator',
      call: 'order/order/delete',
      sent: { ids: [byOperator.id] },
    });
    expect(tomb).toMatchObject({ customer_id: ids.demo });

    // The customer reads the tombstone (its own only); the admin's audit page has it too.
    const page = await h.post('order/deleted/list', { orderNo: byOperator.order_no }, demo);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(page.body.data.list).toEqual([
      expect.objectContaining({
        orderNo: byOperator.order_no,
        waybillNo: byOperator.waybill_no,
        status: 'created',
        customerId: ids.demo,
        deletedBy: 'operator',
      }),
    ]);
    const other = await h.post('order/deleted/list', { orderNo: byOperator.order_no }, demo2);
    expect(other.body.data).toEqual({ total: 0, list: [] });
    const admin = await h.post('admin/audit/list', { target: byOperator.order_no }, await h.login('admin'));
    expect(admin.body.data.list.map((r: { action: string }) => r.action)).toContain('order.delete');

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
    const [removed] = await rowsOf('staff.write', `jdAuthorize:${made.body.data.id}`);
    expect(removed.detail).not.toContain(app.appSecret);
    expect(JSON.parse(removed.detail)).toEqual({
      role: 'operator',
      call: 'jdAuthorize/delete',
      before: expect.objectContaining({ app_key: 'APPKEY-STAFF', platform_name: 'P' }),
      after: null,
    });
    expect(removed).toMatchObject({ user_name: 'operator', customer_id: ids.demo });
  });
});

/** A call by its contract definition: sealed with AES when the contract says so. */
const call = async (path: string, body: unknown, token: string) => {
  const def = allCalls.find((c) => c.path === path)!;
  if (def.aes) return aes(h, path, body, token);
  const r = await h.post(path, body, token);
  return { ...r, data: r.body?.data };
};
const lastRow = async (target: string) => {
  const rows = await h.db
    .selectFrom('audit_log')
    .selectAll()
    .where('action', '=', 'staff.write')
    .where('target', '=', target)
    .orderBy('id', 'desc')
    .execute();
  return rows[0];
};

describe('staff writes record the record before and after (issue 36 #6)', () => {
  it('an operator’s edit of a customer’s recipient: the changed fields before and after, the ID card withheld', async () => {
    const r = await h.db
      .selectFrom('recipients')
      .selectAll()
      .where('customer_id', '=', ids.demo)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const info = await call('recipient/info', { id: r.id }, operator);
    expect(info.status).toBe(200);
    const { id, customerId: _c, customerCode: _cc, createdAt: _a, updatedAt: _u, ...fields } = info.data;
    const sent = { ...fields, idCard: r.id_card, name: `${r.name}改`, id };
    const upd = await call('recipient/update', sent, operator);
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    const row = await lastRow(`recipient:${r.id}`);
    expect(row).toMatchObject({ user_name: 'operator', customer_id: ids.demo });
    expect(JSON.parse(row!.detail)).toEqual({
      role: 'operator',
      call: 'recipient/update',
      before: { name: r.name },
      after: { name: `${r.name}改` },
    });
    // The customer's own edit is its own data: no row.
    const own = await call('recipient/update', { ...sent, name: r.name }, demo);
    expect(own.status).toBe(200);
    expect((await lastRow(`recipient:${r.id}`))!.id).toBe(row!.id);

    expect((await call('recipient/delete', { id: r.id }, operator)).status).toBe(200);
    const gone = JSON.parse((await lastRow(`recipient:${r.id}`))!.detail);
    expect(gone).toMatchObject({
      call: 'recipient/delete',
      after: null,
      before: { name: r.name, id_card: '(withheld)' },
    });
  });

  it('an operator’s approval of a customer’s item: its status before and after', async () => {
    const item = await h.db
      .selectFrom('items')
      .select(['id'])
      .where('customer_id', '=', ids.demo)
      .where('status', '=', 'pending')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const ok = await call('item/approve', { id: item.id }, operator);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const row = await lastRow(`item:${item.id}`);
    expect(row).toMatchObject({ user_name: 'operator', customer_id: ids.demo });
    expect(JSON.parse(row!.detail)).toEqual({
      role: 'operator',
      call: 'item/approve',
      before: { status: 'pending' },
      after: { status: 'approved' },
    });
  });

  it('an operator’s edit of a customer’s order: the row says what changed, the order’s event says who', async () => {
    const [o] = await deletable();
    const d = (await call('order/order', { id: o!.id }, demo)).data;
    const upd = await call(
      'order/order/update',
      { id: o!.id, recipient: d.recipient, sender: d.sender, remark: 'changed by the desk', version: d.version },
      operator,
    );
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    const row = await lastRow(`order:${o!.order_no}`);
    expect(row).toMatchObject({ user_name: 'operator', customer_id: ids.demo });
    expect(JSON.parse(row!.detail)).toMatchObject({
      call: 'order/order/update',
      before: { remark: d.remark },
      after: { remark: 'changed by the desk' },
    });
    const seen = (await call('order/order', { id: o!.id }, demo)).data;
    expect(seen.events.at(-1)).toMatchObject({ kind: 'updated', by: 'operator' });
    expect(seen.events[0]).toMatchObject({ by: null });
  });

  it('a write no service records is recorded by the router with what was sent; the customer’s own, not at all', async () => {
    const [o] = await deletable();
    const before = (await rowsOf('staff.write', 'order/setFlag')).length;
    expect((await call('order/setFlag', { ids: [o!.id], flag: 'pushS', value: true }, demo)).status).toBe(200);
    expect(await rowsOf('staff.write', 'order/setFlag')).toHaveLength(before);
    expect((await call('order/setFlag', { ids: [o!.id], flag: 'pushS', value: false }, operator)).status).toBe(200);
    const rows = await rowsOf('staff.write', 'order/setFlag');
    expect(rows).toHaveLength(before + 1);
    expect(JSON.parse(rows.at(-1)!.detail)).toEqual({
      role: 'operator',
      call: 'order/setFlag',
      sent: { ids: [o!.id], flag: 'pushS', value: false },
    });
  });
});

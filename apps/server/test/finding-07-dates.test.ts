import { allCalls, type CallDef, leavesOf, type Path, sampleOf, withValue } from '@console/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { sealRequest } from './aes-client.ts';
import { createHarness, type Harness } from './harness.ts';

/**
 * Issue 26 finding 7: dates that look right but are not days (2026-13-01, 2026-02-30) or lie
 * past what a date can be computed with (9999-12-31) were a 500 from the date helpers; a
 * customer id that does not exist was a 500 from order/getOrderNumber; on PostgreSQL an
 * Order Search of blank numbers built an empty `IN ()`. Each is now a 422 on its field.
 *
 * The date fields are found in the contract, not listed: every string field of every JSON call
 * that takes a day (accepts 2026-11-01, refuses 2026-11-0x and 2026/11/01), so a call added
 * later is covered too.
 */
let h: Harness;
let admin: string;
const ids = { customer: 0, order: 0, batch: 0 };

beforeAll(async () => {
  h = await createHarness();
  admin = await h.login('admin');
  ids.customer = (
    await h.db.selectFrom('customers').select('id').where('code', '=', 'DEMO').executeTakeFirstOrThrow()
  ).id;
  ids.order = (await h.db.selectFrom('orders').select('id').orderBy('id').executeTakeFirst())?.id ?? 1;
  ids.batch = (await h.db.selectFrom('batches').select('id').orderBy('id').executeTakeFirst())?.id ?? 1;
});

const isDayField = (leaf: ReturnType<typeof leavesOf>[number]) =>
  leaf.kind === 'string' &&
  leaf.leaf.safeParse('2026-11-01').success &&
  !leaf.leaf.safeParse('2026-11-0x').success &&
  !leaf.leaf.safeParse('2026/11/01').success &&
  !leaf.leaf.safeParse('2026-11-001').success &&
  !leaf.leaf.safeParse('20261-101').success;

const dateFields: { call: CallDef; path: Path }[] = allCalls
  .filter((c) => c.kind !== 'multipart')
  .flatMap((call) =>
    leavesOf(call.request)
      .filter(isDayField)
      .map((leaf) => ({ call, path: leaf.path })),
  );

function idFor(path: Path): number | undefined {
  const name = String(path.findLast((p) => typeof p === 'string'));
  if (name === 'customerId') return ids.customer;
  if (name === 'batchId') return ids.batch;
  if (name === 'orderId' || name === 'id' || name === 'ids') return ids.order;
  return undefined;
}

function send(call: CallDef, body: unknown) {
  if (call.aes) return h.post(call.path, sealRequest(admin, body), admin, { aes: '1', 'accept-language': 'en' });
  return h.post(call.path, body, admin, { 'accept-language': 'en' });
}
const bodyWith = (call: CallDef, path: Path, value: string) =>
  withValue(
    sampleOf(call.request, (p, kind) => (kind === 'number' ? idFor(p) : undefined), path),
    path,
    value,
  );

const dateMessages = [
  'Enter a date as YYYY-MM-DD.',
  'This date does not exist.',
  'Enter a date from 2000-01-01 to 2099-12-31.',
];

describe('finding 7: dates that do not exist or lie out of range are a 422 on the field', () => {
  it('finds the date fields of the list and export calls in the contract', () => {
    const paths = new Set(dateFields.map((f) => f.call.path));
    // The calls the red team named (orders, items, reviews, interceptions, Meituan, storage,
    // declarations, audit), among the rest.
    for (const p of [
      'order/orderList',
      'order/orders',
      'order/downloadOrderExcel',
      'order/batches',
      'items',
      'orderReviews',
      'order/list/interception',
      'meituan_reservation_orders',
      'meituan_reservation_order/export',
      'storageOrders',
      'exportDeclarations',
      'exportDeclaration/download',
      'exportDeclaration/download2',
      'exportDeclaration/downloadDeclareAtCustoms',
      'admin/audit/list',
    ])
      expect(paths.has(p), p).toBe(true);
  });

  it.each(dateFields.map((f) => [`${f.call.path} ${f.path.join('.')}`, f]))(
    '%s: 2026-13-01, 2026-02-30, 9999-12-31 and 1999-12-31 are a 422 naming the field; 2000-01-01 and 2099-12-31 are days',
    async (_, { call, path }) => {
      const field = path.join('.');
      for (const [value, message] of [
        ['2026-13-01', 'This date does not exist.'],
        ['2026-02-30', 'This date does not exist.'],
        ['9999-12-31', 'Enter a date from 2000-01-01 to 2099-12-31.'],
        ['1999-12-31', 'Enter a date from 2000-01-01 to 2099-12-31.'],
      ] as const) {
        const r = await send(call, bodyWith(call, path, value));
        const where = `${value}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`;
        expect(r.status, where).toBe(422);
        expect(r.body.data?.[field], where).toEqual([message]);
      }
      for (const value of ['2000-01-01', '2099-12-31', '2028-02-29']) {
        const r = await send(call, bodyWith(call, path, value));
        const where = `${value}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`;
        expect(r.status, where).toBeLessThan(500);
        // A call may still refuse the day for its own reason (a pickup day already closed), not as a date.
        for (const m of r.body?.data?.[field] ?? []) expect(dateMessages, where).not.toContain(m);
      }
    },
  );
});

describe('finding 7: order/getOrderNumber and order/search', () => {
  it('order/getOrderNumber for a customer that does not exist: 422 on customerId', async () => {
    const r = await h.post('order/getOrderNumber', { customerId: 2_000_000_000 }, admin, { 'accept-language': 'en' });
    expect(r.status, JSON.stringify(r.body)).toBe(422);
    expect(r.body.data).toEqual({ customerId: ['This customer does not exist.'] });
    const zh = await h.post('order/getOrderNumber', { customerId: 2_000_000_000 }, admin, {
      'accept-language': 'zh-CN',
    });
    expect(zh.body.data).toEqual({ customerId: ['该客户不存在。'] });
    // An existing customer still gets a number.
    const ok = await h.post('order/getOrderNumber', { customerId: ids.customer }, admin);
    expect(ok.status).toBe(200);
    expect(ok.body.data.orderNo).toMatch(/^DEMO\d{12}$/);
  });

  it('order/search of blank numbers only: 422 on numbers; blanks beside a number are dropped', async () => {
    for (const numbers of [[''], ['', '  '], ' \n , ']) {
      const r = await h.post('order/search', { numbers, page: 1, size: 20 }, admin, { 'accept-language': 'en' });
      expect(r.status, JSON.stringify(r.body)).toBe(422);
      expect(r.body.data).toEqual({ numbers: ['Required.'] });
    }
    const o = await h.db.selectFrom('orders').select('order_no').orderBy('id').executeTakeFirstOrThrow();
    const r = await h.post('order/search', { numbers: ['', o.order_no, ' '], page: 1, size: 20 }, admin);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data.list.map((f: any) => f.order?.orderNo ?? f.orderNo)).toContain(o.order_no);
    expect(r.body.data.notFound).toEqual([]);
  });
});

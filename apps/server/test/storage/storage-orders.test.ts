import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { transition } from '../../src/domain/order-life.ts';
import { openResponse, sealRequest } from '../aes-client.ts';
import { createHarness, type Harness, listening, multipart } from '../harness.ts';
import { aes, aesBlob, outsider } from '../items/helpers.ts';
import { cloneOrders } from '../support/orders.ts';

/**
 * Inbound storage and outbound shipping (issue 13), every call through AES: per-line outcomes,
 * the tenant matrix, the Excel storage's error workbook, outbound refusals, the manifest read
 * back, and two scanners storing the same waybills at once (each order received once).
 */
let h: Harness;
let demo: string;
let demo2: string;
let agent: string;
let operator: string;
let other: { customerId: number; token: string };
let demoId: number;
let demo2Id: number;

/** New orders of a customer with their items: each test gets orders of its own. */
const take = (customerId: number, n: number) => cloneOrders(h.db, customerId, n, 'ST', { items: true });
async function move(t: Parameters<typeof transition>[1], ids: number[], reason?: string) {
  const r = await h.db
    .transaction()
    .execute((trx) => transition(trx, t, ids, { at: new Date().toISOString(), by: null, reason: reason ?? null }));
  expect(r.done.length).toBe(ids.length);
}
const state = (id: number) =>
  h.db
    .selectFrom('orders')
    .select(['status', 'received_at', 'shipped_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
const events = async (id: number, kind: string) =>
  Number(
    (
      await h.db
        .selectFrom('tracking_events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('order_id', '=', id)
        .where('kind', '=', kind)
        .executeTakeFirstOrThrow()
    ).n,
  );

const blob = (path: string, body: unknown, token: string, lang = 'en') => aesBlob(h, path, body, token, lang);
async function upload(
  path: string,
  token: string,
  file: Buffer,
  fields: Record<string, unknown> = {},
  name = 'w.xlsx',
) {
  const m = multipart(sealRequest(token, fields), { name, data: file });
  const res = await h.app.inject({
    method: 'POST',
    url: `/api/${path}`,
    headers: { 'content-type': m.contentType, authorization: `Bearer ${token}`, aes: '1', 'accept-language': 'en' },
    payload: m.payload,
  });
  const body = res.json();
  return { status: res.statusCode, data: res.statusCode === 200 ? (openResponse(token, body) as any) : body.data };
}
async function xlsx(rows: (string | number)[][]) {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('S');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
async function readBack(bytes: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as never);
  const ws = wb.worksheets[0]!;
  const rows: unknown[][] = [];
  ws.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
  return rows;
}
const store = (token: string, body: Record<string, unknown>, lang = 'en') =>
  aes(h, 'storageOrder/create', { origin: 'counter', ...body }, token, lang);

beforeAll(async () => {
  h = await createHarness();
  [demo, demo2, agent, operator] = await Promise.all(['demo', 'demo2', 'agent', 'operator'].map((n) => h.login(n)));
  other = await outsider(h, 'storageoutsider');
  const ids = await h.db
    .selectFrom('users')
    .select(['name', 'customer_id'])
    .where('name', 'in', ['demo', 'demo2'])
    .execute();
  demoId = ids.find((r) => r.name === 'demo')!.customer_id!;
  demo2Id = ids.find((r) => r.name === 'demo2')!.customer_id!;
});

describe('storing by entry', () => {
  it('answers every line with its outcome and receives only what may be received', async () => {
    const [a, b, c, d, e] = await take(demoId, 5);
    const [theirs] = await take(demo2Id, 1);
    await move('receive', [b!.id]);
    await move('intercept', [c!.id]);
    await move('cancel', [d!.id]);
    // The warehouse receives (issue 26: a customer's entry is a pre-alert, storage-pre-alert.test.ts).
    const r = await store(operator, {
      customerId: demoId,
      origin: 'pickup',
      waybillNos: [
        a!.waybill_no,
        ` ${a!.waybill_no.toLowerCase()} `,
        b!.waybill_no,
        c!.waybill_no,
        d!.waybill_no,
        'NOSUCH0001',
        theirs!.waybill_no,
      ],
    });
    expect(r.status).toBe(200);
    // Spec §5: a waybill entered twice is received by its last line (issue 28 #18).
    expect(r.data.lines.map((l: any) => l.outcome)).toEqual([
      'duplicate',
      'received',
      'alreadyReceived',
      'intercepted',
      'cancelled',
      'notFound',
      'otherCustomer',
    ]);
    expect(r.data.lines[1]).toMatchObject({ ok: true, order: { id: a!.id, status: 'received' } });
    expect(r.data.lines[0].message).toBe(
      `Waybill ${a!.waybill_no} is entered again further down; the last line counts.`,
    );
    expect(r.data.lines[3].message).toContain('intercepted');
    expect(r.data.lines[5].message).toBe('No order has waybill NOSUCH0001.');
    expect(r.data.lines[6].order.id).toBe(theirs!.id);
    expect(r.data.storageOrder).toMatchObject({
      method: 'entry',
      origin: 'pickup',
      customerId: demoId,
      lineCount: 7,
      receivedCount: 1,
      refusedCount: 6,
      status: 'partial',
    });
    expect((await state(a!.id)).status).toBe('received');
    expect(await events(a!.id, 'received')).toBe(1);
    for (const o of [c!, d!]) expect(['created', 'printed', 'cancelled']).toContain((await state(o.id)).status);
    expect((await state(theirs!.id)).received_at).toBeNull();
    expect(await events(theirs!.id, 'received')).toBe(0);

    // A scanner adds one waybill a call to the same storage order; one already stored is a duplicate.
    const again = await store(operator, { id: r.data.storageOrder.id, waybillNos: [a!.waybill_no] }, 'zh-CN');
    expect(again.data.lines[0]).toMatchObject({ outcome: 'duplicate', ok: false });
    expect(again.data.lines[0].message).toContain('重复');
    const next = await store(operator, { id: r.data.storageOrder.id, waybillNos: [e!.waybill_no] });
    expect(next.data.lines[0].outcome).toBe('received');
    expect(next.data.storageOrder).toMatchObject({ lineCount: 9, receivedCount: 2 });

    // The storage order's lines with each order's receive state.
    const lines = await aes(h, 'storageOrder/orders', { id: r.data.storageOrder.id, order: 'asc', limit: 50 }, demo);
    expect(lines.status).toBe(200);
    expect(lines.data.total).toBe(9);
    expect(lines.data.list[1]).toMatchObject({
      code: a!.waybill_no,
      outcome: 'received',
      order: { status: 'received' },
    });
    const refused = await aes(h, 'storageOrder/orders', { id: r.data.storageOrder.id, result: 'refused' }, demo);
    expect(refused.data.total).toBe(7);
  });

  it('an operator names a customer (others refused as such) or none (any customer, seen by operators only)', async () => {
    const [mine] = await take(demoId, 1);
    const [theirs] = await take(demo2Id, 1);
    const named = await store(operator, { customerId: demoId, waybillNos: [mine!.waybill_no, theirs!.waybill_no] });
    expect(named.data.lines.map((l: any) => l.outcome)).toEqual(['received', 'otherCustomer']);
    expect((await state(theirs!.id)).received_at).toBeNull();
    const any = await store(operator, { waybillNos: [theirs!.waybill_no] });
    expect(any.data.lines[0].outcome).toBe('received');
    expect(any.data.storageOrder.customerId).toBeNull();
    const seen = await aes(h, 'storageOrders', { limit: 500 }, demo2);
    expect(seen.data.list.map((s: any) => s.id)).not.toContain(any.data.storageOrder.id);
    expect((await aes(h, 'storageOrder/orders', { id: any.data.storageOrder.id }, demo2)).status).toBe(404);
    const ops = await aes(h, 'storageOrders', { limit: 500 }, operator);
    expect(ops.data.list.map((s: any) => s.id)).toContain(any.data.storageOrder.id);
  });

  it('offers the three origins in the caller language', async () => {
    const en = await aes(h, 'storageOrder/originSelect', {}, demo);
    expect(en.data).toEqual([
      { value: 'pickup', label: 'Pickup' },
      { value: 'selfSend', label: 'Self-send' },
      { value: 'counter', label: 'Counter' },
    ]);
    const zh = await aes(h, 'storageOrder/originSelect', {}, demo, 'zh-CN');
    expect(zh.data[0].label).toBe('上门取件');
    // Not AES: refused.
    expect((await h.post('storageOrder/originSelect', {}, demo)).status).toBeGreaterThanOrEqual(400);
  });
});

describe('the demo seed', () => {
  it('gives demo and demo2 a storage order each (each sees only its own) and operators their shipments', async () => {
    const mine = await aes(h, 'storageOrders', { limit: 500 }, demo);
    const nos = mine.data.list.map((s: any) => s.storageNo);
    expect(nos.some((n: string) => n.endsWith('DEMO1'))).toBe(true);
    expect(nos.some((n: string) => n.endsWith('DEMO2'))).toBe(false);
    const seeded = mine.data.list.find((s: any) => s.storageNo.endsWith('DEMO1'));
    const lines = await aes(h, 'storageOrder/orders', { id: seeded.id, limit: 50 }, demo);
    expect(lines.data.list.some((l: any) => l.outcome === 'notFound')).toBe(true);
    expect(lines.data.list.filter((l: any) => l.ok).every((l: any) => l.order.receivedAt)).toBe(true);
    const shipped = await aes(h, 'storageOrder/shipments', { limit: 50 }, operator);
    expect(shipped.data.list.filter((s: any) => s.shipmentNo.includes('DEMO')).length).toBe(2);
  });
});

describe('the tenant matrix', () => {
  let demoSo: number;
  beforeAll(async () => {
    const [o] = await take(demoId, 1);
    demoSo = (await store(demo, { waybillNos: [o!.waybill_no] })).data.storageOrder.id;
  });
  it("demo2 reads, extends and stores nothing of demo's", async () => {
    const list = await aes(h, 'storageOrders', { limit: 500 }, demo2);
    expect(list.status).toBe(200);
    expect(list.data.list.every((s: any) => s.customerId === demo2Id)).toBe(true);
    expect((await aes(h, 'storageOrder/orders', { id: demoSo }, demo2)).status).toBe(404);
    const [o] = await take(demo2Id, 1);
    expect((await store(demo2, { id: demoSo, waybillNos: [o!.waybill_no] })).status).toBe(404);
    expect((await state(o!.id)).received_at).toBeNull();
    // A customer cannot name another customer.
    expect((await store(demo2, { customerId: demoId, waybillNos: [o!.waybill_no] })).status).toBe(422);
    // Nor ship anything.
    expect((await aes(h, 'storageOrder/outSingle', { code: o!.waybill_no }, demo2)).status).toBe(403);
    expect((await aes(h, 'storageOrder/outBatch', { orderIds: [o!.id] }, demo2)).status).toBe(403);
    expect((await aes(h, 'storageOrder/shipments', {}, demo2)).status).toBe(403);
  });
  it("an agent stores and reads only its customers'", async () => {
    const [o] = await take(demoId, 1);
    const [x] = await take(demo2Id, 1);
    await h.db.updateTable('orders').set({ customer_id: other.customerId }).where('id', '=', x!.id).execute();
    expect((await store(agent, { waybillNos: [o!.waybill_no] })).status).toBe(422); // names no customer
    const r = await store(agent, { customerId: demoId, waybillNos: [o!.waybill_no, x!.waybill_no] });
    // An agent's entry is a pre-alert: announced, not received.
    expect(r.data.lines.map((l: any) => l.outcome)).toEqual(['preAlerted', 'notFound']);
    expect((await state(o!.id)).received_at).toBeNull();
    expect((await state(x!.id)).received_at).toBeNull();
    expect((await store(agent, { customerId: other.customerId, waybillNos: [x!.waybill_no] })).status).toBe(422);
    const outsiderSo = (await store(other.token, { waybillNos: [x!.waybill_no] })).data.storageOrder.id;
    const list = await aes(h, 'storageOrders', { limit: 500 }, agent);
    const ids = list.data.list.map((s: any) => s.id);
    expect(ids).toContain(demoSo);
    expect(ids).not.toContain(outsiderSo);
    expect((await aes(h, 'storageOrder/orders', { id: outsiderSo }, agent)).status).toBe(404);
  });
});

describe('the storage list', () => {
  it('filters and sorts on the server', async () => {
    const [o] = await take(demo2Id, 1);
    const so = (await store(demo2, { origin: 'selfSend', waybillNos: [o!.waybill_no, 'NOSUCH0002'] })).data
      .storageOrder;
    const by = async (f: Record<string, unknown>) =>
      (await aes(h, 'storageOrders', { limit: 500, ...f }, demo2)).data.list.map((s: any) => s.id);
    expect(await by({ storageNo: so.storageNo.toLowerCase() })).toEqual([so.id]);
    expect(await by({ origin: 'selfSend', status: 'partial' })).toContain(so.id);
    expect(await by({ status: 'received' })).not.toContain(so.id);
    expect(await by({ method: 'excel' })).not.toContain(so.id);
    const today = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
    expect(await by({ dateFrom: today, dateTo: today })).toContain(so.id);
    expect(await by({ dateTo: '2020-01-01' })).toEqual([]);
    const asc = await aes(h, 'storageOrders', { sort: 'lineCount', order: 'asc' }, operator);
    const counts = asc.data.list.map((s: any) => s.lineCount);
    expect(counts).toEqual([...counts].sort((x: number, y: number) => x - y));
  });
});

describe('storing from Excel', () => {
  it('stores column A, reports refused rows and leaves them in an error workbook for the uploader only', async () => {
    const [a, b] = await take(demoId, 2);
    const file = await xlsx([['运单号'], [a!.waybill_no], ['NOSUCH0003'], [b!.waybill_no], [a!.waybill_no]]);
    const r = await upload('storageOrder/createBatch', demo, file, { origin: 'counter' });
    expect(r.status).toBe(200);
    expect(r.data.storageOrder).toMatchObject({ method: 'excel', lineCount: 4, receivedCount: 2, fileName: 'w.xlsx' });
    expect(r.data.refused.map((l: any) => [l.row, l.outcome])).toEqual([
      [2, 'duplicate'],
      [3, 'notFound'],
    ]);
    // A customer's Excel is a pre-alert too: counted as announced, nothing received.
    expect(r.data.storageOrder.preAlert).toBe(true);
    expect((await state(b!.id)).status).toBe('created');
    const errors = await blob('storageOrder/createBatch/errors', { fileId: r.data.errorFileId }, demo);
    expect(errors.status).toBe(200);
    expect(String(errors.headers['content-disposition'])).toContain('.xlsx');
    const rows = await readBack(errors.bytes);
    expect(rows[0]).toEqual(['Waybill number', 'Reason', 'Row']);
    expect(rows.slice(1)).toEqual([
      [a!.waybill_no, `Waybill ${a!.waybill_no} is entered again further down; the last line counts.`, 2],
      ['NOSUCH0003', 'No order has waybill NOSUCH0003.', 3],
    ]);
    expect((await blob('storageOrder/createBatch/errors', { fileId: r.data.errorFileId }, demo2)).status).toBe(404);
    // An Excel storage order takes no typed lines.
    expect((await store(demo, { id: r.data.storageOrder.id, waybillNos: ['X1'] })).status).toBe(409);
  });
  it('refuses a file that is not an xlsx, and a sheet without waybills, with the field', async () => {
    const bad = await upload('storageOrder/createBatch', demo, Buffer.from('waybill\nEE1'), {}, 'w.csv');
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.data)).toEqual(['file']);
    const empty = await upload('storageOrder/createBatch', demo, await xlsx([['Waybill']]));
    expect(empty.status).toBe(422);
    expect(empty.data.file[0]).toContain('no waybill');
  });
});

describe('outbound', () => {
  it('ships received orders, refuses the others with the reason, and keeps a manifest', async () => {
    const [ok1, ok2, created, inter, err] = await take(demoId, 5);
    await move('receive', [ok1!.id, ok2!.id, inter!.id, err!.id]);
    await move('intercept', [inter!.id]);
    await move('flagError', [err!.id], 'errorReason.idCardNameMismatch');
    const first = await aes(h, 'storageOrder/outSingle', { code: created!.waybill_no }, operator);
    expect(first.status).toBe(200);
    expect(first.data.line).toMatchObject({ outcome: 'refused', ok: false });
    expect(first.data.line.message).toContain('not been received');
    expect(first.data.shipment).toBeNull();
    const one = await aes(h, 'storageOrder/outSingle', { code: ok1!.waybill_no }, operator);
    expect(one.data.line).toMatchObject({ outcome: 'shipped', order: { status: 'shipped' } });
    const sid = one.data.shipment.id;
    const i = await aes(h, 'storageOrder/outSingle', { shipmentId: sid, code: inter!.waybill_no }, operator);
    expect(i.data.line.message).toContain('intercepted');
    const e = await aes(h, 'storageOrder/outSingle', { shipmentId: sid, code: err!.waybill_no }, operator);
    expect(e.data.line.message).toContain('error order');
    const two = await aes(h, 'storageOrder/outSingle', { shipmentId: sid, code: ok2!.waybill_no }, operator);
    expect(two.data.shipment).toMatchObject({ id: sid, orderCount: 2, method: 'single' });
    expect((await state(ok2!.id)).status).toBe('shipped');
    expect(await events(ok2!.id, 'shipped')).toBe(1);
    for (const o of [created!, inter!, err!]) expect((await state(o.id)).shipped_at).toBeNull();

    const m = await blob('storageOrder/manifest', { shipmentId: sid }, operator);
    expect(m.status).toBe(200);
    const rows = await readBack(m.bytes);
    expect(rows[0]).toEqual([
      'Waybill number',
      'Order number',
      'Customer',
      'Recipient city',
      'Weight (kg)',
      'Pieces',
      'Items',
      'Declared value',
      'Currency',
    ]);
    expect(rows.length).toBe(3);
    const detail = await h.db
      .selectFrom('orders')
      .select(['waybill_no', 'order_no', 'recipient_city', 'total_amount', 'currency'])
      .where('id', '=', ok1!.id)
      .executeTakeFirstOrThrow();
    const items = await h.db
      .selectFrom('order_items')
      .select(['name', 'quantity'])
      .where('order_id', '=', ok1!.id)
      .orderBy('line_no')
      .execute();
    const row = rows.find((r) => r[0] === detail.waybill_no)!;
    expect(row.slice(0, 4)).toEqual([detail.waybill_no, detail.order_no, 'DEMO', detail.recipient_city]);
    expect(row[4]).toBeUndefined(); // no weight in the system: the column waits for the scale
    expect(row[5]).toBe(items.reduce((n, it) => n + it.quantity, 0));
    expect(row[6]).toBe(items.map((it) => `${it.name} ×${it.quantity}`).join('; '));
    expect(row[7]).toBe(detail.currency === 'JPY' ? Number(detail.total_amount) : Number(detail.total_amount) / 100);
    expect(row[8]).toBe(detail.currency);
  });

  it('out batch ships selected ids and typed waybills in one shipment; refusals line by line', async () => {
    const [a, b, c] = await take(demoId, 3);
    await move('receive', [a!.id, b!.id]);
    const page = await aes(h, 'storageOrder/shippable', { code: a!.waybill_no }, operator);
    expect(page.data.list.map((o: any) => o.id)).toEqual([a!.id]);
    const r = await aes(
      h,
      'storageOrder/outBatch',
      { orderIds: [a!.id], waybillNos: [b!.waybill_no, c!.waybill_no, a!.waybill_no, 'NOSUCH0004'] },
      operator,
    );
    expect(r.status).toBe(200);
    // Spec §5: an order entered twice ships on its last line (issue 28 #18).
    expect(r.data.lines.map((l: any) => l.outcome)).toEqual(['duplicate', 'shipped', 'refused', 'shipped', 'notFound']);
    // The selected order's line names its waybill, not its internal id (issue 36 #22).
    expect(r.data.lines.map((l: any) => l.code)).toEqual([
      a!.waybill_no,
      b!.waybill_no,
      c!.waybill_no,
      a!.waybill_no,
      'NOSUCH0004',
    ]);
    expect(r.data.shipment).toMatchObject({ method: 'batch', orderCount: 2 });
    const list = await aes(h, 'storageOrder/shipments', { shipmentNo: r.data.shipment.shipmentNo }, operator);
    expect(list.data.list.map((s: any) => s.id)).toEqual([r.data.shipment.id]);
    // Shipping them again: nothing goes, no shipment.
    const again = await aes(h, 'storageOrder/outBatch', { orderIds: [a!.id] }, operator);
    expect(again.data.shipment).toBeNull();
    expect(again.data.lines[0].message).toContain('already shipped');
    // From an xlsx.
    const [d] = await take(demoId, 1);
    await move('receive', [d!.id]);
    const up = await upload('storageOrder/outBatchUpload', operator, await xlsx([['Waybill'], [d!.waybill_no]]));
    expect(up.status).toBe(200);
    expect(up.data.lines[0].outcome).toBe('shipped');
  });
});

describe('two scanners at once', () => {
  it('store the same waybills in parallel: each order is received once, with one event', async () => {
    const http = await listening(h.app);
    const orders = await take(demoId, 6);
    const send = async (token: string, waybill: string, id?: number) => {
      const r = await http.post(
        'storageOrder/create',
        sealRequest(token, { id, origin: 'counter', waybillNos: [waybill] }),
        token,
        { aes: '1' },
      );
      expect(r.status).toBe(200);
      return openResponse(token, r.body) as any;
    };
    // Two warehouse accounts (a customer's entry only pre-alerts).
    const admin = await h.login('admin');
    const scanners = await Promise.all([admin, operator].map((t) => send(t, orders[0]!.waybill_no)));
    const ids = scanners.map((s) => s.storageOrder.id);
    const results = await Promise.all(
      orders.slice(1).flatMap((o) => [send(admin, o.waybill_no, ids[0]), send(operator, o.waybill_no, ids[1])]),
    );
    const all = [...scanners, ...results].map((r) => r.lines[0]);
    for (const o of orders) {
      const lines = all.filter((l) => l.code === o.waybill_no);
      expect(lines.map((l) => l.outcome).sort()).toEqual(['alreadyReceived', 'received']);
      expect(await events(o.id, 'received')).toBe(1);
    }
    const totals = await h.db
      .selectFrom('storage_orders')
      .select(['received_count', 'line_count'])
      .where('id', 'in', ids)
      .execute();
    expect(totals.reduce((n, t) => n + Number(t.received_count), 0)).toBe(6);
    expect(totals.reduce((n, t) => n + Number(t.line_count), 0)).toBe(12);
  });
});

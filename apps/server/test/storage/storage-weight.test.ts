import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { openResponse, sealRequest } from '../aes-client.ts';
import { createHarness, type Harness, multipart } from '../harness.ts';
import { aes } from '../items/helpers.ts';
import { cloneOrders } from '../support/orders.ts';

/**
 * The gross weight at the storage scan (issue 17): entered beside each waybill (or column B of
 * the Excel storage), it becomes the received order's weight in the receive's transaction, the
 * line keeps it, and the freight written at shipping is priced by it. Refusals are 422 on the
 * field (entry) or refused rows in the error workbook (Excel); another tenant's order is never
 * weighed.
 */
let h: Harness;
let demo: string;
let demo2: string;
let agent: string;
let operator: string;
let demoId: number;
let demo2Id: number;

/** Fresh JP orders of a customer (status created). */
const take = (customerId: number, n: number) =>
  cloneOrders(h.db, customerId, n, 'WG', {
    channel: 'JP',
    // No remote surcharge, no tax line: the freight is the only charge of the tests.
    over: { gross_weight_g: null, recipient_province: '浙江省', tax_estimate: null },
  });
const weightOf = async (id: number) =>
  (await h.db.selectFrom('orders').select('gross_weight_g').where('id', '=', id).executeTakeFirstOrThrow())
    .gross_weight_g;
const declaredOf = async (id: number) =>
  (await h.db.selectFrom('orders').select('declared_weight_g').where('id', '=', id).executeTakeFirstOrThrow())
    .declared_weight_g;
const store = (token: string, body: Record<string, unknown>, lang = 'en') =>
  aes(h, 'storageOrder/create', { origin: 'counter', ...body }, token, lang);

async function upload(token: string, file: Buffer, fields: Record<string, unknown> = {}) {
  const m = multipart(sealRequest(token, fields), { name: 'w.xlsx', data: file });
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/storageOrder/createBatch',
    headers: { 'content-type': m.contentType, authorization: `Bearer ${token}`, aes: '1', 'accept-language': 'en' },
    payload: m.payload,
  });
  const body = res.json();
  return { status: res.statusCode, data: res.statusCode === 200 ? (openResponse(token, body) as any) : body.data };
}
async function xlsx(rows: (string | number | null)[][]) {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('S');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

beforeAll(async () => {
  h = await createHarness();
  [demo, demo2, agent, operator] = await Promise.all(['demo', 'demo2', 'agent', 'operator'].map((n) => h.login(n)));
  const ids = await h.db
    .selectFrom('users')
    .select(['name', 'customer_id'])
    .where('name', 'in', ['demo', 'demo2'])
    .execute();
  demoId = ids.find((r) => r.name === 'demo')!.customer_id!;
  demo2Id = ids.find((r) => r.name === 'demo2')!.customer_id!;
});

describe('weight at the entry scan', () => {
  it('received lines weigh their orders; a line without a weight keeps the order weight; lines answer theirs', async () => {
    const [a, b, c, d] = await take(demoId, 4);
    await h.db.updateTable('orders').set({ gross_weight_g: 777 }).where('id', '=', c!.id).execute();
    const r = await store(operator, {
      customerId: demoId,
      waybillNos: [a!.waybill_no, b!.waybill_no, c!.waybill_no, 'NOSUCHW01', a!.waybill_no],
      grossWeightsG: [999, 1001, null, 300, 2600],
    });
    expect(r.status).toBe(200);
    // Spec §5: a waybill entered twice is received by its last line (issue 28 #18).
    expect(r.data.lines.map((l: any) => [l.outcome, l.grossWeightG])).toEqual([
      ['duplicate', 999],
      ['received', 1001],
      ['received', null],
      ['notFound', 300],
      ['received', 2600],
    ]);
    expect(await weightOf(a!.id)).toBe(2600); // the duplicate's 999 is not written
    expect(await weightOf(b!.id)).toBe(1001);
    expect(await weightOf(c!.id)).toBe(777);
    // A scanner's next call adds a line with its weight; no weights at all is as before.
    const next = await store(operator, { id: r.data.storageOrder.id, waybillNos: [d!.waybill_no] });
    expect(next.data.lines[0]).toMatchObject({ outcome: 'received', grossWeightG: null });
    expect(await weightOf(d!.id)).toBeNull();
    // The storage order's lines keep each scan's weight.
    const lines = await aes(h, 'storageOrder/orders', { id: r.data.storageOrder.id, order: 'asc', limit: 50 }, demo);
    expect(lines.data.list.map((l: any) => l.grossWeightG)).toEqual([999, 1001, null, 300, 2600, null]);

    // Shipping prices the freight by the scanned weight under demo's card (seeded: first 500 g
    // 1,200; to 2 kg each started 500 g 300; beyond each started kg 500; minimum 1,200).
    const shipped = await aes(h, 'storageOrder/outBatch', { orderIds: [a!.id, b!.id, c!.id, d!.id] }, operator);
    expect(shipped.status).toBe(200);
    const freight = await h.db
      .selectFrom('charges')
      .select(['order_id', 'amount_minor', 'weight_g'])
      .where('kind', '=', 'freight')
      .where('order_id', 'in', [a!.id, b!.id, c!.id, d!.id])
      .execute();
    const by = new Map(freight.map((f) => [f.order_id, [Number(f.amount_minor), f.weight_g]]));
    expect(by.get(a!.id)).toEqual([1200 + 3 * 300 + 500, 2600]);
    expect(by.get(b!.id)).toEqual([1200 + 2 * 300, 1001]);
    expect(by.get(c!.id)).toEqual([1200 + 300, 777]);
    // Never weighed: the first weight, and the line says no weight.
    expect(by.get(d!.id)).toEqual([1200, null]);
  });

  it('weights must be one per waybill and whole grams 1..100,000: 422 on the field in both languages', async () => {
    const [a] = await take(demoId, 1);
    const short = await store(demo, { waybillNos: [a!.waybill_no, 'X1'], grossWeightsG: [100] });
    expect(short.status).toBe(422);
    expect(Object.keys(short.data)).toEqual(['grossWeightsG']);
    expect(short.data.grossWeightsG[0]).toMatch(/one weight per waybill/);
    const zh = await store(demo, { waybillNos: [a!.waybill_no], grossWeightsG: [1, 2] }, 'zh-CN');
    expect(zh.status).toBe(422);
    expect(zh.data.grossWeightsG[0]).toContain('运单号');
    for (const bad of [0, 100_001, 1.5, -3, '1200']) {
      const r = await store(demo, { waybillNos: [a!.waybill_no], grossWeightsG: [bad] });
      expect(r.status).toBe(422);
      expect(Object.keys(r.data)).toEqual(['grossWeightsG.0']);
    }
    // Nothing was received by the refused calls.
    expect(
      (await h.db.selectFrom('orders').select('status').where('id', '=', a!.id).executeTakeFirstOrThrow()).status,
    ).toBe('created');
    const edge = await store(operator, { customerId: demoId, waybillNos: [a!.waybill_no], grossWeightsG: [100_000] });
    expect(edge.data.lines[0]).toMatchObject({ outcome: 'received', grossWeightG: 100_000 });
    expect(await weightOf(a!.id)).toBe(100_000);
  });

  it("no one weighs another tenant's order: it reads as not found and keeps its weight", async () => {
    const [mine] = await take(demoId, 1);
    const [theirs] = await take(demo2Id, 1);
    await h.db.updateTable('orders').set({ gross_weight_g: 555 }).where('id', '=', theirs!.id).execute();
    // A customer's weights are declared ones (issue 26): the measured weight stays the warehouse's.
    const r = await store(demo, {
      waybillNos: [mine!.waybill_no, theirs!.waybill_no],
      grossWeightsG: [800, 9000],
    });
    expect(r.data.lines.map((l: any) => l.outcome)).toEqual(['preAlerted', 'notFound']);
    expect(await weightOf(mine!.id)).toBeNull();
    expect(await declaredOf(mine!.id)).toBe(800);
    expect(await weightOf(theirs!.id)).toBe(555);
    expect(await declaredOf(theirs!.id)).toBeNull();
    // An operator's entry named for demo refuses demo2's order as another customer's: no weight either.
    const op = await store(operator, { customerId: demoId, waybillNos: [theirs!.waybill_no], grossWeightsG: [9000] });
    expect(op.data.lines[0].outcome).toBe('otherCustomer');
    expect(await weightOf(theirs!.id)).toBe(555);
    // An agent declares its customer's weight; a customer never ships (the freight is the operator's move).
    const [agents] = await take(demo2Id, 1);
    const ag = await store(agent, { customerId: demo2Id, waybillNos: [agents!.waybill_no], grossWeightsG: [1500] });
    expect(ag.data.lines[0]).toMatchObject({ outcome: 'preAlerted', grossWeightG: 1500, declaredWeightG: 1500 });
    expect(await weightOf(agents!.id)).toBeNull();
    expect((await aes(h, 'storageOrder/outBatch', { orderIds: [agents!.id] }, demo2)).status).toBe(403);
    expect((await aes(h, 'storageOrder/outBatch', { orderIds: [agents!.id] }, agent)).status).toBe(403);
  });
});

describe('weight in the Excel storage (column B)', () => {
  it('stores good weights; a bad one refuses its row into the error workbook with the reason', async () => {
    const [a, b, c, d, e, f] = await take(demoId, 6);
    const file = await xlsx([
      ['Waybill', 'Gross weight (g)'],
      [a!.waybill_no, 1500],
      [b!.waybill_no, 'abc'],
      [c!.waybill_no, 0],
      [d!.waybill_no, null],
      [e!.waybill_no, 100_001],
      [f!.waybill_no, 12.5],
      // b again with a good weight: the refused row above stored nothing, so this is no duplicate.
      [b!.waybill_no, '2000'],
    ]);
    // The warehouse's Excel (a customer's is a pre-alert: storage-pre-alert.test.ts).
    const r = await upload(operator, file, { customerId: demoId });
    expect(r.status).toBe(200);
    expect(r.data.storageOrder).toMatchObject({ method: 'excel', lineCount: 7, receivedCount: 3, refusedCount: 4 });
    expect(r.data.refused.map((l: any) => [l.row, l.code, l.outcome])).toEqual([
      [3, b!.waybill_no, 'badWeight'],
      [4, c!.waybill_no, 'badWeight'],
      [6, e!.waybill_no, 'badWeight'],
      [7, f!.waybill_no, 'badWeight'],
    ]);
    expect(r.data.refused[0].message).toBe(
      `The gross weight of waybill ${b!.waybill_no} (column B) is not a whole number of grams from 1 to 100,000.`,
    );
    expect(await weightOf(a!.id)).toBe(1500);
    expect(await weightOf(b!.id)).toBe(2000);
    expect(await weightOf(d!.id)).toBeNull();
    const statuses = await h.db
      .selectFrom('orders')
      .select(['id', 'status'])
      .where('id', 'in', [c!.id, e!.id, f!.id, d!.id])
      .execute();
    expect(Object.fromEntries(statuses.map((s) => [s.id, s.status]))).toEqual({
      [c!.id]: 'created',
      [e!.id]: 'created',
      [f!.id]: 'created',
      [d!.id]: 'received',
    });
    // The error workbook names the rows and why.
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/storageOrder/createBatch/errors',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${operator}`,
        aes: '1',
        'accept-language': 'en',
      },
      payload: JSON.stringify(sealRequest(operator, { fileId: r.data.errorFileId })),
    });
    expect(res.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as never);
    const rows: unknown[][] = [];
    wb.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows.slice(1).map((x) => [x[0], x[2]])).toEqual([
      [b!.waybill_no, 3],
      [c!.waybill_no, 4],
      [e!.waybill_no, 6],
      [f!.waybill_no, 7],
    ]);
    expect(String(rows[1]![1])).toMatch(/column B/);
    // The lines keep the weights read (none on a refused weight).
    const lines = await aes(h, 'storageOrder/orders', { id: r.data.storageOrder.id, order: 'asc', limit: 50 }, demo);
    expect(lines.data.list.map((l: any) => l.grossWeightG)).toEqual([1500, null, null, null, null, null, 2000]);
  });
});

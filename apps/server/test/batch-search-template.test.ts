import { batches } from '@console/contract';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, multipart } from './harness.ts';

/**
 * Issue 28 (from item 17): the waybill / order-number template (download/waybillNumber) and
 * Batch Orders Search, the page that offers it, agree: order numbers in column A, waybill
 * numbers in B, both read; the example row left out; any other sheet read in column A only.
 */
let h: Harness;
let demo: string;
let mine: { order_no: string; waybill_no: string }[];

beforeAll(async () => {
  h = await createHarness();
  demo = await h.login('demo');
  const customer = await h.db.selectFrom('customers').select('id').where('code', '=', 'DEMO').executeTakeFirstOrThrow();
  mine = (await h.db
    .selectFrom('orders')
    .select(['order_no', 'waybill_no'])
    .where('customer_id', '=', customer.id)
    .where('waybill_no', 'is not', null)
    .orderBy('id')
    .limit(3)
    .execute()) as { order_no: string; waybill_no: string }[];
  expect(mine).toHaveLength(3);
});

async function template(): Promise<ExcelJS.Workbook> {
  const res = await h.app.inject({
    method: 'POST',
    url: `/api/${batches.templates.waybillNumber.path}`,
    headers: { authorization: `Bearer ${demo}`, 'content-type': 'application/json' },
    payload: '{}',
  });
  expect(res.statusCode).toBe(200);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  return wb;
}

async function search(wb: ExcelJS.Workbook) {
  const m = multipart({}, { name: 'numbers.xlsx', data: Buffer.from(await wb.xlsx.writeBuffer()) });
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/order/orderBatchSearch',
    headers: { 'content-type': m.contentType, authorization: `Bearer ${demo}`, 'accept-language': 'en' },
    payload: m.payload,
  });
  expect(res.statusCode).toBe(200);
  const data = res.json().data as { searchId: number; total: number; notFound: string[] };
  const page = await h.post('order/orderBatchSearch/found', { searchId: data.searchId, limit: 50 }, demo);
  return { ...data, orders: (page.body.data.list as { orderNo: string }[]).map((f) => f.orderNo).sort() };
}

describe('waybill / order-number template and Batch Orders Search', () => {
  it('the template names an order-number and a waybill-number column, neither required, and an example row', async () => {
    const sheet = (await template()).worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual([undefined, '订单号 / Order No.', '运单号 / Waybill No.']);
    expect(sheet.getRow(2).getCell(1).value).toBe('EXAMPLE-0001');
  });

  it('the search reads both columns of the filled template, not its example row', async () => {
    const wb = await template();
    const sheet = wb.worksheets[0]!;
    // An order by its number, another by its waybill number, a third by both, and one unknown waybill.
    sheet.addRow([mine[0]!.order_no, null]);
    sheet.addRow([null, mine[1]!.waybill_no]);
    sheet.addRow([mine[2]!.order_no, mine[2]!.waybill_no]);
    sheet.addRow([null, 'EE000000000JP']);
    const r = await search(wb);
    expect(r.notFound).toEqual(['EE000000000JP']);
    expect(r.total).toBe(3);
    expect(r.orders).toEqual(mine.map((m) => m.order_no).sort());
  });

  it('a sheet without the template header is a list of numbers in column A (B may hold notes)', async () => {
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('mine');
    sheet.addRow([mine[0]!.waybill_no, 'fragile']);
    sheet.addRow([mine[1]!.order_no, 'call first']);
    const r = await search(wb);
    expect(r.notFound).toEqual([]);
    expect(r.total).toBe(2);
    expect(r.orders).toEqual([mine[0]!.order_no, mine[1]!.order_no].sort());
  });
});

import { idCardCheckChar } from '@console/contract';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness.ts';
import { baseRow, fill, settle, template, upload } from './helpers.ts';

/** Issue 11 findings 4–7: what the import preview offers, recognises and leads on to. */
let h: Harness;
let demo: string;
let agent: string;
let jpTpl: Buffer;
const minorId = () => {
  const f = '11010520100101123';
  return f + idCardCheckChar(f);
};

beforeAll(async () => {
  h = await createHarness({ now: new Date('2026-11-21T03:00:00Z') });
  demo = await h.login('demo');
  agent = await h.login('agent');
  jpTpl = await template(h, demo, 'download/importOrder');
});

const ordersOf = (batchId: number) =>
  h.db.selectFrom('orders').select(['order_no']).where('batch_id', '=', batchId).orderBy('order_no').execute();

async function previewOf(path: string, fields: Record<string, string>, data: Buffer, lang = 'en') {
  const up = await upload(h, path, demo, fields, { name: 'o.xlsx', data }, lang);
  expect(up.status, JSON.stringify(up.body)).toBe(200);
  return settle(h, demo, up.body.data.id, lang);
}

describe('finding 4: importing the valid orders of a batch with errors', () => {
  it('2 valid and 6 invalid rows: the preview counts 2 orders to make, 6 with errors, and imports the 2 at once', async () => {
    const rows = [
      baseRow(401, { orderNo: 'P4-OK-1' }),
      baseRow(402, { orderNo: 'P4-BAD-1', recipientPhone: '' }),
      baseRow(403, { orderNo: 'P4-BAD-2', recipientIdCard: '110105199001011230' }),
      baseRow(404, { orderNo: 'P4-BAD-3', recipientProvince: '火星' }),
      baseRow(405, { orderNo: 'P4-OK-2' }),
      // One order of two rows, only its second row wrong: both rows are invalid, both listed.
      baseRow(406, { orderNo: 'P4-BAD-4' }),
      baseRow(407, { orderNo: 'P4-BAD-4', quantity: 'x' as never }),
      baseRow(408, { orderNo: 'P4-BAD-5', recipientName: '' }),
    ];
    const p = await previewOf('order/batch/createImport', { channel: 'JP' }, await fill(jpTpl, rows));
    expect(p).toMatchObject({
      status: 'preview',
      totalRows: 8,
      validRows: 2,
      invalidRows: 6,
      orderCount: 2,
      invalidOrders: 5,
      hasErrorWorkbook: true,
    });
    // The rows counted as errors are the rows listed: row 8 (the order's first row) says why.
    const listedRows = [...new Set(p.errors.map((e: { row: number }) => e.row))];
    expect(listedRows).toHaveLength(p.invalidRows);
    expect(p.errors.find((e: { row: number }) => e.row === 8).message).toContain('row 9');
    expect(p.previewUntil).toBeTruthy();

    // Without the choice the batch is still refused whole.
    const whole = await h.post('order/batch/confirm', { id: p.id, confirmations: [] }, demo);
    expect(whole.status).toBe(422);
    expect(await ordersOf(p.id)).toEqual([]);

    const partial = await h.post('order/batch/confirm', { id: p.id, confirmations: [], skipInvalid: true }, demo);
    expect(partial.status, JSON.stringify(partial.body)).toBe(200);
    const done = await settle(h, demo, p.id);
    expect(done).toMatchObject({ status: 'done', orderCount: 2, invalidRows: 6, hasErrorWorkbook: true });
    expect((await ordersOf(p.id)).map((o) => o.order_no)).toEqual(['P4-OK-1', 'P4-OK-2']);
    expect(done.previewUntil).toBeNull();

    // The error workbook still holds the six rows to fix and upload again.
    const wbFile = await h.app.inject({
      method: 'POST',
      url: '/api/order/batch/download/errors',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${demo}` },
      payload: JSON.stringify({ id: p.id }),
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(wbFile.rawPayload as never);
    const ws = wb.worksheets[0]!;
    const header = Array.from(ws.getRow(1).values as unknown[], (v) => String(v ?? ''));
    const errCol = header.indexOf('Errors');
    // Only those six (issue 28 #6), each with its reason and its row in the upload.
    const srcCol = header.indexOf('Row in upload / 上传文件行号');
    expect(ws.actualRowCount).toBe(7);
    const flagged = [];
    for (let r = 2; r <= 7; r++)
      if (ws.getRow(r).getCell(errCol).value) flagged.push(ws.getRow(r).getCell(srcCol).value);
    expect(flagged).toEqual([4, 5, 6, 8, 9, 10]);
  });

  it('a batch whose every order has errors cannot be imported "valid only"', async () => {
    const p = await previewOf(
      'order/batch/createImport',
      { channel: 'JP' },
      await fill(jpTpl, [baseRow(410, { orderNo: 'P4-NONE', recipientPhone: '' })]),
    );
    expect(p).toMatchObject({ orderCount: 0, invalidOrders: 1 });
    const r = await h.post('order/batch/confirm', { id: p.id, confirmations: [], skipInvalid: true }, demo);
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.data)).toEqual(['id']);
  });
});

describe('finding 5: rows that need confirmation are listed with their reasons', () => {
  it('lists each order with its reasons; per-kind counts are of the listed orders; orders with errors are not asked', async () => {
    const rows = [
      baseRow(501, { orderNo: 'P5-MINOR', recipientIdCard: minorId() }),
      // Two rows of one order: one confirmation of the kind, not two.
      baseRow(502, { orderNo: 'P5-JAN', jan: '4901234567894', unitPrice: 100 }),
      baseRow(502, { orderNo: 'P5-JAN', jan: '4901234567894', unitPrice: 200 }),
      baseRow(503, { orderNo: 'P5-LIMIT', unitPrice: 120000 }),
      // A minor in an order with an error: fixed first, so not asked now.
      baseRow(504, { orderNo: 'P5-BAD-MINOR', recipientIdCard: minorId(), recipientPhone: '' }),
      baseRow(505, { orderNo: 'P5-OK' }),
    ];
    const p = await previewOf('order/batch/createImport', { channel: 'JP' }, await fill(jpTpl, rows));
    expect(p).toMatchObject({ orderCount: 4, invalidOrders: 1, invalidRows: 1, confirmRows: 4 });
    expect(
      p.confirmOrders.map((o: { orderNo: string; row: number; reasons: { kind: string }[] }) => [
        o.orderNo,
        o.row,
        o.reasons.map((r) => r.kind),
      ]),
    ).toEqual([
      ['P5-MINOR', 3, ['minorId']],
      ['P5-JAN', 4, ['multiplePricesPerJan']],
      ['P5-LIMIT', 6, ['crossBorderLimit']],
    ]);
    for (const o of p.confirmOrders) for (const r of o.reasons) expect(r.message.length).toBeGreaterThan(5);
    // Each kind counts the orders listed with it.
    const byKind = Object.fromEntries(
      p.confirmations.map((c: { kind: string; count: number; rows: number[] }) => [c.kind, [c.count, c.rows]]),
    );
    expect(byKind).toEqual({ minorId: [1, [3]], multiplePricesPerJan: [1, [4]], crossBorderLimit: [1, [6]] });
    // Only the kinds of the orders made are asked for.
    const missing = await h.post(
      'order/batch/confirm',
      { id: p.id, confirmations: ['minorId', 'multiplePricesPerJan'], skipInvalid: true },
      demo,
    );
    expect(missing.status).toBe(422);
    const ok = await h.post(
      'order/batch/confirm',
      { id: p.id, confirmations: ['minorId', 'multiplePricesPerJan', 'crossBorderLimit'], skipInvalid: true },
      demo,
    );
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect((await settle(h, demo, p.id)).status).toBe('done');
    expect((await ordersOf(p.id)).map((o) => o.order_no)).toEqual(['P5-JAN', 'P5-LIMIT', 'P5-MINOR', 'P5-OK']);
  });
});

describe('finding 6: a sheet of another template is refused, naming the kind it looks like', () => {
  it('a Japan-parcel sheet uploaded as Singapore fails in both languages; nothing can be confirmed', async () => {
    const file = await fill(jpTpl, [baseRow(601, { orderNo: 'P6-JP' })]);
    const en = await previewOf('order/batch/createImport', { channel: 'SG' }, file, 'en');
    expect(en.status).toBe('failed');
    expect(en.errorMessage).toContain('Japan parcel import template');
    expect(en.errorMessage).toContain('Singapore parcel template');
    const zh = await previewOf('order/batch/createImport', { channel: 'SG' }, file, 'zh-CN');
    expect(zh.status).toBe('failed');
    expect(zh.errorMessage).toContain('日本包裹进口订单模板');
    expect(zh.errorMessage).toContain('新加坡包裹模板');
    const c = await h.post('order/batch/confirm', { id: en.id, confirmations: [] }, demo);
    expect(c.status).toBe(409);
  });

  it('other mismatches: Singapore as Japan, the order template as a fixed channel, prices in another currency', async () => {
    const sgTpl = await template(h, demo, 'download/sg');
    const sgRow = baseRow(610, { orderNo: 'P6-SG', unitPrice: '12.5' as never });
    const sgAsJp = await previewOf('order/batch/createImport', { channel: 'JP' }, await fill(sgTpl, [sgRow]));
    expect(sgAsJp.errorMessage).toContain('looks like the Singapore parcel template');
    const orderTpl = await template(h, demo, 'download/order');
    const orderAsSg = await previewOf(
      'order/batch/createImport',
      { channel: 'SG' },
      await fill(orderTpl, [{ ...sgRow, channel: 'SG' }]),
    );
    expect(orderAsSg.errorMessage).toContain('looks like the Order template');
    // A Singapore sheet whose price header was changed to JPY: no template of its columns takes JPY here.
    const jpyPrices = await fill(sgTpl, [sgRow], (ws) => {
      ws.getRow(1).eachCell((cell) => {
        if (String(cell.value).includes('Unit Price')) cell.value = '*单价（JPY） / Unit Price (JPY)';
      });
    });
    const asSg = await previewOf('order/batch/createImport', { channel: 'SG' }, jpyPrices);
    expect(asSg.status).toBe('failed');
    expect(asSg.errorMessage).toContain('looks like the EMS template');
  });

  it('the right template passes, and a hand-made header without a currency is not refused', async () => {
    const sgTpl = await template(h, demo, 'download/sg');
    const sgRow = baseRow(620, { orderNo: 'P6-SG-OK', unitPrice: '12.5' as never });
    const ok = await previewOf('order/batch/createImport', { channel: 'SG' }, await fill(sgTpl, [sgRow]));
    expect(ok).toMatchObject({ status: 'preview', orderCount: 1, invalidRows: 0 });
    const plain = await fill(sgTpl, [{ ...sgRow, orderNo: 'P6-AU-OK' }], (ws) => {
      ws.getRow(1).eachCell((cell) => {
        if (String(cell.value).includes('Unit Price')) cell.value = 'Unit Price';
      });
    });
    const au = await previewOf('order/batch/createImport', { channel: 'AU' }, plain);
    expect(au).toMatchObject({ status: 'preview', orderCount: 1 });
    // The Japan sheet through the box-C upload: the same columns, the same sheet.
    const boxC = await previewOf(
      'order/batch/createImportByBoxC',
      {},
      await fill(jpTpl, [baseRow(621, { orderNo: 'P6-BOXC' })]),
    );
    expect(boxC).toMatchObject({ status: 'preview', orderCount: 1 });
  });
});

describe('finding 7: the batch list leads on', () => {
  it('shows agents the customer; a preview says until when it can be confirmed', async () => {
    const p = await previewOf(
      'order/batch/createImport',
      { channel: 'JP' },
      await fill(jpTpl, [baseRow(701, { orderNo: 'P7-1' })]),
    );
    const listed = await h.post('order/batches', { offset: 0, limit: 5, batchNo: p.batchNo }, agent);
    expect(listed.status).toBe(200);
    expect(listed.body.data.list).toHaveLength(1);
    expect(listed.body.data.list[0]).toMatchObject({ customerCode: 'DEMO', customerName: '演示商贸株式会社' });
    // PREVIEW_TTL_MINUTES defaults to a day.
    expect(new Date(listed.body.data.list[0].previewUntil).getTime()).toBe(
      new Date('2026-11-21T03:00:00Z').getTime() + 24 * 3_600_000,
    );
  });

  it('a preview whose every order has errors is not left "to confirm" forever: it expires with the reason', async () => {
    const p = await previewOf(
      'order/batch/createImport',
      { channel: 'JP' },
      await fill(jpTpl, [baseRow(702, { orderNo: 'P7-BAD', recipientPhone: '' })]),
    );
    expect(p).toMatchObject({ status: 'preview', orderCount: 0 });
    expect(p.previewUntil).toBeTruthy();
    const before = h.clock.now;
    h.clock.now = new Date(before.getTime() + 24 * 3_600_000 + 1000);
    try {
      // A day later (a new login: the old token has expired), a look at the batch expires it (the
      // 30-second sweep would too), and its error workbook stays.
      const token = await h.login('demo');
      const seen = await h.post('order/batch/progress', { id: p.id }, token, { 'accept-language': 'en' });
      expect(seen.body.data).toMatchObject({ status: 'failed', previewUntil: null, hasErrorWorkbook: true });
      expect(seen.body.data.errorMessage).toMatch(/expired 1440 minutes after/);
      const listed = await h.post('order/batches', { offset: 0, limit: 5, batchNo: p.batchNo }, token);
      expect(listed.body.data.list[0]).toMatchObject({ status: 'failed', previewUntil: null });
    } finally {
      h.clock.now = before;
    }
  });

  it("the demo seed's batches agree with their orders: customer, channel, count", async () => {
    // Seeded batches have no uploaded file.
    const seeded = await h.db.selectFrom('batches').selectAll().where('file_id', 'is', null).execute();
    expect(seeded.length).toBeGreaterThan(0);
    for (const b of seeded) {
      const orders = await h.db
        .selectFrom('orders')
        .select(['customer_id', 'channel_code'])
        .where('batch_id', '=', b.id)
        .execute();
      const items = await h.db
        .selectFrom('order_items')
        .innerJoin('orders', 'orders.id', 'order_items.order_id')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('orders.batch_id', '=', b.id)
        .executeTakeFirstOrThrow();
      expect(orders.length, b.batch_no).toBeGreaterThan(0);
      expect(b.order_count, b.batch_no).toBe(orders.length);
      expect(b.total_rows, b.batch_no).toBe(Number(items.n));
      expect(b.valid_rows, b.batch_no).toBe(Number(items.n));
      expect(new Set(orders.map((o) => o.channel_code)), b.batch_no).toEqual(new Set([b.channel_code]));
      expect(new Set(orders.map((o) => o.customer_id)), b.batch_no).toEqual(new Set([b.customer_id]));
    }
  });
});

import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness.ts';
import { baseRow, download, fill, jan, settle, template, upload } from './helpers.ts';

/** Issue 28: import rules a user trips over (sender, error workbook, per-box prices, wrong template). */
let h: Harness;
let demo: string;
let agent: string;
let jpTpl: Buffer;

beforeAll(async () => {
  h = await createHarness({ now: new Date('2026-11-21T03:00:00Z') });
  demo = await h.login('demo');
  agent = await h.login('agent');
  jpTpl = await template(h, demo, 'download/importOrder');
});

async function previewOf(token: string, fields: Record<string, string>, data: Buffer, lang = 'en') {
  const up = await upload(h, 'order/batch/createImport', token, fields, { name: 'o.xlsx', data }, lang);
  expect(up.status, JSON.stringify(up.body)).toBe(200);
  return settle(h, token, up.body.data.id, lang);
}

async function sheetOf(data: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(data as never);
  const ws = wb.worksheets[0]!;
  const rows: string[][] = [];
  ws.eachRow((r) => rows.push(Array.from(r.values as unknown[], (v) => String(v ?? '')).slice(1)));
  return rows;
}

describe('#5 the sender of an imported order', () => {
  it("an order without sender cells takes the customer's default sender, as single create does", async () => {
    const expected = (await h.post('order/getSendAddress', {}, demo)).body.data;
    expect(expected.name).toBeTruthy();
    const p = await previewOf(demo, { channel: 'JP' }, await fill(jpTpl, [baseRow(2801, { orderNo: 'R28-S-1' })]));
    expect(p, JSON.stringify(p.errors)).toMatchObject({ status: 'preview', invalidRows: 0, orderCount: 1 });
    await h.post('order/batch/confirm', { id: p.id, confirmations: [] }, demo);
    expect((await settle(h, demo, p.id)).status).toBe('done');
    const o = await h.db
      .selectFrom('orders')
      .select(['sender_name', 'sender_address', 'sender_phone'])
      .where('order_no', '=', 'R28-S-1')
      .executeTakeFirstOrThrow();
    expect(o).toEqual({ sender_name: expected.name, sender_address: expected.address, sender_phone: expected.phone });
  });

  it('a sender in the sheet is kept; a customer without any sender is refused at preview, in both languages', async () => {
    const own = await previewOf(
      demo,
      { channel: 'JP' },
      await fill(jpTpl, [baseRow(2802, { orderNo: 'R28-S-2', senderName: 'Own Sender KK' })]),
    );
    expect(own).toMatchObject({ status: 'preview', invalidRows: 0 });
    await h.post('order/batch/confirm', { id: own.id, confirmations: [] }, demo);
    await settle(h, demo, own.id);
    const kept = await h.db
      .selectFrom('orders')
      .select('sender_name')
      .where('order_no', '=', 'R28-S-2')
      .executeTakeFirstOrThrow();
    expect(kept.sender_name).toBe('Own Sender KK');

    // A customer with no orders and no export nomination has no default sender.
    const agentId = (await h.db.selectFrom('users').select('id').where('name', '=', 'agent').executeTakeFirstOrThrow())
      .id;
    const bare = await h.db
      .insertInto('customers')
      .values({ code: 'NOSENDER', name: 'No sender', agent_user_id: agentId, created_at: new Date().toISOString() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const file = await fill(jpTpl, [baseRow(2803, { orderNo: 'R28-S-3' })]);
    const en = await previewOf(agent, { channel: 'JP', customerId: String(bare.id) }, file);
    expect(en).toMatchObject({ status: 'preview', invalidRows: 1, orderCount: 0 });
    expect(en.errors.map((e: any) => `${e.row}:${e.columnTitle}:${e.message}`)).toContain(
      '3:Sender Name:The order has no sender: fill the sender columns, or give the customer a sender (its last order or export nomination).',
    );
    const zh = await previewOf(agent, { channel: 'JP', customerId: String(bare.id) }, file, 'zh-CN');
    expect(zh.errors[0].message).toContain('订单没有寄件人');
  });
});

describe('#6 the error workbook', () => {
  it('holds only the rows that failed, with their reasons and their row in the upload', async () => {
    const rows = [
      baseRow(2810, { orderNo: 'R28-E-OK1' }),
      baseRow(2811, { orderNo: 'R28-E-BAD1', recipientPhone: '' }),
      baseRow(2812, { orderNo: 'R28-E-OK2' }),
      baseRow(2813, { orderNo: 'R28-E-BAD2', recipientProvince: '火星' }),
      baseRow(2814, { orderNo: 'R28-E-OK3' }),
    ];
    const p = await previewOf(demo, { channel: 'JP' }, await fill(jpTpl, rows));
    expect(p).toMatchObject({ status: 'preview', invalidRows: 2, orderCount: 3, hasErrorWorkbook: true });
    const wb = await download(h, 'order/batch/download/errors', demo, { id: p.id });
    expect(wb.status).toBe(200);
    const sheet = await sheetOf(wb.data as Buffer);
    expect(sheet).toHaveLength(3); // the header and the two failed rows
    const header = sheet[0]!;
    const orderNoCol = header.findIndex((t) => t.endsWith('Order No.'));
    const errCol = header.indexOf('Errors');
    const srcCol = header.indexOf('Row in upload / 上传文件行号');
    expect(sheet.slice(1).map((r) => r[orderNoCol])).toEqual(['R28-E-BAD1', 'R28-E-BAD2']);
    expect(sheet[1]![errCol]).toContain('Recipient phone cannot be empty');
    expect(sheet[2]![errCol]).toContain('Unknown province: 火星');
    expect(sheet.slice(1).map((r) => r[srcCol])).toEqual(['4', '6']);

    // Import the valid ones, fix the error workbook and upload it: two new orders, nothing "exists".
    await h.post('order/batch/confirm', { id: p.id, confirmations: [], skipInvalid: true }, demo);
    expect((await settle(h, demo, p.id)).status).toBe('done');
    const fixed = new ExcelJS.Workbook();
    await fixed.xlsx.load(wb.data as never);
    const ws = fixed.worksheets[0]!;
    const col = (end: string) => header.findIndex((t) => t.endsWith(end)) + 1;
    ws.getRow(2).getCell(col('Recipient Phone')).value = '13800138000';
    ws.getRow(3).getCell(col('Province')).value = '北京市';
    const again = await previewOf(demo, { channel: 'JP' }, Buffer.from(await fixed.xlsx.writeBuffer()));
    expect(again, JSON.stringify(again.errors)).toMatchObject({ status: 'preview', invalidRows: 0, orderCount: 2 });
  });

  it('a batch whose rows only need confirming or repeat an order number has no error workbook', async () => {
    const rows = [
      baseRow(2815, { orderNo: 'R28-E-DUP' }),
      baseRow(2817, { orderNo: 'R28-E-BIG', unitPrice: 120000 }),
      baseRow(2816, { orderNo: 'R28-E-DUP', recipientName: '新' }),
    ];
    const p = await previewOf(demo, { channel: 'JP' }, await fill(jpTpl, rows));
    expect(p).toMatchObject({ status: 'preview', invalidRows: 0, hasErrorWorkbook: false });
    expect(p.confirmRows).toBe(1);
    expect(p.duplicates).toHaveLength(1);
  });
});

describe('#12 several prices for one JAN in one box', () => {
  it('ten orders in BOX-001 at ten prices ask for confirmation; other boxes and one price do not', async () => {
    const same = jan(2820);
    const rows = [
      ...Array.from({ length: 10 }, (_, i) =>
        baseRow(2820 + i, { orderNo: `R28-B-${i}`, boxNo: 'BOX-001', jan: same, unitPrice: 1000 + i }),
      ),
      // One price in BOX-002 and another in BOX-003: each box has one price.
      baseRow(2840, { orderNo: 'R28-B-X', boxNo: 'BOX-002', jan: same, unitPrice: 500 }),
      baseRow(2841, { orderNo: 'R28-B-Y', boxNo: 'BOX-003', jan: same, unitPrice: 600 }),
    ];
    const p = await previewOf(demo, { channel: 'JP' }, await fill(jpTpl, rows));
    expect(p.invalidRows, JSON.stringify(p.errors)).toBe(0);
    expect(p.confirmations.map((c: any) => [c.kind, c.count])).toEqual([['multiplePricesPerJan', 10]]);
    expect(p.confirmRows).toBe(10);
    const asked = p.confirmOrders.map((o: any) => o.orderNo).sort();
    expect(asked).toEqual(Array.from({ length: 10 }, (_, i) => `R28-B-${i}`).sort());
    expect(p.confirmOrders[0].reasons).toEqual([
      { kind: 'multiplePricesPerJan', message: `JAN ${same} has several prices in one box. Confirm to continue.` },
    ]);
    const refused = await h.post('order/batch/confirm', { id: p.id, confirmations: [] }, demo);
    expect(refused.status).toBe(422);
  });
});

describe('#13 a workbook of another kind names the template the page expects', () => {
  async function sheet(headers: string[], row: (string | number)[]) {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Sheet1');
    ws.addRow(headers);
    ws.addRow(row);
    return Buffer.from(await wb.xlsx.writeBuffer());
  }

  it('a label-B workbook uploaded as the Japan import names the Japan template only', async () => {
    const labelB = await sheet(
      ['订单号', '收件人', '电话', '省', '市', '区', '详细地址'],
      ['R28-T-1', '王伟', '13800138000', '北京市', '北京市', '朝阳区', '建国路 88 号'],
    );
    const en = await previewOf(demo, { channel: 'JP' }, labelB);
    expect(en.status).toBe('failed');
    expect(en.errorMessage).toBe(
      'This sheet is not the Japan parcel import template chosen here. Download the Japan parcel import template and copy the rows into it.',
    );
    const zh = await previewOf(demo, { channel: 'JP' }, labelB, 'zh-CN');
    expect(zh.errorMessage).toBe(
      '该表格不是此处选择的「日本包裹进口订单模板」。请下载「日本包裹进口订单模板」并把数据复制进去。',
    );
  });
});

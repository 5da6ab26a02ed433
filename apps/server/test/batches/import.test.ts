import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { batches } from '@console/contract';
import { createHarness, type Harness } from '../harness.ts';
import { baseRow, download, fill, settle, template, upload } from './helpers.ts';
import { catalogueItem } from '../support/catalogue.ts';

let h: Harness;
let demo: string;
beforeAll(async () => {
  h = await createHarness({ now: new Date('2026-11-21T03:00:00Z') });
  demo = await h.login('demo');
});

describe('batch import', () => {
  it('imports a clean JP file: preview, confirm, orders equal the rows', async () => {
    const tpl = await template(h, demo, 'download/importOrder');
    const rows = [
      baseRow(1),
      baseRow(1, { jan: null, itemName: '牙膏', quantity: 1, unitPrice: 300 }),
      baseRow(2, { boxNo: 'BOX-2' }),
    ];
    const file = await fill(tpl, rows);
    const demoId = (
      await h.db.selectFrom('customers').select('id').where('code', '=', 'DEMO').executeTakeFirstOrThrow()
    ).id;
    const nomination = await h.db
      .selectFrom('export_nominations')
      .select(['id', 'name_en'])
      .where('customer_id', '=', demoId)
      .executeTakeFirstOrThrow();
    const up = await upload(
      h,
      'order/batch/createImport',
      demo,
      { channel: 'JP', clearanceCompany: 'HZ-CB', exportNominationId: String(nomination.id) },
      { name: 'orders.xlsx', data: file },
    );
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    // The batch list names the export nomination chosen at upload.
    const listed = await h.post('order/batches', { offset: 0, limit: 5, batchNo: up.body.data.batchNo }, demo);
    expect(listed.body.data.list[0].exportNomination).toEqual({ id: nomination.id, name: nomination.name_en });
    const p = await settle(h, demo, up.body.data.id);
    expect(p).toMatchObject({
      status: 'preview',
      totalRows: 3,
      validRows: 3,
      invalidRows: 0,
      confirmRows: 0,
      orderCount: 2,
    });
    const c = await h.post('order/batch/confirm', { id: p.id, confirmations: [] }, demo);
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    const done = await settle(h, demo, p.id);
    expect(done).toMatchObject({ status: 'done', progress: 100, orderCount: 2 });
    const orders = await h.db
      .selectFrom('orders')
      .selectAll()
      .where('batch_id', '=', p.id)
      .orderBy('order_no')
      .execute();
    expect(orders.map((o) => o.order_no)).toEqual(['T000001', 'T000002']);
    expect(orders[0]).toMatchObject({
      channel_code: 'JP',
      box_no: 'BOX-1',
      recipient_name: '王伟',
      clearance_company_code: 'HZ-CB',
      export_nomination_id: nomination.id,
      status: 'created',
      total_amount: 2700,
    });
    const items = await h.db
      .selectFrom('order_items')
      .selectAll()
      .where('order_id', '=', orders[0]!.id)
      .orderBy('line_no')
      .execute();
    expect(items.map((i) => [i.name, i.quantity, i.unit_price, i.currency])).toEqual([
      ['洗面奶', 2, 1200, 'JPY'],
      ['牙膏', 1, 300, 'JPY'],
    ]);
    // The trail starts with the order's creation (read from the order row: nothing stored for it).
    const detail = await h.post('order/order', { id: orders[0]!.id }, demo);
    expect(detail.body.data.events.map((e: { kind: string; at: string }) => [e.kind, e.at])).toEqual([
      ['created', orders[0]!.created_at],
    ]);
    expect(
      await h.db.selectFrom('tracking_events').select('id').where('order_id', '=', orders[0]!.id).execute(),
    ).toEqual([]);
    expect(orders[0]!.waybill_no).toMatch(/^CBL1\d{10}$/);
  });

  it('reports errors with row and column, builds the error workbook, and refuses to commit', async () => {
    const tpl = await template(h, demo, 'download/importOrder');
    const rows = [
      baseRow(10, { recipientPhone: '' }),
      baseRow(11, { recipientIdCard: '110105199001011230' }), // wrong check digit
      baseRow(12, { jan: '4901234567890', unitPrice: 0 }),
      baseRow(13, { recipientProvince: '火星', recipientPhone: '１３８００１３８０００ ' }),
      baseRow(14),
    ];
    const file = await fill(tpl, rows);
    const up = await upload(h, 'order/batch/createImport', demo, { channel: 'JP' }, { name: 'bad.xlsx', data: file });
    const p = await settle(h, demo, up.body.data.id);
    expect(p).toMatchObject({ status: 'preview', totalRows: 5, invalidRows: 4, validRows: 1, hasErrorWorkbook: true });
    const msgs = p.errors.map((e: any) => `${e.row}:${e.columnTitle}:${e.message}`);
    expect(msgs).toContain('3:Recipient Phone:Recipient phone cannot be empty');
    expect(msgs).toContain('4:Recipient ID Card:The ID card number has a wrong check digit.');
    expect(msgs.some((m: string) => m.startsWith('5:JAN:JAN 4901234567890'))).toBe(true);
    expect(msgs).toContain('5:Unit Price:A price must be greater than 0');
    expect(msgs).toContain('6:Province:Unknown province: 火星');
    // Full-width digits and stray spaces are normalised, not errors.
    expect(msgs.some((m: string) => m.startsWith('6:Recipient Phone'))).toBe(false);

    const wbFile = await download(h, 'order/batch/download/errors', demo, { id: p.id });
    expect(wbFile.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(wbFile.data as never);
    const ws = wb.worksheets[0]!;
    const header = ws.getRow(1).values as unknown[];
    // The uploader's language (en here) first, Chinese beside it.
    const errCol = header.findIndex((v) => String(v) === 'Errors');
    expect(String(header[errCol])).toBe('Errors');
    expect(String(header[errCol + 1])).toBe('错误说明');
    // The failed rows only (issue 28 #6), in the customer's order: the valid row 7 is not there.
    expect(String(ws.getRow(2).getCell(errCol).value)).toContain('Recipient phone cannot be empty');
    expect(String(ws.getRow(2).getCell(errCol + 1).value)).toContain('收件人电话不能为空');
    expect(ws.actualRowCount).toBe(5);
    const phoneCol = header.findIndex((v) => String(v).includes('Recipient Phone'));
    expect((ws.getRow(2).getCell(phoneCol).fill as any)?.fgColor?.argb).toBe('FFFFC7CE');

    const c = await h.post('order/batch/confirm', { id: p.id, confirmations: [] }, demo);
    expect(c.status).toBe(422);
    expect(await h.db.selectFrom('orders').select('id').where('batch_id', '=', p.id).execute()).toEqual([]);
  });

  it('asks for confirmations (minor, several prices per JAN, CNY 5,000) and commits once they are given', async () => {
    const tpl = await template(h, demo, 'download/importOrder');
    const rows = [
      baseRow(20, { recipientIdCard: '11010520100101123' + 'X' }),
      baseRow(21, { jan: '4901234567894', unitPrice: 100 }),
      baseRow(21, { jan: '4901234567894', unitPrice: 200 }),
      baseRow(22, { unitPrice: 120000 }),
    ];
    // Fix the minor's check digit by computing it.
    const { idCardCheckChar } = await import('@console/contract');
    rows[0]!.recipientIdCard = '11010520100101123' + idCardCheckChar('11010520100101123');
    const up = await upload(
      h,
      'order/batch/createImport',
      demo,
      { channel: 'JP' },
      { name: 'c.xlsx', data: await fill(tpl, rows) },
    );
    const p = await settle(h, demo, up.body.data.id);
    expect(p.invalidRows, JSON.stringify(p.errors)).toBe(0);
    expect(p.confirmRows).toBe(4);
    expect(p.confirmations.map((c: any) => c.kind).sort()).toEqual([
      'crossBorderLimit',
      'minorId',
      'multiplePricesPerJan',
    ]);
    const refused = await h.post('order/batch/confirm', { id: p.id, confirmations: ['minorId'] }, demo);
    expect(refused.status).toBe(422);
    expect(Object.keys(refused.body.data)).toEqual(['confirmations']);
    const ok = await h.post(
      'order/batch/confirm',
      { id: p.id, confirmations: ['minorId', 'multiplePricesPerJan', 'crossBorderLimit'] },
      demo,
    );
    expect(ok.status).toBe(200);
    expect((await settle(h, demo, p.id)).status).toBe('done');
    expect(await h.db.selectFrom('orders').select('order_no').where('batch_id', '=', p.id).execute()).toHaveLength(3);
  });

  it('duplicate order numbers: the last wins and is reported; existing order numbers are errors', async () => {
    const tpl = await template(h, demo, 'download/importOrder');
    const rows = [baseRow(30, { recipientName: '旧' }), baseRow(31), baseRow(30, { recipientName: '新' })];
    const up = await upload(
      h,
      'order/batch/createImport',
      demo,
      { channel: 'JP' },
      { name: 'd.xlsx', data: await fill(tpl, rows) },
    );
    const p = await settle(h, demo, up.body.data.id);
    expect(p.duplicates).toEqual([{ orderNo: 'T000030', rows: [3], keptRow: 5 }]);
    await h.post('order/batch/confirm', { id: p.id, confirmations: [] }, demo);
    expect((await settle(h, demo, p.id)).status).toBe('done');
    const o = await h.db
      .selectFrom('orders')
      .select('recipient_name')
      .where('order_no', '=', 'T000030')
      .executeTakeFirstOrThrow();
    expect(o.recipient_name).toBe('新');

    const again = await upload(
      h,
      'order/batch/createImport',
      demo,
      { channel: 'JP' },
      { name: 'e.xlsx', data: await fill(tpl, [baseRow(31)]) },
    );
    const p2 = await settle(h, demo, again.body.data.id);
    expect(p2.invalidRows).toBe(1);
    expect(p2.errors[0].message).toBe('Order number T000031 already exists.');
  });

  it('round trip for every importable template kind', async () => {
    const kinds: [keyof typeof batches.templates, string, Record<string, string>][] = [
      ['order', 'order/batch/create', { channel: 'SG' }],
      ['importBoxC', 'order/batch/createImportByBoxC', {}],
      ['usaBoxC', 'order/batch/createUsaBoxcImport', {}],
      ['usa', 'order/batch/createImport', { channel: 'USA' }],
      ['usaDomestic', 'order/batch/createImport', { channel: 'USD' }],
      ['au', 'order/batch/createImport', { channel: 'AU' }],
      ['uk', 'order/batch/createImport', { channel: 'UK' }],
      ['ph', 'order/batch/createImport', { channel: 'PH' }],
      ['th', 'order/batch/createImport', { channel: 'TH' }],
      ['sg', 'order/batch/createImport', { channel: 'SG' }],
      ['ems', 'order/batch/createEmsImport', {}],
    ];
    let n = 100;
    for (const [kind, path, fields] of kinds) {
      const tpl = await template(h, demo, batches.templates[kind].path);
      const row = baseRow(n++, { unitPrice: '12.5' as never });
      if (kind === 'ems' || kind === 'importBoxC') row.unitPrice = 1250;
      // EMS takes approved catalogue items only (channel_tax_settings).
      if (kind === 'ems') await catalogueItem(h, 'DEMO', row.jan as string, 'approved');
      const up = await upload(h, path, demo, fields, { name: `${kind}.xlsx`, data: await fill(tpl, [row]) });
      expect(up.status, `${kind} ${JSON.stringify(up.body)}`).toBe(200);
      const p = await settle(h, demo, up.body.data.id);
      expect(p.invalidRows, `${kind} ${JSON.stringify(p.errors)}`).toBe(0);
      await h.post('order/batch/confirm', { id: p.id, confirmations: [] }, demo);
      const done = await settle(h, demo, p.id);
      expect(done.status, `${kind} ${done.errorMessage}`).toBe('done');
      const o = await h.db.selectFrom('orders').selectAll().where('batch_id', '=', p.id).executeTakeFirstOrThrow();
      expect(o.order_no).toBe(row.orderNo);
      const item = await h.db
        .selectFrom('order_items')
        .selectAll()
        .where('order_id', '=', o.id)
        .executeTakeFirstOrThrow();
      if (kind === 'ems') {
        expect(o.waybill_no).toMatch(/^EE\d{9}JP$/);
        const { isValidS10 } = await import('@console/contract');
        expect(isValidS10(o.waybill_no!)).toBe(true);
        expect(item.unit_price).toBe(1250);
      } else {
        expect(item.unit_price).toBe(1250); // 12.50 in a 2-decimal currency
      }
    }
  }, 120_000);
});

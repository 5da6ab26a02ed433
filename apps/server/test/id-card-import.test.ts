import { idCardCheckChar } from '@console/contract';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, multipart } from './harness.ts';
import { zipFiles } from './support/zip.ts';

/** Bulk ID-card mapping by template (order/idCard/template, order/idCard/import): all rows or none. */
let h: Harness;
let demo: string;
let demo2: string;
let agent: string;
let operator: string;
let ids: { demo: number; demo2: number };
/** A demo order created here, so its recipient's ID number is known and valid. */
let mine: { id: number; orderNo: string; waybillNo: string };

const idOf = (first17: string) => first17 + idCardCheckChar(first17);
const ORDER_ID = idOf('11010519800101123');
const OTHER_ID = idOf('33010619900215456');
const THIRD_ID = idOf('44030519751130789');
const HEADERS = [
  '订单号 / Order No.',
  '运单号 / Waybill No.',
  '*收件人姓名 / Recipient name',
  '*身份证号 / ID number',
  '正面图片文件名 / Front image file',
  '背面图片文件名 / Back image file',
];
const jpeg = (fill = 7) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(4096, fill)]);
const png = () => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(3000, 3)]);

async function sheet(rows: (string | null)[][], headers = HEADERS) {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('id-cards');
  ws.addRow(headers);
  ws.addRow(['EXAMPLE-0001', '', '张三', '11010519491231002X', '', '']);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
async function send(token: string, data: Buffer, name = 'ids.xlsx', fields: Record<string, string> = {}, lang = 'en') {
  const m = multipart(fields, { name, data });
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/order/idCard/import',
    headers: { 'content-type': m.contentType, authorization: `Bearer ${token}`, 'accept-language': lang },
    payload: m.payload,
  });
  return { status: res.statusCode, body: res.json() };
}
const counts = async () => {
  const n = async (t: 'id_cards' | 'files') =>
    Number(
      (
        await h.db
          .selectFrom(t)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { idCards: await n('id_cards'), files: await n('files') };
};
/** Downloads a refused import's error workbook; the workbook is opened when the answer is 200. */
async function errorWorkbook(token: string, fileId: string) {
  const r = await h.app.inject({
    method: 'POST',
    url: '/api/order/idCard/import/errors',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ fileId: Number(fileId) }),
  });
  if (r.statusCode !== 200) return { status: r.statusCode, ws: null, filename: '' };
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(r.rawPayload as unknown as ArrayBuffer);
  return {
    status: r.statusCode,
    ws: wb.worksheets[0]!,
    filename: decodeURIComponent(String(r.headers['content-disposition'])),
  };
}
const rowValues = (ws: ExcelJS.Worksheet, n: number) =>
  Array.from({ length: HEADERS.length + 2 }, (_, i) => ws.getRow(n).getCell(i + 1).value ?? null);
const RED = 'FFFFC7CE';
const fillOf = (cell: ExcelJS.Cell) => (cell.fill as ExcelJS.FillPattern | undefined)?.fgColor?.argb ?? null;

const image = (token: string, id: number, side: 'front' | 'back') =>
  h.app.inject({
    method: 'POST',
    url: '/api/order/idCard/image',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ id, side }),
  });

beforeAll(async () => {
  h = await createHarness();
  [demo, demo2, agent, operator] = await Promise.all(['demo', 'demo2', 'agent', 'operator'].map((n) => h.login(n)));
  const rows = await h.db.selectFrom('customers').select(['id', 'code']).execute();
  ids = { demo: rows.find((r) => r.code === 'DEMO')!.id, demo2: rows.find((r) => r.code === 'DEMO2')!.id };
  const r = await h.post(
    'order/createImport',
    {
      channel: 'JP',
      orderNo: 'IDC-0001',
      recipient: {
        name: '王小明',
        idCard: ORDER_ID,
        phone: '13812345678',
        province: '浙江省',
        city: '杭州市',
        district: '西湖区',
        address: '文三路100号',
      },
      sender: { name: 'DEMO Trading', address: 'Tokyo', phone: '03-1234-5678' },
      items: [{ jan: '4901234567894', name: '奶粉', quantity: 1, unitPrice: '1500' }],
    },
    demo,
  );
  expect(r.status).toBe(200);
  mine = { id: r.body.data.id, orderNo: r.body.data.orderNo, waybillNo: r.body.data.waybillNo };
});

describe('ID-card template', () => {
  it('has bilingual headers, an example row, text-formatted columns and notes', async () => {
    for (const lang of ['en', 'zh-CN']) {
      const r = await h.app.inject({
        method: 'POST',
        url: '/api/order/idCard/template',
        headers: { authorization: `Bearer ${demo}`, 'content-type': 'application/json', 'accept-language': lang },
        payload: '{}',
      });
      expect(r.statusCode).toBe(200);
      expect(decodeURIComponent(String(r.headers['content-disposition']))).toContain(
        lang === 'en' ? 'id-card-import-template.xlsx' : '身份证批量导入模板.xlsx',
      );
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(r.rawPayload as unknown as ArrayBuffer);
      const ws = wb.worksheets[0]!;
      expect((ws.getRow(1).values as unknown[]).slice(1)).toEqual(HEADERS);
      expect(ws.getCell('A2').value).toBe('EXAMPLE-0001');
      expect(ws.getColumn(4).numFmt).toBe('@');
      expect(wb.getWorksheet('notes')!.rowCount).toBeGreaterThan(6);
    }
  });
  it('the template as downloaded imports nothing (its example row is skipped)', async () => {
    const r = await h.app.inject({
      method: 'POST',
      url: '/api/order/idCard/template',
      headers: { authorization: `Bearer ${demo}`, 'content-type': 'application/json' },
      payload: '{}',
    });
    const res = await send(demo, r.rawPayload);
    expect(res.status).toBe(422);
    expect(res.body.data.file).toEqual(['The template has no rows to import.']);
  });
});

describe('ID-card bulk import', () => {
  it('the template alone maps an order and a recipient; importing again updates', async () => {
    const data = await sheet([
      [mine.orderNo, '', '王小明', ORDER_ID, '', ''],
      ['', '', '李四', OTHER_ID.toLowerCase(), '', ''],
    ]);
    const r = await send(demo, data);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ rows: 2, created: 2, updated: 0, images: 0 });
    const rows = await h.db
      .selectFrom('id_cards')
      .select(['customer_id', 'order_id', 'name', 'id_card', 'front_file_id'])
      .where('customer_id', '=', ids.demo)
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { customer_id: ids.demo, order_id: mine.id, name: '王小明', id_card: ORDER_ID, front_file_id: null },
      { customer_id: ids.demo, order_id: null, name: '李四', id_card: OTHER_ID, front_file_id: null },
    ]);
    const again = await send(demo, data);
    expect(again.body.data).toEqual({ rows: 2, created: 0, updated: 2, images: 0 });
    expect((await h.post('order/idCard', { limit: 10 }, demo)).body.data.total).toBe(2);
    expect((await h.post('order/idCard', { limit: 10 }, demo2)).body.data.total).toBe(0);
  });

  it('a .zip of the template and images attaches them; only the owner and operators see them', async () => {
    const front = png();
    const back = jpeg(9);
    const xlsx = await sheet([['', mine.waybillNo, '王小明', ORDER_ID, 'Front-1.PNG', 'back-1.jpg']]);
    const bundle = zipFiles([
      { name: 'cards/ids.xlsx', data: xlsx },
      { name: 'cards/front-1.png', data: front },
      { name: 'cards/back-1.jpg', data: back, store: true },
      { name: '__MACOSX/._front-1.png', data: Buffer.from('junk') },
    ]);
    const r = await send(demo, bundle, 'cards.zip');
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ rows: 1, created: 0, updated: 1, images: 2 });
    const row = await h.db
      .selectFrom('id_cards')
      .select(['id', 'front_file_id', 'back_file_id'])
      .where('order_id', '=', mine.id)
      .executeTakeFirstOrThrow();
    expect(row.front_file_id).not.toBe(null);
    const f = await image(demo, row.id, 'front');
    expect(f.statusCode).toBe(200);
    expect(f.headers['content-type']).toBe('image/png');
    expect(f.rawPayload.equals(front)).toBe(true);
    expect((await image(operator, row.id, 'back')).rawPayload.equals(back)).toBe(true);
    expect((await image(agent, row.id, 'front')).statusCode).toBe(403);
    expect((await image(demo2, row.id, 'front')).statusCode).toBe(404);
  });

  it('any bad row answers 422 with every row/field error and writes nothing', async () => {
    const before = await counts();
    const xlsx = await sheet([
      ['', '', '赵六', THIRD_ID, 'ok.jpg', ''], // row 3: valid
      ['', '', '', idOf('11010519800101999').slice(0, 17) + 'X', '', ''], // row 4: no name, wrong check digit
      ['NOPE-1', '', '钱七', THIRD_ID, '', ''], // row 5: unknown order number
      ['', 'ZZ000', '钱七', THIRD_ID, '', ''], // row 6: unknown waybill
      [mine.orderNo, '', '王小明', OTHER_ID, '', ''], // row 7: not the order's recipient
      ['', '', '赵六', THIRD_ID, 'missing.jpg', 'fake.jpg'], // row 8: duplicate of 3, image missing, fake image
    ]);
    const bundle = zipFiles([
      { name: 'ids.xlsx', data: xlsx },
      { name: 'ok.jpg', data: jpeg() },
      { name: 'fake.jpg', data: Buffer.alloc(4096, 65) },
    ]);
    const r = await send(demo, bundle, 'cards.zip');
    expect(r.status).toBe(422);
    expect(r.body.data).toEqual({
      errorWorkbook: [expect.stringMatching(/^\d+$/)],
      'rows.4.name': ['Required.'],
      'rows.4.idCard': ['The ID card number has a wrong check digit.'],
      'rows.5.orderNo': ['No order NOPE-1 of this customer.'],
      'rows.6.waybillNo': ['No order of this customer has waybill ZZ000.'],
      'rows.7.idCard': [`Does not match the recipient of order ${mine.orderNo}.`],
      'rows.8.back': ['Only jpg, jpeg, png files are accepted (checked by content).'],
      'rows.8.front': ['No image missing.jpg in the .zip.'],
      'rows.8.idCard': ['The same ID number and order as row 3.'],
    });
    // Nothing is imported; the one file written is the error workbook.
    expect(await counts()).toEqual({ ...before, files: before.files + 1 });
    const zh = await send(demo, bundle, 'cards.zip', {}, 'zh-CN');
    expect(zh.body.data['rows.5.orderNo']).toEqual(['该客户没有订单 NOPE-1。']);
    expect(zh.body.data['rows.4.name']).toEqual(['必填。']);
    expect(zh.body.data.errorWorkbook[0]).not.toBe(r.body.data.errorWorkbook[0]);
  });

  it('a refused upload leaves a workbook of its failed rows, the bad cells marked, in the uploader’s language', async () => {
    const badId = idOf('11010519800101999').slice(0, 17) + (idOf('11010519800101999').endsWith('X') ? '0' : 'X');
    const xlsx = await sheet([
      ['', '', '赵六', THIRD_ID, '', ''], // row 3: valid, not in the workbook
      ['', '', '', badId, '', ''], // row 4: no name, wrong check digit
      ['NOPE-1', '', '钱七', THIRD_ID, '', ''], // row 5: unknown order number
      ['', '', '周九', OTHER_ID, 'front.jpg', ''], // row 6: an image without a .zip
    ]);
    const texts = {
      en: {
        errors: 'Errors',
        row: 'Row in upload',
        name: 'Required.',
        idCard: 'The ID card number has a wrong check digit.',
        orderNo: 'No order NOPE-1 of this customer.',
      },
      'zh-CN': {
        errors: '错误',
        row: '原表行号',
        name: '必填。',
        idCard: '身份证号校验位错误。',
        orderNo: '该客户没有订单 NOPE-1。',
      },
    } as const;
    for (const lang of ['en', 'zh-CN'] as const) {
      const r = await send(demo, xlsx, 'my ids.xlsx', {}, lang);
      expect(r.status).toBe(422);
      expect(Object.keys(r.body.data).sort()).toEqual([
        'errorWorkbook',
        'rows.4.idCard',
        'rows.4.name',
        'rows.5.orderNo',
        'rows.6.front',
      ]);
      const imageText = r.body.data['rows.6.front'][0];
      const wb = await errorWorkbook(demo, r.body.data.errorWorkbook[0]);
      expect(wb.status).toBe(200);
      expect(wb.filename).toContain('my ids-errors.xlsx');
      const ws = wb.ws!;
      const tx = texts[lang];
      // The customer's header, then only the failed rows as uploaded, in sheet order.
      expect(ws.actualRowCount).toBe(4);
      expect(rowValues(ws, 1)).toEqual([...HEADERS, tx.errors, tx.row]);
      expect(rowValues(ws, 2)).toEqual(['', '', '', badId, '', '', `[C] ${tx.name}; [D] ${tx.idCard}`, 4]);
      expect(rowValues(ws, 3)).toEqual(['NOPE-1', '', '钱七', THIRD_ID, '', '', `[A] ${tx.orderNo}`, 5]);
      expect(rowValues(ws, 4)).toEqual(['', '', '周九', OTHER_ID, 'front.jpg', '', `[E] ${imageText}`, 6]);
      // Bad cells red with the problem as a note; good cells untouched.
      expect(fillOf(ws.getCell('C2'))).toBe(RED);
      expect(ws.getCell('C2').note).toBe(tx.name);
      expect(fillOf(ws.getCell('D2'))).toBe(RED);
      expect(ws.getCell('D2').note).toBe(tx.idCard);
      expect(fillOf(ws.getCell('A3'))).toBe(RED);
      expect(fillOf(ws.getCell('C3'))).toBe(null);
      expect(fillOf(ws.getCell('E4'))).toBe(RED);
      expect(fillOf(ws.getCell('G2'))).toBe(RED);
    }
  });

  it('the error workbook can be fixed and uploaded again: its extra columns are ignored', async () => {
    const bad = await send(demo, await sheet([['', '', '', idOf('11010519850505111'), '', '']]));
    const wb = await errorWorkbook(demo, bad.body.data.errorWorkbook[0]);
    const ws = wb.ws!;
    ws.getCell('C2').value = '吴十';
    const fixed = await send(demo, Buffer.from(await ws.workbook.xlsx.writeBuffer()));
    expect(fixed.status).toBe(200);
    expect(fixed.body.data).toMatchObject({ rows: 1, created: 1 });
  });

  it('only the uploader and operators download an error workbook', async () => {
    const bad = await send(demo, await sheet([['NOPE-2', '', '钱七', THIRD_ID, '', '']]));
    const id = bad.body.data.errorWorkbook[0];
    expect((await errorWorkbook(demo, id)).status).toBe(200);
    expect((await errorWorkbook(operator, id)).status).toBe(200);
    expect((await errorWorkbook(demo2, id)).status).toBe(404);
    expect((await errorWorkbook(agent, id)).status).toBe(403);
    // Another kind of file (an ID-card image) is not served by its id through this call.
    const img = await h.db.selectFrom('files').select('id').where('kind', '=', 'idCard').executeTakeFirstOrThrow();
    expect((await errorWorkbook(operator, String(img.id))).status).toBe(404);
    // An operator's own refused upload for a customer is theirs and operators'; not the customer's.
    const byOperator = await send(operator, await sheet([['NOPE-3', '', '钱七', THIRD_ID, '', '']]), 'x.xlsx', {
      customerId: String(ids.demo),
    });
    expect(byOperator.status).toBe(422);
    expect((await errorWorkbook(operator, byOperator.body.data.errorWorkbook[0])).status).toBe(200);
    expect((await errorWorkbook(demo, byOperator.body.data.errorWorkbook[0])).status).toBe(404);
  });

  it('names images only a .zip can carry, and images no row names', async () => {
    const alone = await send(demo, await sheet([['', '', '赵六', THIRD_ID, 'a.jpg', '']]));
    expect(alone.status).toBe(422);
    expect(alone.body.data['rows.3.front'][0]).toMatch(/pack the template and the images into one \.zip/);
    const extra = await send(
      demo,
      zipFiles([
        { name: 'ids.xlsx', data: await sheet([['', '', '赵六', THIRD_ID, '', '']]) },
        { name: 'stray.png', data: png() },
      ]),
      'b.zip',
    );
    expect(extra.status).toBe(422);
    // No row failed, so there is no workbook of failed rows.
    expect(extra.body.data).toEqual({ file: ['Images in the .zip that no row names: stray.png.'] });
  });

  it('refuses what is not the template, with a reason', async () => {
    const xls = await send(demo, Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]), 'a.xls');
    expect(xls.status).toBe(422);
    expect(xls.body.data.file[0]).toMatch(/filled template \(\.xlsx\)/);
    const noTemplate = await send(demo, zipFiles([{ name: 'a.jpg', data: jpeg() }]), 'a.zip');
    expect(noTemplate.body.data.file).toEqual(['The .zip must hold exactly one .xlsx template (it holds 0).']);
    const wrongHeaders = await send(demo, await sheet([['x', 'y']], ['A', 'B']));
    expect(wrongHeaders.status).toBe(422);
    expect(wrongHeaders.body.data.file[0]).toMatch(/missing column \*收件人姓名 \/ Recipient name/);
    const broken = zipFiles([{ name: 'ids.xlsx', data: await sheet([]) }]);
    broken.writeUInt32LE(0, 0);
    expect((await send(demo, broken, 'x.zip')).status).toBe(422);
  });

  it('tenancy: another customer’s order is unknown; agents may not; operators choose the customer', async () => {
    const theirs = await send(demo2, await sheet([[mine.orderNo, '', '王小明', ORDER_ID, '', '']]));
    expect(theirs.status).toBe(422);
    expect(theirs.body.data['rows.3.orderNo']).toEqual([`No order ${mine.orderNo} of this customer.`]);
    const data = await sheet([['', '', '孙八', idOf('11010519850505333'), '', '']]);
    const byAgent = await send(agent, data, 'ids.xlsx', { customerId: String(ids.demo) });
    expect(byAgent.status).toBe(403);
    const noCustomer = await send(operator, data);
    expect(noCustomer.status).toBe(422);
    expect(Object.keys(noCustomer.body.data)).toEqual(['customerId']);
    const ok = await send(operator, data, 'ids.xlsx', { customerId: String(ids.demo2) });
    expect(ok.status).toBe(200);
    const list = await h.post('order/idCard', { limit: 10 }, demo2);
    expect(list.body.data.list.map((r: any) => r.name)).toEqual(['孙*']);
  });
});

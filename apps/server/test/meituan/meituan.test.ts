import { eanCheckDigit, meituan as C } from '@console/contract';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { download, upload } from '../batches/helpers.ts';
import { createHarness, type Harness } from '../harness.ts';
import { outsider } from '../items/helpers.ts';

/**
 * Meituan reservation orders: template → fill → upload (preview, commit) → list / detail /
 * items; one bad row → an error workbook and nothing written; the operators' completion with
 * parallel completes; the export's content; the tenant matrix over every call.
 */
let h: Harness;
let demo: string;
let demo2: string;
let agent: string;
let operator: string;
let other: { customerId: number; token: string };
let ids: { demo: number; demo2: number };

const jan = (d12: string) => d12 + eanCheckDigit(d12);

type Row = (string | number)[];
const row = (systemNo: string, over: Partial<Record<C.MeituanColumn, string | number>> = {}): Row => {
  const v: Record<C.MeituanColumn, string | number> = {
    systemNo,
    meituanNo: `MT-${systemNo}`,
    expressNo: `77${systemNo.replace(/\D/g, '').padStart(10, '0')}`,
    orderRef: `OID-${systemNo}`,
    barcode: jan('490123456789'),
    itemName: '抹茶饼干',
    specs: '12枚',
    price: '35.50',
    count: 2,
    receiverName: '李雷',
    receiverAddress: '上海市浦东新区世纪大道100号',
    receiverPhone: '13900001111',
    ...over,
  };
  return C.MEITUAN_COLUMNS.map((c) => v[c.key]);
};

async function sheetOf(rows: Row[], token = demo) {
  // Filled from the template the server gives: its header row stays.
  const t = await download(h, 'meituan_reservation_order/templateExcel', token);
  expect(t.status).toBe(200);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(t.data as never);
  const ws = wb.worksheets[0]!;
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function send(token: string, rows: Row[], fields: Record<string, string> = {}, lang = 'en') {
  const data = await sheetOf(rows, token);
  return upload(
    h,
    'meituan_reservation_order/create',
    token,
    { operationLocation: 'tokyo', ...fields },
    { name: 'mt.xlsx', data },
    lang,
  );
}

async function workbookRows(bytes: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as never);
  const out: unknown[][] = [];
  wb.worksheets[0]!.eachRow((r) => out.push((r.values as unknown[]).slice(1)));
  return out;
}

const count = async () =>
  Number(
    (
      await h.db
        .selectFrom('meituan_orders')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

beforeAll(async () => {
  h = await createHarness();
  [demo, demo2, agent, operator] = await Promise.all(['demo', 'demo2', 'agent', 'operator'].map((n) => h.login(n)));
  other = await outsider(h, 'meituanoutsider');
  // The outsider has read and agreed the seeded notices, as the demo users have.
  const outsiderUser = await h.db
    .selectFrom('users')
    .select('id')
    .where('name', '=', 'meituanoutsider')
    .executeTakeFirstOrThrow();
  const at = new Date().toISOString();
  for (const n of await h.db.selectFrom('notices').select('id').execute()) {
    await h.db
      .insertInto('notice_reads')
      .values({ notice_id: n.id, user_id: outsiderUser.id, read_at: at, agreed_at: at })
      .execute();
  }
  const customers = await h.db.selectFrom('customers').select(['id', 'code']).execute();
  ids = { demo: customers.find((c) => c.code === 'DEMO')!.id, demo2: customers.find((c) => c.code === 'DEMO2')!.id };
  // Start from no Meituan rows (the seed's demo rows are not what these tests count).
  await h.db.deleteFrom('meituan_order_items').execute();
  await h.db.deleteFrom('meituan_orders').execute();
});

describe('template and upload', () => {
  it('the template is an xlsx whose header row is the columns in the caller language', async () => {
    const en = await download(h, 'meituan_reservation_order/templateExcel', demo);
    expect(en.headers['content-type']).toContain('spreadsheetml');
    const rows = await workbookRows(en.data);
    expect(rows).toHaveLength(1);
    // download() sends no language: the default is English.
    expect(rows[0]).toEqual(C.MEITUAN_COLUMNS.map((c) => c.en));
  });

  it('preview checks and writes nothing; the upload writes orders and items under one batch number', async () => {
    const rows = [
      row('S1001'),
      row('S1001', { barcode: jan('450000000001'), itemName: '绿茶', price: '10', count: 3 }),
      row('S1002'),
    ];
    const preview = await send(demo, rows, { preview: 'true' });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.data).toMatchObject({
      committed: false,
      orderCount: 2,
      itemCount: 3,
      errorCount: 0,
      errorFileId: null,
    });
    expect(await count()).toBe(0);

    const r = await send(demo, rows);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ committed: true, orderCount: 2, itemCount: 3 });
    const batch = r.body.data.batchNumber as string;
    expect(batch).toMatch(/^MT\d{8}/);

    const list = await h.post(
      'meituan_reservation_orders',
      { batchNumber: batch, sort: 'systemNo', order: 'asc' },
      demo,
    );
    expect(list.status).toBe(200);
    expect(list.body.data.total).toBe(2);
    const first = list.body.data.list[0] as C.MeituanOrderRow;
    expect(first).toMatchObject({
      systemNo: 'S1001',
      meituanNo: 'MT-S1001',
      orderRef: 'OID-S1001',
      status: 0,
      operationLocation: 'tokyo',
      customerCode: 'DEMO',
      itemCount: 5,
      totalPrice: '101.00',
      receiverPhone: '139****1111',
    });
    const detail = await h.post('meituan_reservation_order', { id: first.id }, demo);
    expect(detail.body.data.receiverPhone).toBe('13900001111');
    const items = await h.post('meituan_reservation_order/items', { id: first.id }, demo);
    expect(items.body.data.map((i: C.MeituanItem) => [i.name, i.price, i.count])).toEqual([
      ['抹茶饼干', '35.50', 2],
      ['绿茶', '10.00', 3],
    ]);
    const batches = await h.post('meituan_reservation_order/batchNumber', {}, demo);
    expect(batches.body.data).toContain(batch);
    // The same sheet again: every row's system number was uploaded before; nothing doubles.
    const again = await send(demo, rows);
    expect(again.body.data.committed).toBe(false);
    expect(again.body.data.errors.every((e: C.MeituanRowError) => e.field === 'systemNo')).toBe(true);
    expect(await count()).toBe(2);
  });

  it('one bad row: nothing is written and the error workbook names the row and the reason (both languages)', async () => {
    const before = await count();
    const rows = [row('S2001'), row('S2002', { barcode: '4901234567890' }), row('S2003', { count: 0 })];
    const r = await send(demo, rows);
    expect(r.status).toBe(200);
    expect(r.body.data.committed).toBe(false);
    expect(r.body.data.errors).toEqual([
      { row: 3, field: 'barcode', message: expect.stringContaining('not a valid JAN') },
      { row: 4, field: 'count', message: 'The count must be a whole number from 1 to 99999.' },
    ]);
    expect(await count()).toBe(before);
    const file = await download(h, 'meituan_reservation_order/create/errors', demo, {
      fileId: r.body.data.errorFileId,
    });
    expect(file.status).toBe(200);
    const sheet = await workbookRows(file.data);
    expect(sheet).toHaveLength(3);
    expect(sheet[1]![0]).toBe('S2002');
    expect(sheet[1]![12]).toBe(3);
    expect(String(sheet[1]![13])).toContain('JAN');
    // Another user cannot fetch it.
    expect(
      (await download(h, 'meituan_reservation_order/create/errors', demo2, { fileId: r.body.data.errorFileId })).status,
    ).toBe(404);

    const zh = await send(demo, [row('S2004', { price: '-1' })], {}, 'zh-CN');
    expect(zh.body.data.errors[0].message).toBe('单价必须大于 0，最多两位小数。');
  });

  it('rows of one system number that disagree on the receiver are refused; an unknown location is a 422', async () => {
    const r = await send(demo, [row('S3001'), row('S3001', { receiverName: '韩梅梅' })]);
    expect(r.body.data.errors).toEqual([
      { row: 3, field: 'receiverName', message: expect.stringContaining('disagree') },
    ]);
    const bad = await send(demo, [row('S3002')], { operationLocation: 'mars' });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.data)).toEqual(['operationLocation']);
  });

  it('an unread notice that must be agreed blocks the upload', async () => {
    const before = await count();
    const at = new Date().toISOString();
    const { id } = await h.db
      .insertInto('notices')
      .values({
        title_zh: 'n',
        title_en: 'n',
        content_zh: 'c',
        content_en: 'c',
        must_agree: 1,
        published_at: at,
        created_by: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const r = await send(other.token, [row('S4001')]);
    expect(r.status).toBe(428);
    expect(await count()).toBe(before);
    await h.db.deleteFrom('notices').where('id', '=', id).execute();
    const ok = await send(other.token, [row('S4001')]);
    expect(ok.body.data.committed).toBe(true);
  });
});

describe('completion', () => {
  it('customers cannot complete; operators complete once even when two complete at the same moment', async () => {
    const r = await send(demo2, [row('C1'), row('C2'), row('C3')]);
    expect(r.body.data.committed).toBe(true);
    const list = await h.post('meituan_reservation_orders', { batchNumber: r.body.data.batchNumber }, demo2);
    const idsOf = list.body.data.list.map((x: C.MeituanOrderRow) => x.id) as number[];
    expect((await h.post('meituan_reservation_order/complete', { ids: idsOf }, demo2)).status).toBe(403);
    expect((await h.post('meituan_reservation_order/complete', { ids: idsOf }, agent)).status).toBe(403);

    const answers = await Promise.all(
      Array.from({ length: 4 }, () => h.post('meituan_reservation_order/complete', { ids: idsOf }, operator)),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(answers.reduce((s, a) => s + a.body.data.completed, 0)).toBe(3);
    const rows = await h.db
      .selectFrom('meituan_orders')
      .select(['status', 'completed_by'])
      .where('id', 'in', idsOf)
      .execute();
    expect(rows.every((x) => Number(x.status) === 1 && x.completed_by !== null)).toBe(true);
    const after = await h.post(
      'meituan_reservation_orders',
      { batchNumber: r.body.data.batchNumber, status: 1 },
      demo2,
    );
    expect(after.body.data.total).toBe(3);
    expect(after.body.data.list[0].completedBy).toBeTruthy();
    expect((await h.post('meituan_reservation_order/complete', { ids: [999999] }, operator)).status).toBe(404);
  });
});

describe('export and lookups', () => {
  it('the export is one row per item of the current filter, statuses in the caller language', async () => {
    const list = await h.post('meituan_reservation_orders', { number: 'S1001' }, demo);
    expect(list.body.data.total).toBe(1);
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/meituan_reservation_order/export',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${demo}`, 'accept-language': 'en' },
      payload: JSON.stringify({ number: 'S1001' }),
    });
    expect(res.statusCode).toBe(200);
    const rows = await workbookRows(res.rawPayload);
    expect(rows[0]!.slice(0, 2)).toEqual(['System number', 'Meituan number']);
    expect(rows.slice(1).map((r) => [r[0], r[5], r[7], r[8], r[12], r[13]])).toEqual([
      ['S1001', '抹茶饼干', '35.50', 2, 'Pending operation', 'Tokyo warehouse'],
      ['S1001', '绿茶', '10.00', 3, 'Pending operation', 'Tokyo warehouse'],
    ]);
  });

  it('operation locations are labelled in the caller language', async () => {
    const r = await h.post('meituan_reservation_order/operationLocationList', {}, demo, { 'accept-language': 'en' });
    expect(r.body.data.map((x: { value: string }) => x.value)).toEqual(['tokyo', 'osaka', 'narita']);
    expect(r.body.data[0].label).toBe('Tokyo warehouse');
  });
});

describe('tenant matrix', () => {
  it("demo2 reads and changes nothing of demo's; the agent sees both; an outsider sees its own only", async () => {
    const mine = await h.post('meituan_reservation_orders', { number: 'S1001' }, demo);
    const id = mine.body.data.list[0].id as number;
    const batch = mine.body.data.list[0].batchNumber as string;
    for (const path of ['meituan_reservation_order', 'meituan_reservation_order/items']) {
      expect((await h.post(path, { id }, demo2)).status).toBe(404);
      expect((await h.post(path, { id }, other.token)).status).toBe(404);
      expect((await h.post(path, { id }, agent)).status).toBe(200);
      expect((await h.post(path, { id }, operator)).status).toBe(200);
    }
    expect((await h.post('meituan_reservation_orders', { batchNumber: batch }, demo2)).body.data.total).toBe(0);
    expect((await h.post('meituan_reservation_orders', { customerId: ids.demo }, demo2)).body.data.total).toBe(0);
    expect((await h.post('meituan_reservation_order/batchNumber', {}, demo2)).body.data).not.toContain(batch);
    const exp = await h.app.inject({
      method: 'POST',
      url: '/api/meituan_reservation_order/export',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${demo2}` },
      payload: JSON.stringify({ batchNumber: batch }),
    });
    expect(await workbookRows(exp.rawPayload)).toHaveLength(1);
    const agentList = await h.post('meituan_reservation_orders', { limit: 100 }, agent);
    expect(new Set(agentList.body.data.list.map((x: C.MeituanOrderRow) => x.customerCode))).toEqual(
      new Set(['DEMO', 'DEMO2']),
    );
    const outsiderList = await h.post('meituan_reservation_orders', {}, other.token);
    expect(outsiderList.body.data.list.map((x: C.MeituanOrderRow) => x.customerCode)).toEqual(['MEITUANOUTSIDER']);
    // A customer naming another customer on upload is refused; an agent must name one.
    const forged = await send(demo2, [row('F1')], { customerId: String(ids.demo) });
    expect(forged.status).toBe(422);
    expect((await send(agent, [row('F2')])).status).toBe(422);
    const byAgent = await send(agent, [row('F3')], { customerId: String(ids.demo2) });
    expect(byAgent.body.data.committed).toBe(true);
    // Nothing of demo's changed.
    const still = await h.post('meituan_reservation_order', { id }, demo);
    expect(still.body.data.status).toBe(0);
  });

  it('without a token every call is a 401', async () => {
    for (const path of [
      'meituan_reservation_orders',
      'meituan_reservation_order',
      'meituan_reservation_order/items',
      'meituan_reservation_order/templateExcel',
      'meituan_reservation_order/export',
      'meituan_reservation_order/operationLocationList',
      'meituan_reservation_order/batchNumber',
      'meituan_reservation_order/complete',
    ]) {
      expect((await h.post(path, {})).status, path).toBe(401);
    }
  });
});

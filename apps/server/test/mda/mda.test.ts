import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { CATEGORY_COLUMNS, LINE_COLUMNS, ORDER_COLUMNS } from '../../src/modules/mda/mda.workbooks.ts';
import { createHarness, type Harness } from '../harness.ts';
import { pdfText } from '../support/pdf-read.ts';
import { validRecipient } from '../support/orders.ts';

/**
 * MDA downloads (issue 15): the customs-broker data of a batch or of chosen orders as three
 * workbooks and as the PD PDF, with exact values for known orders (declared and not), tenant
 * rules over all eight calls, and progress of a large batch.
 */
let h: Harness;
let demo: string;
let demo2: string;
let agent: string;
let operator: string;
let admin: string;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mda-api-'));

const JAN_A = '4901234567894';
const JAN_B = '4987654321098';
const JAN_C = '4900000000003';
const CORP = '1010001008844';
let demoId: number;
let demo2Id: number;
let batchId: number;
let batchNo: string;
let declared: { id: number; orderNo: string; waybillNo: string };
let undeclared: { id: number; orderNo: string; waybillNo: string };
let demo2Order: number;
let demo2Batch: number;

let n = 0;
async function insertOrder(customerId: number, batch: number | null, nominationId: number | null, items: object[]) {
  n += 1;
  const at = new Date().toISOString();
  const orderNo = `MDA${String(n).padStart(5, '0')}`;
  const o = await h.db
    .insertInto('orders')
    .values({
      customer_id: customerId,
      batch_id: batch,
      channel_code: 'JP',
      order_no: orderNo,
      waybill_no: `WB${orderNo}`,
      system_no: `SMDA${n}`,
      export_nomination_id: nominationId,
      status: 'created',
      recipient_name: validRecipient.name,
      recipient_id_card: validRecipient.idCard,
      recipient_phone: validRecipient.phone,
      recipient_province: validRecipient.province,
      recipient_city: validRecipient.city,
      recipient_district: validRecipient.district,
      recipient_address: validRecipient.address,
      currency: 'JPY',
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await h.db
    .insertInto('order_items')
    .values(items.map((i, k) => ({ order_id: o.id, line_no: k + 1, origin: 'JP', ...i }) as never))
    .execute();
  return { id: o.id, orderNo, waybillNo: `WB${orderNo}` };
}

async function insertBatch(customerId: number, no: string) {
  const at = new Date().toISOString();
  const u = await h.db.selectFrom('users').select('id').where('customer_id', '=', customerId).executeTakeFirstOrThrow();
  const b = await h.db
    .insertInto('batches')
    .values({
      batch_no: no,
      customer_id: customerId,
      channel_code: 'JP',
      template_kind: 'import',
      status: 'done',
      created_by: u.id,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return b.id;
}

async function catalogue(
  customerId: number,
  jan: string,
  v: { en: string; ja: string; cat: string; g: number; jpy: string },
) {
  const at = new Date().toISOString();
  const u = await h.db.selectFrom('users').select('id').orderBy('id').executeTakeFirstOrThrow();
  await h.db
    .insertInto('items')
    .values({
      customer_id: customerId,
      jan,
      name_zh: v.en,
      name_en: v.en,
      name_ja: v.ja,
      specs: '',
      essentials: '',
      new_category: '',
      export_category: v.cat,
      group_name: '',
      net_weight_g: v.g,
      clearance_price: '50',
      declaration_price: v.jpy,
      origin: 'JP',
      status: 'approved',
      created_by: u.id,
      created_at: at,
      updated_at: at,
    })
    .execute();
}

const item = (jan: string, name: string, quantity: number, unit_price: number, currency = 'JPY') => ({
  jan,
  name,
  quantity,
  unit_price,
  currency,
  brand: null,
  spec: null,
  hazard_code: null,
});

beforeAll(async () => {
  h = await createHarness();
  [demo, demo2, agent, operator, admin] = await Promise.all(
    ['demo', 'demo2', 'agent', 'operator', 'admin'].map((u) => h.login(u)),
  );
  const ids = await h.db
    .selectFrom('users')
    .select(['name', 'customer_id'])
    .where('name', 'in', ['demo', 'demo2'])
    .execute();
  demoId = ids.find((u) => u.name === 'demo')!.customer_id!;
  demo2Id = ids.find((u) => u.name === 'demo2')!.customer_id!;
  const nom = await h.db
    .insertInto('export_nominations')
    .values({
      customer_id: demoId,
      name_ja: '山田商事株式会社',
      name_en: 'Yamada Shoji Co., Ltd.',
      corporate_number: CORP,
      address_en: '1-1-1 Marunouchi, Chiyoda-ku, Tokyo',
      tel: '03-1234-5678',
      created_at: new Date().toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await catalogue(demoId, JAN_A, { en: 'Face cream', ja: 'フェイスクリーム', cat: '3304', g: 250, jpy: '1200' });
  await catalogue(demoId, JAN_B, { en: 'Toothpaste', ja: '歯磨き粉', cat: '3306', g: 120, jpy: '300' });
  batchNo = 'BMDA0001';
  batchId = await insertBatch(demoId, batchNo);
  // Declared: JPY 250,000 over lines worth 2,400 and 600 on their own (4 : 1).
  declared = await insertOrder(demoId, batchId, nom.id, [item(JAN_A, '面霜', 2, 999), item(JAN_C, '保湿乳液', 1, 600)]);
  await h.db
    .insertInto('export_declarations')
    .values({
      order_id: declared.id,
      customer_id: demoId,
      product_name: 'Cosmetics',
      amount_jpy: 250_000,
      updated_at: new Date().toISOString(),
    })
    .execute();
  // Not declared: catalogue prices (3 × 1,200 and 2 × 300); two lines of one category in layout 2.
  undeclared = await insertOrder(demoId, batchId, nom.id, [
    item(JAN_A, '面霜', 3, 999),
    item(JAN_B, '牙膏', 2, 999),
    item(JAN_A, '面霜', 1, 999),
  ]);
  demo2Batch = await insertBatch(demo2Id, 'BMDA0002');
  demo2Order = (await insertOrder(demo2Id, demo2Batch, null, [item(JAN_A, '面霜', 1, 100, 'CNY')])).id;
}, 120_000);

async function download(call: string, body: unknown, token: string, lang = 'en') {
  const res = await h.app.inject({
    method: 'POST',
    url: `/api/${call}`,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'accept-language': lang },
    payload: JSON.stringify(body),
  });
  return { status: res.statusCode, body: res.rawPayload, headers: res.headers };
}
async function sheet(body: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(body as unknown as ArrayBuffer);
  const ws = wb.worksheets[0]!;
  const rows: unknown[][] = [];
  const width = ws.getRow(1).cellCount;
  ws.eachRow((row) => rows.push(Array.from({ length: width }, (_, i) => row.getCell(i + 1).value ?? null)));
  return rows;
}
const savePdf = (body: Buffer) => {
  const file = path.join(dir, `${n++}.pdf`);
  fs.writeFileSync(file, body);
  return file;
};

describe('MDA workbooks', () => {
  it('one row per order with exact values: the declaration, else catalogue prices', async () => {
    const r = await download('order/downloadOrderMDABatch', { id: batchId }, demo);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toContain('spreadsheetml');
    const rows = await sheet(r.body);
    expect(rows[0]).toEqual(ORDER_COLUMNS.map(([t]) => t));
    const address = '浙江省杭州市西湖区文三路100号';
    expect(rows.slice(1)).toEqual([
      [
        batchNo,
        declared.orderNo,
        declared.waybillNo,
        '山田商事株式会社',
        'Yamada Shoji Co., Ltd.',
        CORP,
        '1-1-1 Marunouchi, Chiyoda-ku, Tokyo',
        '03-1234-5678',
        '王小明',
        address,
        'CN',
        'Cosmetics',
        '3304',
        3,
        'PCE',
        250000,
        'JP',
        // JAN_C has no catalogue weight: the total is unknown, not understated.
        null,
        2,
        'Y',
      ],
      [
        batchNo,
        undeclared.orderNo,
        undeclared.waybillNo,
        '山田商事株式会社',
        'Yamada Shoji Co., Ltd.',
        CORP,
        '1-1-1 Marunouchi, Chiyoda-ku, Tokyo',
        '03-1234-5678',
        '王小明',
        address,
        'CN',
        'Face cream, Toothpaste',
        '3304',
        6,
        'PCE',
        3 * 1200 + 2 * 300 + 1200,
        'JP',
        '1.240',
        3,
        'N',
      ],
    ]);
  });

  it('layout 1: one row per line; the declared amount spread over lines and adding up exactly', async () => {
    const r = await download('order/downloadMDABatch', { id: batchId }, demo);
    expect(r.status).toBe(200);
    const rows = await sheet(r.body);
    expect(rows[0]).toEqual(LINE_COLUMNS.map(([t]) => t));
    const lines = rows.slice(1);
    expect(lines.map((l) => [l[0], l[1], l[8], l[9], l[10], l[11], l[13], l[14], l[15], l[17]])).toEqual([
      [declared.orderNo, 1, JAN_A, 'Face cream', 'フェイスクリーム', '3304', 2, 'PCE', 200000, '0.500'],
      [declared.orderNo, 2, JAN_C, '保湿乳液', '保湿乳液', null, 1, 'PCE', 50000, null],
      [undeclared.orderNo, 1, JAN_A, 'Face cream', 'フェイスクリーム', '3304', 3, 'PCE', 3600, '0.750'],
      [undeclared.orderNo, 2, JAN_B, 'Toothpaste', '歯磨き粉', '3306', 2, 'PCE', 600, '0.240'],
      [undeclared.orderNo, 3, JAN_A, 'Face cream', 'フェイスクリーム', '3304', 1, 'PCE', 1200, '0.250'],
    ]);
  });

  it('layout 2: lines summarised per export category within each order', async () => {
    const r = await download('order/downloadMDABatch2', { id: batchId }, demo);
    expect(r.status).toBe(200);
    const rows = await sheet(r.body);
    expect(rows[0]).toEqual(CATEGORY_COLUMNS.map(([t]) => t));
    expect(rows.slice(1).map((l) => [l[0], l[1], l[6], l[7], l[8], l[10], l[12]])).toEqual([
      [declared.orderNo, 1, '3304', 'Beauty or make-up preparations', 2, 200000, '0.500'],
      [declared.orderNo, 2, null, '保湿乳液', 1, 50000, null],
      [undeclared.orderNo, 1, '3304', 'Beauty or make-up preparations', 4, 4800, '1.000'],
      [undeclared.orderNo, 2, '3306', 'Preparations for oral hygiene', 2, 600, '0.240'],
    ]);
  });

  it('ByOrder: the chosen orders only; with another customer’s order the whole download is refused', async () => {
    const r = await download('order/downloadOrderMDABatchByOrder', { ids: [undeclared.id] }, demo);
    expect(r.status).toBe(200);
    const rows = await sheet(r.body);
    expect(rows.slice(1).map((x) => x[1])).toEqual([undeclared.orderNo]);
    for (const call of [
      'order/downloadOrderMDABatchByOrder',
      'order/downloadMDA2PDByOrder',
      'order/downloadMDA2PDBatchByOrder',
    ]) {
      const mixed = await download(call, { ids: [undeclared.id, demo2Order] }, demo);
      expect(mixed.status, call).toBe(404);
      expect(mixed.body.toString()).not.toContain('MDA0');
    }
  });
});

describe('PD PDF', () => {
  it('one invoice and packing list per order, in English and Japanese', async () => {
    const r = await download('order/downloadMDA2PD', { id: batchId }, demo);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/pdf');
    const file = savePdf(r.body);
    const first = pdfText(file, 1);
    expect(first).toContain('COMMERCIAL INVOICE');
    expect(first).toContain('商業送り状');
    expect(first).toContain('山田商事株式会社');
    expect(first).toContain('Yamada Shoji Co., Ltd.');
    expect(first).toContain(`法人番号 ${CORP}`);
    expect(first).toContain(declared.orderNo);
    expect(first).toContain('フェイスクリーム');
    expect(first).toContain('200,000');
    expect(first).toContain('JPY 250,000');
    const second = pdfText(file, 2);
    expect(second).toContain('PACKING LIST');
    expect(second).toContain('包装明細書');
    expect(second).toContain(declared.waybillNo);
    const all = pdfText(file);
    expect(all).toContain(undeclared.orderNo);
    expect(all).toContain('JPY 5,400');
  });

  it('consolidated: one document for the batch; ByOrder variants take chosen orders', async () => {
    const r = await download('order/downloadMDA2PDBatch', { id: batchId }, demo);
    expect(r.status).toBe(200);
    const text = pdfText(savePdf(r.body), 1);
    expect(text).toContain(`Invoice No. / 送り状番号: ${batchNo}`);
    expect(text).toContain('JPY 255,400');
    expect(text).toContain(declared.orderNo);
    expect(text).toContain(undeclared.orderNo);

    const one = await download('order/downloadMDA2PDByOrder', { ids: [undeclared.id] }, demo);
    expect(one.status).toBe(200);
    const t1 = pdfText(savePdf(one.body));
    expect(t1).toContain(undeclared.orderNo);
    expect(t1).not.toContain(declared.orderNo);

    const cons = await download('order/downloadMDA2PDBatchByOrder', { ids: [declared.id] }, demo);
    expect(cons.status).toBe(200);
    expect(pdfText(savePdf(cons.body), 1)).toContain(`Invoice No. / 送り状番号: ${batchNo}`);
  });
});

describe('tenant matrix', () => {
  const batchCalls = [
    'order/downloadOrderMDABatch',
    'order/downloadMDABatch',
    'order/downloadMDABatch2',
    'order/downloadMDA2PD',
    'order/downloadMDA2PDBatch',
  ];
  const orderCalls = [
    'order/downloadOrderMDABatchByOrder',
    'order/downloadMDA2PDByOrder',
    'order/downloadMDA2PDBatchByOrder',
  ];

  it('customers get their own only; agents their customers’; operators and admin all; no token 401', async () => {
    const cases: [string, string, number][] = [
      ['demo', demo, 200],
      ['demo2', demo2, 404],
      ['agent', agent, 200],
      ['operator', operator, 200],
      ['admin', admin, 200],
    ];
    for (const [who, token, status] of cases) {
      for (const call of batchCalls) {
        const r = await download(call, { id: batchId }, token);
        expect(r.status, `${who} ${call}`).toBe(status);
      }
      for (const call of orderCalls) {
        const r = await download(call, { ids: [declared.id] }, token);
        expect(r.status, `${who} ${call}`).toBe(status);
      }
    }
    // demo reading demo2's batch and order: not found, never data.
    for (const call of batchCalls) expect((await download(call, { id: demo2Batch }, demo)).status).toBe(404);
    for (const call of orderCalls) expect((await download(call, { ids: [demo2Order] }, demo)).status).toBe(404);
    for (const call of [...batchCalls, ...orderCalls])
      expect((await download(call, { id: batchId, ids: [declared.id] }, '')).status).toBe(401);
  }, 120_000);

  it('bad input is 422 with the field', async () => {
    const r = await h.post('order/downloadMDABatch', { id: 'x' }, demo);
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.data)).toContain('id');
    const e = await h.post('order/downloadMDA2PDByOrder', { ids: [] }, demo);
    expect(e.status).toBe(422);
    expect(Object.keys(e.body.data)).toContain('ids');
  });
});

describe('a large batch', () => {
  it('runs as a job with progress: rows of the total while writing, then done', async () => {
    const big = await insertBatch(demoId, 'BMDA-BIG');
    const at = new Date().toISOString();
    const N = 3000;
    for (let s = 0; s < N; s += 500) {
      const orders = await h.db
        .insertInto('orders')
        .values(
          Array.from({ length: Math.min(500, N - s) }, (_, k) => ({
            customer_id: demoId,
            batch_id: big,
            channel_code: 'JP',
            order_no: `MDABIG${s + k}`,
            system_no: `SMDABIG${s + k}`,
            status: 'created',
            recipient_name: validRecipient.name,
            recipient_id_card: validRecipient.idCard,
            recipient_phone: validRecipient.phone,
            recipient_province: validRecipient.province,
            recipient_city: validRecipient.city,
            recipient_district: validRecipient.district,
            recipient_address: validRecipient.address,
            currency: 'JPY',
            created_at: at,
            updated_at: at,
          })),
        )
        .returning('id')
        .execute();
      await h.db
        .insertInto('order_items')
        .values(orders.map((o) => ({ order_id: o.id, ...item(JAN_A, '面霜', 2, 999), line_no: 1, origin: 'JP' })))
        .execute();
    }
    const id = 'mda-big-0001';
    let finished = false;
    const job = download('order/downloadMDABatch', { id: big, progressId: id }, demo).finally(() => (finished = true));
    const seen: { phase: string; rows: number; total: number | null }[] = [];
    while (!finished) {
      const p = await h.post('export/progress', { id }, demo);
      seen.push(p.body.data);
      await new Promise((r) => setTimeout(r, 5));
    }
    const res = await job;
    expect(res.status).toBe(200);
    const last = (await h.post('export/progress', { id }, demo)).body.data;
    expect(last).toEqual({ phase: 'done', rows: N, total: N });
    expect(seen.some((p) => p.total === N)).toBe(true);
    expect(seen.every((p) => p.rows <= (p.total ?? Infinity))).toBe(true);
    const rows = await sheet(res.body);
    expect(rows.length).toBe(N + 1);
    expect(rows[N]![15]).toBe(2400);
    // Another user cannot read its progress.
    expect((await h.post('export/progress', { id }, demo2)).body.data.phase).toBe('unknown');

    // The PD of the same batch, in parallel with a workbook: both finish.
    const [pd, wb] = await Promise.all([
      download('order/downloadMDA2PD', { id: big, progressId: 'mda-big-pd01' }, demo),
      download('order/downloadOrderMDABatch', { id: big }, demo),
    ]);
    expect(pd.status).toBe(200);
    expect(wb.status).toBe(200);
    expect((await h.post('export/progress', { id: 'mda-big-pd01' }, demo)).body.data).toEqual({
      phase: 'done',
      rows: N,
      total: N,
    });
  }, 300_000);
});

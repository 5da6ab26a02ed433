import { idCardCheckChar } from '@console/contract';
import CFB from 'cfb';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, multipart } from './harness.ts';
import { buildXls, rkInt } from './support/xls.ts';

/** Batch Orders Search from old binary .xls workbooks (BIFF8), built here as real files. */
let h: Harness;
let demo: string;
let waybills: string[];
let theirs: string;

async function search(data: Buffer, name = 'numbers.xls', lang = 'en') {
  const m = multipart({}, { name, data });
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/order/orderBatchSearch',
    headers: { 'content-type': m.contentType, authorization: `Bearer ${demo}`, 'accept-language': lang },
    payload: m.payload,
  });
  return { status: res.statusCode, body: res.json() };
}
/** What a batch search found: its orders are paged by the search id (one page of 500 here). */
async function foundOf(r: { body: any }): Promise<any[]> {
  const page = await h.post('order/orderBatchSearch/found', { searchId: r.body.data.searchId, limit: 500 }, demo);
  expect(page.status).toBe(200);
  expect(page.body.data.total).toBe(r.body.data.total);
  return page.body.data.list;
}
async function createWithOrderNo(orderNo: string) {
  const r = await h.post(
    'order/createImport',
    {
      channel: 'JP',
      orderNo,
      recipient: {
        name: '王小明',
        idCard: '11010519800101123' + idCardCheckChar('11010519800101123'),
        phone: '13812345678',
        province: '浙江省',
        city: '杭州市',
        district: '西湖区',
        address: '文三路100号',
      },
      sender: { name: 'DEMO Trading', address: 'Tokyo', phone: '03-1234-5678' },
      items: [{ name: '奶粉', quantity: 1, unitPrice: '1500' }],
    },
    demo,
  );
  return r;
}

beforeAll(async () => {
  h = await createHarness();
  demo = await h.login('demo');
  const ids = await h.db.selectFrom('customers').select(['id', 'code']).execute();
  const demoId = ids.find((c) => c.code === 'DEMO')!.id;
  waybills = (
    await h.db
      .selectFrom('orders')
      .select('waybill_no')
      .where('customer_id', '=', demoId)
      .orderBy('id')
      .limit(3)
      .execute()
  ).map((r) => r.waybill_no!);
  theirs = (
    await h.db.selectFrom('orders').select('waybill_no').where('customer_id', '!=', demoId).executeTakeFirstOrThrow()
  ).waybill_no!;
});

describe('batch search from .xls', () => {
  it('reads the first column of the first worksheet: shared strings across CONTINUE, LABEL, NUMBER, RK, MULRK', async () => {
    // Order numbers that a spreadsheet keeps as numbers.
    const big = '20261231000123';
    const small = '123456';
    for (const n of [big, small]) expect((await createWithOrderNo(n)).status).toBe(200);
    const missingZh = '未找到的单号一二三四五六七八九十甲乙丙丁';
    const data = buildXls(
      [
        { name: 'Chart1', kind: 2, rows: [['chart sheets are passed over']] },
        {
          name: 'Numbers',
          rows: [
            ['运单号 / Waybill No.', 'ignored column'],
            [waybills[0]!, 'x'],
            [{ label: waybills[1]! }],
            [waybills[2]!, null, 'far right'],
            [Number(big)],
            [{ rk: rkInt(Number(small)) }],
            [{ mulrk: [rkInt(777_001), rkInt(5)] }],
            [missingZh],
            [theirs],
            [waybills[0]!], // a repeat is searched once, where it last comes (spec §5: the last wins)
            [null, 'an empty first cell is skipped'],
          ],
        },
        { name: 'Other', rows: [['NOT-READ-1']] },
      ],
      // Small records: strings split inside their characters, a wide one re-stated compressed and back.
      { sstRecordMax: 40 },
    );
    const r = await search(data);
    expect(r.status).toBe(200);
    expect((await foundOf(r)).map((f: any) => f.matched).sort()).toEqual([...waybills, big, small].sort());
    expect(r.body.data.notFound).toEqual(['777001', missingZh, theirs]);
    // The result workbook lists every number read, in sheet order.
    const dl = await h.app.inject({
      method: 'POST',
      url: '/api/order/orderBatchSearch/download',
      headers: { authorization: `Bearer ${demo}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ fileId: r.body.data.resultFileId }),
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(dl.rawPayload as unknown as ArrayBuffer);
    const col = wb.worksheets[0]!.getColumn(1).values.slice(2);
    expect(col).toEqual([...waybills.slice(1), big, small, '777001', missingZh, theirs, waybills[0]]);
  });

  it('is detected by content, whatever the file is called; a sheet without a header row keeps row 1', async () => {
    const data = buildXls([{ name: 'S', rows: [[waybills[0]!], ['NOPE-7']] }]);
    const r = await search(data, 'numbers.xlsx');
    expect(r.status).toBe(200);
    expect((await foundOf(r)).map((f: any) => f.matched)).toEqual([waybills[0]]);
    expect(r.body.data.notFound).toEqual(['NOPE-7']);
  });

  it('keeps the limits: an empty first column and more than 5,000 numbers are refused', async () => {
    const empty = await search(buildXls([{ name: 'S', rows: [[null, 'only column B']] }]));
    expect(empty.status).toBe(422);
    expect(empty.body.data.file).toEqual(['No numbers were found in the first column.']);
    const many = await search(
      buildXls([{ name: 'S', rows: Array.from({ length: 5001 }, (_, i) => [{ rk: rkInt(100_000 + i) }]) }]),
    );
    expect(many.status).toBe(422);
    expect(many.body.data.file).toEqual(['At most 5000 numbers at a time.']);
  });

  it('password-protected, pre-97 and damaged files get a clear 422, never a 500', async () => {
    const rows = [[waybills[0]!]];
    const enc = await search(buildXls([{ name: 'S', rows }], { encrypted: true }));
    expect(enc.status).toBe(422);
    expect(enc.body.data.file[0]).toMatch(/password-protected/);
    const zh = await search(buildXls([{ name: 'S', rows }], { encrypted: true }), 'a.xls', 'zh-CN');
    expect(zh.body.data.file[0]).toMatch(/设置了密码/);
    // A password-protected .xlsx is also a compound file (EncryptionInfo + EncryptedPackage).
    const ooxml = CFB.utils.cfb_new();
    CFB.utils.cfb_add(ooxml, 'EncryptionInfo', Buffer.alloc(200, 1));
    CFB.utils.cfb_add(ooxml, 'EncryptedPackage', Buffer.alloc(5000, 2));
    const encX = await search(Buffer.from(CFB.write(ooxml, { type: 'buffer' }) as Uint8Array), 'a.xlsx');
    expect(encX.body.data.file[0]).toMatch(/password-protected/);
    const old = await search(buildXls([{ name: 'S', rows }], { biff5: true }));
    expect(old.status).toBe(422);
    expect(old.body.data.file[0]).toMatch(/older than Excel 97/);
    const damaged = [
      buildXls([{ name: 'S', rows }], { truncate: 3 }),
      buildXls([{ name: 'S', rows: [['a long enough string to be split']] }], { sstRecordMax: 20, truncate: 30 }),
      Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(2000, 0xff)]),
    ];
    // Flipping bytes through the file: every answer is 200 or 422, never a crash.
    const good = buildXls([{ name: 'S', rows: [[waybills[0]!], ['N-1'], [{ rk: rkInt(9) }]] }], { sstRecordMax: 30 });
    for (let at = 512; at < good.length; at += 97) {
      const b = Buffer.from(good);
      b[at] = b[at]! ^ 0xa5;
      damaged.push(b);
    }
    for (const d of damaged) {
      const r = await search(d);
      expect([200, 422]).toContain(r.status);
      if (r.status === 422) expect(r.body.data.file).toHaveLength(1);
    }
    const first = await search(damaged[0]!);
    expect(first.body.data.file[0]).toMatch(/damaged/);
  });
});

import ExcelJS from 'exceljs';
import type { items as C } from '@console/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, multipart } from './harness.ts';
import { aes, aesBlob, aesUpload, freshJan, itemBody } from './items/helpers.ts';
import { lyingWorkbook, zipFiles } from './support/zip.ts';

/**
 * Issue 12, bulk: items from the import template. Round trip (template → rows → preview with
 * bad rows → error workbook of exactly those rows with reasons → commit → pending items), the
 * upload guard, tenancy and AES on every call.
 */
let h: Harness;
let demo: string;
let demo2: string;
let agent: string;
let operator: string;
let demoCustomerId: number;

beforeAll(async () => {
  h = await createHarness();
  [demo, demo2, agent, operator] = await Promise.all(['demo', 'demo2', 'agent', 'operator'].map((n) => h.login(n)));
  demoCustomerId = (
    await h.db.selectFrom('customers').select('id').where('code', '=', 'DEMO').executeTakeFirstOrThrow()
  ).id;
});

/** A blob call with a sealed request: status and bytes. */
const blob = (path: string, body: unknown, token: string) => aesBlob(h, path, body, token);

const upload = (
  token: string,
  file: { name: string; data: Buffer },
  fields: Record<string, unknown> = {},
  lang = 'en',
) => aesUpload(h, 'item/import/upload', token, file, fields, lang);

async function readBook(bytes: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as never);
  return wb;
}

/** The template with rows filled in under its own headers (by header, so the test follows the template). */
async function filled(rows: Record<string, string | number>[]): Promise<Buffer> {
  const t = await blob('item/import/template', {}, demo);
  expect(t.status).toBe(200);
  const wb = await readBook(t.bytes);
  const sheet = wb.getWorksheet('items')!;
  const headers = (sheet.getRow(1).values as string[]).slice(1);
  rows.forEach((r, i) => {
    const row = sheet.getRow(i + 2);
    headers.forEach((hd, c) => {
      const key = Object.keys(r).find((k) => hd.endsWith(`/ ${k}`));
      if (key !== undefined) row.getCell(c + 1).value = r[key]!;
    });
    row.commit();
  });
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const good = (over: Record<string, string | number> = {}) => {
  const b = itemBody();
  return {
    JAN: b.jan,
    'Chinese name': b.nameZh,
    'English name': b.nameEn,
    Specs: b.specs,
    Category: '2',
    'Net weight (g)': 120,
    'Clearance price (CNY)': '45.5',
    'Declaration price (JPY)': '800',
    Origin: 'jp',
    'Tax code': '04010100',
    ...over,
  };
};

async function waitDone(token: string, id: number) {
  for (let i = 0; i < 200; i++) {
    const p = await aes(h, 'item/import/progress', { id }, token);
    if (p.data.status !== 'committing') return p.data as C.ItemImport;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('import did not finish');
}

describe('round trip', () => {
  it('template → rows with some bad → error workbook lists exactly the bad rows → commit makes the valid ones pending', async () => {
    const t = await blob('item/import/template', {}, demo);
    expect(t.type).toContain('spreadsheetml');
    const tpl = await readBook(t.bytes);
    const headers = (tpl.getWorksheet('items')!.getRow(1).values as string[]).slice(1);
    // Every item field of spec §3 the customer declares, in both languages.
    for (const h of [
      'JAN码 / JAN',
      '中文名称 / Chinese name',
      '英文名称 / English name',
      '日文名称 / Japanese name',
      '规格 / Specs',
      '申报要素 / Clearance essentials',
      '部件 / Part',
      '品牌 / Brand',
      '类别 / Category',
      '新类别 / New category',
      '分组 / Group',
      '税号 / Tariff',
      '净重(g) / Net weight (g)',
      '清关价格(CNY) / Clearance price (CNY)',
      '申报价格(JPY) / Declaration price (JPY)',
      '原产地 / Origin',
      '税码 / Tax code',
    ])
      expect(headers).toContain(h);

    const existing = (await aes(h, 'item/create', itemBody(), demo)).data as C.ItemRow;
    const repeated = freshJan();
    const rows = [
      good({ Group: 'import-a' }), // row 2
      good({ JAN: '4901234567890' }), // row 3: check digit
      good({ 'Net weight (g)': 0 }), // row 4: weight below 1
      good({ Group: 'import-a', Brand: '1' }), // row 5
      good({ JAN: existing.jan }), // row 6: already in the catalogue
      good({ JAN: repeated }), // row 7: repeated in the file
      good({ JAN: repeated }), // row 8
      good({ Category: '', 'New category': '' }), // row 9: neither category
      good({ 'Clearance price (CNY)': '4.555', Origin: 'Japan' }), // row 10: two problems
      good({ Group: 'import-a', Category: '', 'New category': '美容仪' }), // row 11
    ];
    const up = await upload(demo, { name: 'items.xlsx', data: await filled(rows) });
    expect(up.status).toBe(200);
    const p = up.data as C.ItemImport;
    expect(p).toMatchObject({ status: 'preview', totalRows: 10, validRows: 3, invalidRows: 7, hasErrorWorkbook: true });
    expect(new Set(p.errors.map((e) => e.row))).toEqual(new Set([3, 4, 6, 7, 8, 9, 10]));
    const rowErr = (row: number) => p.errors.filter((e) => e.row === row);
    expect(rowErr(3)[0]).toMatchObject({ column: 'A', columnTitle: 'JAN' });
    expect(rowErr(3)[0]!.message).toMatch(/check digit/);
    expect(rowErr(6)[0]!.message).toMatch(/already in the catalogue/);
    expect(rowErr(7)[0]!.message).toMatch(/rows 7, 8/);
    expect(
      rowErr(10)
        .map((e) => e.columnTitle)
        .sort(),
    ).toEqual(['Clearance price (CNY)', 'Origin']);

    // The error workbook: exactly the failed rows, values only, with the reason of each.
    const eb = await blob('item/import/download/errors', { id: p.id }, demo);
    expect(eb.status).toBe(200);
    const sheet = (await readBook(eb.bytes)).worksheets[0]!;
    const head = (sheet.getRow(1).values as string[]).slice(1);
    expect(head[0]).toBe('行号 / Row');
    expect(head.at(-1)).toBe('错误原因 / Reason');
    const listed: { row: number; jan: string; reason: string }[] = [];
    sheet.eachRow((r, n) => {
      if (n === 1) return;
      const v = r.values as unknown[];
      listed.push({ row: Number(v[1]), jan: String(v[2]), reason: String(v[head.length]) });
      // Values only: no formula, link or rich text comes back.
      for (const x of v.slice(1)) if (x !== undefined) expect(['string', 'number']).toContain(typeof x);
    });
    expect(listed.map((l) => l.row)).toEqual([3, 4, 6, 7, 8, 9, 10]);
    expect(listed.find((l) => l.row === 3)!.jan).toBe('4901234567890');
    expect(listed.find((l) => l.row === 4)!.reason).toMatch(/Net weight/);
    expect(listed.find((l) => l.row === 9)!.reason).toMatch(/category/i);
    expect(listed.every((l) => l.reason.length > 0)).toBe(true);

    // Nothing is written before the commit.
    const before = await aes(h, 'items', { group: 'import-a', limit: 50 }, demo);
    expect(before.data.total).toBe(0);

    const c = await aes(h, 'item/import/confirm', { id: p.id }, demo);
    expect(c.status).toBe(200);
    const done = await waitDone(demo, p.id);
    expect(done).toMatchObject({ status: 'done', progress: 100, createdItems: 3 });
    const after = await aes(h, 'items', { group: 'import-a', limit: 50 }, demo);
    expect(after.data.total).toBe(3);
    expect(after.data.list.length).toBe(3);
    expect(after.data.list.every((i: C.ItemRow) => i.status === 'pending' && i.customerId === demoCustomerId)).toBe(
      true,
    );
    const withNew = after.data.list.find((i: C.ItemRow) => i.newCategory === '美容仪');
    expect(withNew).toMatchObject({ category: null, origin: 'JP', clearancePrice: '45.50' });
    const detail = await aes(h, 'item', { id: withNew.id }, demo);
    expect(detail.data.history.map((e: any) => e.kind)).toEqual(['created']);
    // Confirmed once only.
    expect((await aes(h, 'item/import/confirm', { id: p.id }, demo)).status).toBe(409);
  });

  it('Chinese reasons for a Chinese caller; a customer cannot import for someone else', async () => {
    const data = await filled([good({ JAN: '4901234567890' })]);
    const zh = await upload(demo, { name: 'zh.xlsx', data }, {}, 'zh-CN');
    expect(zh.status).toBe(200);
    expect(zh.data.errors[0]).toMatchObject({ row: 2, columnTitle: 'JAN码' });
    expect(zh.data.errors[0].message).toMatch(/校验位/);
    const demo2Customer = await h.db
      .selectFrom('customers')
      .select('id')
      .where('code', '=', 'DEMO2')
      .executeTakeFirstOrThrow();
    const other = await upload(demo, { name: 'x.xlsx', data }, { customerId: demo2Customer.id });
    expect(other.status).toBe(422);
    expect(other.body.data.customerId).toHaveLength(1);
  });

  it('an operator imports for the customer it names; an agent for its customers only', async () => {
    const data = await filled([good({ Group: 'op-import' })]);
    const none = await upload(operator, { name: 'op.xlsx', data });
    expect(none.status).toBe(422);
    expect(none.body.data.customerId).toHaveLength(1);
    const op = await upload(operator, { name: 'op.xlsx', data }, { customerId: demoCustomerId });
    expect(op.status).toBe(200);
    expect(op.data).toMatchObject({ customerId: demoCustomerId, validRows: 1 });
    expect((await aes(h, 'item/import/confirm', { id: op.data.id }, operator)).status).toBe(200);
    expect(await waitDone(operator, op.data.id)).toMatchObject({ status: 'done', createdItems: 1 });
    const mine = await aes(h, 'items', { group: 'op-import', limit: 10 }, demo);
    expect(mine.data.list.map((i: C.ItemRow) => i.status)).toEqual(['pending']);

    const outsiderCustomer = await h.db
      .insertInto('customers')
      .values({ code: 'NOBOOK', name: 'nobook', agent_user_id: null, created_at: new Date().toISOString() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const ag = await upload(
      agent,
      { name: 'ag.xlsx', data: await filled([good()]) },
      { customerId: outsiderCustomer.id },
    );
    expect(ag.status).toBe(422);
    expect(ag.body.data.customerId).toHaveLength(1);
    const agOk = await upload(agent, { name: 'ag.xlsx', data: await filled([good()]) }, { customerId: demoCustomerId });
    expect(agOk.status).toBe(200);
  });

  it('a JAN taken between preview and commit fails the whole import: nothing written, earlier chunks neither', async () => {
    // 600 rows: the commit writes 500 per statement, so the taken JAN (row 552) is in the second
    // chunk, after the first was inserted: only one transaction leaves nothing behind.
    const rows = Array.from({ length: 600 }, () => good({ Group: 'race' }));
    const up = await upload(demo, { name: 'race.xlsx', data: await filled(rows) });
    expect(up.data.validRows).toBe(600);
    const takenJan = String(rows[550]!.JAN);
    expect((await aes(h, 'item/create', itemBody({ jan: takenJan }), demo)).status).toBe(200);
    expect((await aes(h, 'item/import/confirm', { id: up.data.id }, demo)).status).toBe(200);
    const done = await waitDone(demo, up.data.id);
    expect(done.status).toBe('failed');
    expect(done.errorMessage).toContain(takenJan);
    expect((await aes(h, 'items', { group: 'race', limit: 10 }, demo)).data.total).toBe(0);
  });

  // Issue 27: previewed on one instance, confirmed on another (its own DATA_DIR), the stored
  // valid rows are not there; the user read "Server error" and the log had nothing.
  it('a preview whose stored rows are gone fails with "upload it again", nothing written', async () => {
    const up = await upload(demo, { name: 'gone.xlsx', data: await filled([good({ Group: 'gone' })]) }, {}, 'zh-CN');
    expect(up.data.validRows).toBe(1);
    const stored = await h.db
      .selectFrom('item_imports')
      .select('valid_key')
      .where('id', '=', up.data.id)
      .executeTakeFirstOrThrow();
    await h.storage.remove(stored.valid_key!);
    expect((await aes(h, 'item/import/confirm', { id: up.data.id }, demo, 'zh-CN')).status).toBe(200);
    const done = await waitDone(demo, up.data.id);
    expect(done.status).toBe('failed');
    expect(done.errorMessage).toBe('上传的文件在服务器上已不存在，未导入任何商品，请重新上传工作簿。');
    expect((await aes(h, 'items', { group: 'gone', limit: 10 }, demo)).data.total).toBe(0);
  });

  it('an unconfirmed preview expires', async () => {
    const up = await upload(demo, { name: 'late.xlsx', data: await filled([good()]) });
    expect(up.data.previewUntil).not.toBeNull();
    const saved = h.clock.now;
    // PREVIEW_TTL_MINUTES is a day here; the day-old session is gone too, so a new one.
    h.clock.now = new Date(saved.getTime() + 24 * 3600_000 + 60_000);
    try {
      const later = await h.login('demo');
      const c = await aes(h, 'item/import/confirm', { id: up.data.id }, later);
      expect(c.status).toBe(409);
      expect(c.body.message).toMatch(/expired/);
      expect((await aes(h, 'item/import/progress', { id: up.data.id }, later)).data.status).toBe('expired');
    } finally {
      h.clock.now = saved;
    }
  });
});

describe('the upload guard', () => {
  it('refuses a zip bomb, a non-xlsx file, an xlsx by name only and a sheet without the template columns', async () => {
    const bomb = await upload(demo, { name: 'bomb.xlsx', data: await lyingWorkbook(200 * 1024 * 1024) });
    expect(bomb.status).toBe(422);
    expect(bomb.body.data.file[0]).toMatch(/unreasonable size/);
    const csv = await upload(demo, { name: 'items.csv', data: Buffer.from('JAN,name\n1,2\n') });
    expect(csv.status).toBe(422);
    expect(csv.body.data.file).toHaveLength(1);
    const fake = await upload(demo, { name: 'fake.xlsx', data: Buffer.from('not a workbook at all') });
    expect(fake.status).toBe(422);
    expect(fake.body.data.file[0]).toMatch(/xlsx/);
    const zip = await upload(demo, { name: 'z.xlsx', data: zipFiles([{ name: 'a.txt', data: Buffer.from('x') }]) });
    expect(zip.status).toBe(422);
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('s').addRow(['JAN', 'Name']);
    wb.getWorksheet('s')!.addRow(['4901234567894', 'x']);
    const wrong = await upload(demo, { name: 'w.xlsx', data: Buffer.from(await wb.xlsx.writeBuffer()) });
    expect(wrong.status).toBe(422);
    expect(wrong.body.data.file[0]).toMatch(/Required columns are missing: .*Chinese name/);
    const imports = await h.db.selectFrom('item_imports').select('file_name').execute();
    expect(imports.map((i) => i.file_name)).not.toContain('bomb.xlsx');
  });
});

describe('tenancy and AES', () => {
  it('demo2 cannot read, download or commit demo’s preview', async () => {
    const up = await upload(demo, {
      name: 'mine.xlsx',
      data: await filled([good({ Group: 'mine' }), good({ JAN: '1' })]),
    });
    expect(up.status).toBe(200);
    const id = up.data.id;
    expect((await aes(h, 'item/import/progress', { id }, demo2)).status).toBe(404);
    expect((await aes(h, 'item/import/confirm', { id }, demo2)).status).toBe(404);
    expect((await blob('item/import/download/errors', { id }, demo2)).status).toBe(404);
    // Still demo's preview, untouched.
    expect((await aes(h, 'item/import/progress', { id }, demo)).data.status).toBe('preview');
    expect((await blob('item/import/download/errors', { id }, demo)).status).toBe(200);
  });

  it('refuses plain bodies on every import call', async () => {
    for (const path of [
      'item/import/progress',
      'item/import/confirm',
      'item/import/download/errors',
      'item/import/template',
    ]) {
      const r = await h.post(path, { id: 1 }, demo);
      expect(r.status, path).toBe(400);
    }
    const m = multipart({ customerId: '' }, { name: 'a.xlsx', data: await filled([good()]) });
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/item/import/upload',
      headers: { 'content-type': m.contentType, authorization: `Bearer ${demo}` },
      payload: m.payload,
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('thousands of items', () => {
  it('5,000 rows: previewed and committed whole, in chunks, the event loop kept responsive', async () => {
    const { monitorEventLoopDelay } = await import('node:perf_hooks');
    const rows = Array.from({ length: 5000 }, (_, i) => good({ Group: 'bulk', 'Chinese name': `批量商品${i}` }));
    const data = await filled(rows);
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    let t = performance.now();
    const up = await upload(demo, { name: 'bulk.xlsx', data });
    const previewMs = performance.now() - t;
    const previewStall = loop.max / 1e6;
    loop.reset();
    expect(up.status).toBe(200);
    expect(up.data).toMatchObject({ totalRows: 5000, validRows: 5000, invalidRows: 0, hasErrorWorkbook: false });
    t = performance.now();
    expect((await aes(h, 'item/import/confirm', { id: up.data.id }, demo)).status).toBe(200);
    const done = await waitDone(demo, up.data.id);
    const commitMs = performance.now() - t;
    loop.disable();
    expect(done).toMatchObject({ status: 'done', createdItems: 5000 });
    const commitStall = loop.max / 1e6;
    const list = await aes(h, 'items', { group: 'bulk', limit: 1 }, demo);
    expect(list.data.total).toBe(5000);
    const events = await h.db
      .selectFrom('item_events as e')
      .innerJoin('items as i', 'i.id', 'e.item_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('i.group_name', '=', 'bulk')
      .where('e.kind', '=', 'created')
      .executeTakeFirstOrThrow();
    expect(Number(events.n)).toBe(5000);
    console.log(
      `item import of 5000 rows: preview ${Math.round(previewMs)} ms, commit ${Math.round(commitMs)} ms, ` +
        `longest event-loop stall: preview ${Math.round(previewStall)} ms, commit ${Math.round(commitStall)} ms`,
    );
  }, 120_000);
});

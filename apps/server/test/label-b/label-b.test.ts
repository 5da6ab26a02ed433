import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveDivision } from '../../src/domain/order-input.ts';
import { transition } from '../../src/domain/order-life.ts';
import { createHarness, type Harness, multipart } from '../harness.ts';
import { plain, plainBlob } from '../plain-client.ts';
import { createOrder, jpOrderBody } from '../support/orders.ts';
import { pdfText } from '../support/pdf-read.ts';

/**
 * Address-modification batches (issue 15, label B): the dry run's refusals by order state and
 * tenant, the all-or-nothing apply through order-life, an interception racing the apply, the
 * tracking events, the "B" on a reprinted label, and the tenant matrix over all seven calls.
 */
let h: Harness;
let demo: string;
let demo2: string;
let agent: string;
let operator: string;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'label-b-'));

beforeAll(async () => {
  h = await createHarness();
  [demo, demo2, agent, operator] = await Promise.all(['demo', 'demo2', 'agent', 'operator'].map((n) => h.login(n)));
});

const newOrder = (token = demo) =>
  createOrder(
    h.post,
    token,
    jpOrderBody('LB', {
      sender: { name: '山田商事', address: '東京都千代田区丸の内1-1-1', phone: '03-1234-5678' },
      items: [{ jan: '4901234567894', name: '明治 奶粉', quantity: 2, unitPrice: '1500' }],
    }),
  );

async function move(t: Parameters<typeof transition>[1], ids: number[]) {
  const r = await h.db
    .transaction()
    .execute((trx) => transition(trx, t, ids, { at: new Date().toISOString(), by: null }));
  expect([...r.done].sort()).toEqual([...ids].sort());
}

const NEW = ['李四', '13900001111', '广东省', '深圳市', '南山区', '科技园路1号'];
const row = (orderNo: string, addr = NEW) => [orderNo, ...addr];

async function xlsx(rows: (string | number)[][]) {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('S');
  ws.addRow(['订单号', '收件人', '电话', '省', '市', '区', '详细地址']);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function prompt(token: string, rows: (string | number)[][], fields: Record<string, unknown> = {}) {
  const form = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)]));
  const m = multipart(form, { name: 'addresses.xlsx', data: await xlsx(rows) });
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/updateLableB/prompt',
    headers: { 'content-type': m.contentType, authorization: `Bearer ${token}`, 'accept-language': 'en' },
    payload: m.payload,
  });
  const body = res.json();
  return { status: res.statusCode, data: body.data };
}

const blob = (path: string, body: unknown, token: string) => plainBlob(h, path, body, token, 'en');

/** Confirms a draft and follows the job to its end. */
async function confirm(id: number, token = demo) {
  const c = await plain(h, 'updateLableB/create', { id }, token);
  expect(c.status).toBe(200);
  expect(c.data.status).toBe('applying');
  for (let i = 0; i < 200; i++) {
    const p = await plain(h, 'updateLableB/progress', { id }, token);
    if (p.data.status !== 'applying') return p.data;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('job did not finish');
}

const recipient = (id: number) =>
  h.db
    .selectFrom('orders')
    .select([
      'recipient_name',
      'recipient_phone',
      'recipient_province',
      'recipient_city',
      'recipient_district',
      'recipient_address',
      'label_b',
      'intercepted',
    ])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
const events = async (id: number, kind: string) =>
  h.db
    .selectFrom('tracking_events')
    .select(['kind', 'note'])
    .where('order_id', '=', id)
    .where('kind', '=', kind)
    .execute();

describe('dry run', () => {
  it('answers every row with old and new address and refuses by status, interception, tenant and division', async () => {
    const [ok, printed, received, shipped, released, intercepted, cancelled] = await Promise.all(
      Array.from({ length: 7 }, () => newOrder()),
    );
    const theirs = await newOrder(demo2);
    await move('print', [printed!.id, received!.id, shipped!.id, released!.id]);
    await move('receive', [received!.id, shipped!.id, released!.id]);
    await move('ship', [shipped!.id, released!.id]);
    await move('release', [released!.id]);
    await move('intercept', [intercepted!.id]);
    await move('cancel', [cancelled!.id]);
    const before = await recipient(ok!.id);

    const r = await prompt(demo, [
      row(ok!.orderNo),
      row(printed!.orderNo),
      row(received!.orderNo),
      row(shipped!.orderNo),
      row(released!.orderNo),
      row(intercepted!.orderNo),
      row(cancelled!.orderNo),
      row(theirs.orderNo),
      row(ok!.orderNo),
      row(printed!.orderNo.replace('LB', 'XX')),
      [ok!.orderNo.slice(0, -1) + 'Z', '李四', '13900001111', '火星省', '深圳市', '南山区', 'x'],
    ]);
    expect(r.status).toBe(200);
    const rows = r.data.rows as any[];
    expect(rows.map((x) => x.outcome)).toEqual([
      'ok',
      'ok',
      'ok',
      'refused',
      'refused',
      'refused',
      'refused',
      'refused',
      'refused',
      'refused',
      'refused',
    ]);
    expect(rows[0].oldAddress).toMatchObject({ name: '王小明', province: '浙江省', address: '文三路100号' });
    expect(rows[0].newAddress).toMatchObject({ name: '李四', province: '广东省', city: '深圳市', district: '南山区' });
    expect(rows[0].divisionCode).toBe('440305');
    expect(rows[0].warning).toBeNull();
    expect(rows[1].warning).toMatch(/already printed: a replacement label B/);
    expect(rows[2].warning).toMatch(/label B/);
    expect(rows[3].reason).toMatch(/already shipped/);
    expect(rows[4].reason).toMatch(/already released/);
    expect(rows[5].reason).toMatch(/intercepted/);
    expect(rows[6].reason).toMatch(/cancelled/);
    // Another customer's order is not found: the dry run tells nothing of it.
    expect(rows[7].reason).toBe(`Order ${theirs.orderNo} not found.`);
    expect(rows[7].oldAddress).toBeNull();
    expect(rows[8].reason).toMatch(/earlier row/);
    expect(rows[9].reason).toMatch(/not found/);
    expect(r.data.batch).toMatchObject({ status: 'draft', rowCount: 11, refusedCount: 8 });
    // Nothing changed on the orders.
    expect(await recipient(ok!.id)).toEqual(before);
    expect(await events(ok!.id, 'addressChanged')).toHaveLength(0);
  });

  it('refuses an unknown division, a bad phone and an empty field with the field named', async () => {
    const o = await newOrder();
    const r = await prompt(demo, [
      [o.orderNo, '李四', '13900001111', '火星省', '深圳市', '南山区', 'x'],
      [o.orderNo + 'A', '李四', 'abc', '广东省', '深圳市', '南山区', 'x'],
    ]);
    expect(r.status).toBe(200);
    expect(r.data.rows[0]).toMatchObject({
      outcome: 'refused',
      reasonField: 'province',
      reason: 'Unknown province: 火星省',
    });
    expect(r.data.rows[1]).toMatchObject({ outcome: 'refused' });
    const bad = await prompt(demo, []);
    expect(bad.status).toBe(422);
    expect(bad.data.file).toBeDefined();
  });
});

describe('apply', () => {
  it('changes every accepted row, writes one tracking event each and marks printed orders label B', async () => {
    const [fresh, printed] = [await newOrder(), await newOrder()];
    await move('print', [printed.id]);
    const theirs = await newOrder(demo2);
    const p = await prompt(demo, [row(fresh.orderNo), row(printed.orderNo), row(theirs.orderNo)]);
    const done = await confirm(p.data.batch.id);
    expect(done).toMatchObject({ status: 'done', progress: 100, changedCount: 2, labelBCount: 1, error: null });
    expect(await recipient(fresh.id)).toMatchObject({
      recipient_name: '李四',
      recipient_phone: '13900001111',
      recipient_province: '广东省',
      recipient_city: '深圳市',
      recipient_district: '南山区',
      recipient_address: '科技园路1号',
      label_b: 0,
    });
    expect((await recipient(printed.id)).label_b).toBe(1);
    // The label B is billed once, to the printed order only (the seeded JP card's relabel fee).
    const relabel = await h.db
      .selectFrom('charges')
      .select(['order_id', 'amount_minor', 'currency'])
      .where('kind', '=', 'relabel')
      .where('order_id', 'in', [fresh.id, printed.id])
      .execute();
    expect(relabel).toEqual([{ order_id: printed.id, amount_minor: 300, currency: 'JPY' }]);
    expect(await events(fresh.id, 'addressChanged')).toEqual([{ kind: 'addressChanged', note: p.data.batch.batchNo }]);
    expect(await events(printed.id, 'addressChanged')).toHaveLength(1);
    // demo2's order is untouched.
    expect((await recipient(theirs.id)).recipient_name).toBe('王小明');
    const info = await plain(h, 'updateLableB/info', { id: p.data.batch.id }, demo);
    expect(info.data.rows.map((x: any) => [x.outcome, x.labelB])).toEqual([
      ['changed', false],
      ['changed', true],
      ['refused', false],
    ]);
    // A second confirm changes nothing.
    expect((await plain(h, 'updateLableB/create', { id: p.data.batch.id }, demo)).status).toBe(409);
    expect(await events(fresh.id, 'addressChanged')).toHaveLength(1);
  });

  it('is all or nothing: one order shipped between dry run and confirm leaves every order as it was', async () => {
    const [a, b, c] = [await newOrder(), await newOrder(), await newOrder()];
    await move('print', [b.id]);
    const p = await prompt(demo, [row(a.orderNo), row(b.orderNo), row(c.orderNo)]);
    expect(p.data.batch.refusedCount).toBe(0);
    await move('receive', [c.id]);
    await move('ship', [c.id]);
    const before = await Promise.all([a, b, c].map((o) => recipient(o.id)));
    const done = await confirm(p.data.batch.id);
    expect(done.status).toBe('failed');
    expect(done.error).toBe(`Nothing was changed: Order ${c.orderNo} is already shipped.`);
    expect(done.changedCount).toBe(0);
    expect(await Promise.all([a, b, c].map((o) => recipient(o.id)))).toEqual(before);
    for (const o of [a, b, c]) expect(await events(o.id, 'addressChanged')).toHaveLength(0);
    const info = await plain(h, 'updateLableB/info', { id: p.data.batch.id }, demo);
    expect(info.data.rows.every((x: any) => x.outcome === 'ok')).toBe(true);
  });

  it('an interception in parallel with the apply ends consistent: either all changed then intercepted, or nothing changed', async () => {
    for (let round = 0; round < 3; round++) {
      const [a, b] = [await newOrder(), await newOrder()];
      const p = await prompt(demo, [row(a.orderNo), row(b.orderNo)]);
      const [, icpt] = await Promise.all([
        plain(h, 'updateLableB/create', { id: p.data.batch.id }, demo),
        h.post('order/create/interception', { noType: 'orderNo', numbers: [b.orderNo], reason: 'hold' }, demo),
      ]);
      expect(icpt.status).toBe(200);
      let batch: any;
      for (let i = 0; i < 200; i++) {
        batch = (await plain(h, 'updateLableB/progress', { id: p.data.batch.id }, demo)).data;
        if (batch.status !== 'applying') break;
        await new Promise((r) => setTimeout(r, 20));
      }
      const [ra, rb] = [await recipient(a.id), await recipient(b.id)];
      expect(rb.intercepted).toBe(1);
      if (batch.status === 'done') {
        expect([ra.recipient_name, rb.recipient_name]).toEqual(['李四', '李四']);
        expect(await events(b.id, 'addressChanged')).toHaveLength(1);
      } else {
        expect(batch.status).toBe('failed');
        expect(batch.error).toMatch(/intercepted/);
        expect([ra.recipient_name, rb.recipient_name]).toEqual(['王小明', '王小明']);
        expect(await events(a.id, 'addressChanged')).toHaveLength(0);
      }
    }
  });

  it('a reprinted label of a changed printed order carries the B mark and the new address', async () => {
    const o = await newOrder();
    await move('print', [o.id]);
    const p = await prompt(demo, [row(o.orderNo)]);
    expect((await confirm(p.data.batch.id)).labelBCount).toBe(1);
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/order/download/labelA',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${demo}`, 'accept-language': 'en' },
      payload: JSON.stringify({ ids: [o.id] }),
    });
    expect(res.statusCode).toBe(200);
    const file = path.join(dir, 'b.pdf');
    fs.writeFileSync(file, res.rawPayload);
    const text = pdfText(file, 1).replace(/\s+/g, '');
    expect(text).toContain('B');
    expect(text).toContain('科技园路1号');
    expect(text).toContain('李四');
    // A label of an order never changed has no B box: compare with a fresh order's label.
    const plain = await newOrder();
    const res2 = await h.app.inject({
      method: 'POST',
      url: '/api/order/download/labelA',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${demo}`, 'accept-language': 'en' },
      payload: JSON.stringify({ ids: [plain.id] }),
    });
    const file2 = path.join(dir, 'plain.pdf');
    fs.writeFileSync(file2, res2.rawPayload);
    // Numbers may hold a B themselves (base 36): count the B's of everything else.
    const countB = (t: string, x: { orderNo: string; waybillNo: string }) =>
      (t.replaceAll(x.orderNo, '').replaceAll(x.waybillNo, '').match(/B/g) ?? []).length;
    expect(countB(text, o)).toBe(countB(pdfText(file2, 1).replace(/\s+/g, ''), plain) + 1);
  });
});

describe('list, export, template and the tenant matrix', () => {
  it('serves every call to its owner, its agent and operators only', async () => {
    const o = await newOrder();
    const p = await prompt(demo, [row(o.orderNo)]);
    const id = p.data.batch.id;

    const mine = await plain(h, 'updateLableB/list', { batchNo: p.data.batch.batchNo }, demo);
    expect(mine.data).toMatchObject({ total: 1, list: [{ id, status: 'draft', rowCount: 1 }] });
    expect((await plain(h, 'updateLableB/list', { batchNo: p.data.batch.batchNo }, demo2)).data.total).toBe(0);
    expect((await plain(h, 'updateLableB/list', { batchNo: p.data.batch.batchNo }, agent)).data.total).toBe(1);
    expect((await plain(h, 'updateLableB/list', { batchNo: p.data.batch.batchNo }, operator)).data.total).toBe(1);

    for (const call of ['updateLableB/info', 'updateLableB/progress']) {
      expect((await plain(h, call, { id }, demo2)).status).toBe(404);
      expect((await plain(h, call, { id }, agent)).status).toBe(200);
      expect((await plain(h, call, { id }, operator)).status).toBe(200);
    }
    expect((await blob('updateLableB/export', { id }, demo2)).status).toBe(404);
    const exp = await blob('updateLableB/export', { id }, demo);
    expect(exp.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(exp.bytes as never);
    const ws = wb.worksheets[0]!;
    expect(ws.getRow(2).getCell(1).text).toBe(o.orderNo);
    expect(ws.getRow(2).getCell(9).text).toBe('To change');

    const tpl = await blob('updateLableB/downloadXlsx', {}, demo2);
    expect(tpl.status).toBe(200);
    const t = new ExcelJS.Workbook();
    await t.xlsx.load(tpl.bytes as never);
    expect(t.worksheets[0]!.getRow(1).getCell(1).text).toBe('Order No.');

    // demo2 cannot confirm demo's batch; an operator's dry run must name the customer.
    expect((await plain(h, 'updateLableB/create', { id }, demo2)).status).toBe(404);
    expect((await prompt(operator, [row(o.orderNo)])).status).toBe(422);
    // A customer naming another customer is refused.
    const other = await h.db
      .selectFrom('users')
      .select('customer_id')
      .where('name', '=', 'demo2')
      .executeTakeFirstOrThrow();
    expect((await prompt(demo, [row(o.orderNo)], { customerId: other.customer_id })).status).toBe(422);
    // demo2 prompting demo's order number: not found.
    const d2 = await prompt(demo2, [row(o.orderNo)]);
    expect(d2.data.rows[0].reason).toBe(`Order ${o.orderNo} not found.`);
    // The agent can act for demo.
    const demoCustomer = await h.db
      .selectFrom('users')
      .select('customer_id')
      .where('name', '=', 'demo')
      .executeTakeFirstOrThrow();
    expect((await prompt(agent, [row(o.orderNo)], { customerId: demoCustomer.customer_id })).data.rows[0].outcome).toBe(
      'ok',
    );
    expect((await plain(h, 'updateLableB/create', { id }, demo)).status).toBe(200);
  });

  it('refuses calls without a session and for a user without the permission', async () => {
    for (const p of [
      'updateLableB/list',
      'updateLableB/progress',
      'updateLableB/info',
      'updateLableB/downloadXlsx',
      'updateLableB/export',
      'updateLableB/create',
      'updateLableB/prompt',
    ]) {
      const r = await h.post(p, {});
      expect(r.status).toBe(401);
    }
  });
});

describe('demo seed', () => {
  it('leaves one draft batch per demo customer, each seen by its owner only, with a resolvable new address', async () => {
    const mine = await plain(h, 'updateLableB/list', { batchNo: 'DEMO' }, demo);
    expect(mine.data.total).toBe(1);
    const theirs = await plain(h, 'updateLableB/list', { batchNo: 'DEMO' }, demo2);
    expect(theirs.data.total).toBe(1);
    expect(theirs.data.list[0].id).not.toBe(mine.data.list[0].id);
    const info = await plain(h, 'updateLableB/info', { id: mine.data.list[0].id }, demo);
    expect(info.data.rows.map((r: any) => r.outcome)).toEqual(['ok', 'ok', 'refused', 'refused']);
    expect(resolveDivision('上海市', '上海市', '浦东新区')).toMatchObject({ ok: true, code: '310115' });
    expect((await plain(h, 'updateLableB/info', { id: mine.data.list[0].id }, demo2)).status).toBe(404);
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { LAYOUT } from '../src/modules/labels/labels.render.ts';
import { createHarness, type Harness } from './harness.ts';
import { decodeBox, pdfPages, pdfText, renderPage } from './support/pdf-read.ts';
import { createOrder, jpOrderBody, validRecipient } from './support/orders.ts';

/**
 * Label calls (issue 14): `order/download/labelA` prints through the order life (created →
 * printed, count + 1, an event with who and which printer), refuses whole with each order's
 * reason, and reads nothing of another tenant; `order/download/labelProduct` counts nothing.
 */
let h: Harness;
let demo: string;
let demo2: string;
let agent: string;
let operator: string;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'label-api-'));

beforeAll(async () => {
  h = await createHarness();
  [demo, demo2, agent, operator] = await Promise.all(['demo', 'demo2', 'agent', 'operator'].map((n) => h.login(n)));
});

let n = 0;
const newOrder = (token = demo) =>
  createOrder(
    h.post,
    token,
    jpOrderBody('LBL', {
      sender: { name: '山田商事', address: '東京都千代田区丸の内1-1-1', phone: '03-1234-5678' },
      items: [{ jan: '4901234567894', name: '明治 奶粉', quantity: 2, unitPrice: '1500' }],
    }),
  );

async function download(call: string, body: unknown, token: string) {
  const res = await h.app.inject({
    method: 'POST',
    url: `/api/${call}`,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'accept-language': 'en' },
    payload: JSON.stringify(body),
  });
  const file = path.join(dir, `${n++}.pdf`);
  if (res.statusCode === 200) fs.writeFileSync(file, res.rawPayload);
  return { status: res.statusCode, file, headers: res.headers, json: res.statusCode === 200 ? null : res.json() };
}

const state = (id: number) =>
  h.db
    .selectFrom('orders')
    .select(['status', 'print_count', 'print_flag'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
const events = (id: number) =>
  h.db
    .selectFrom('tracking_events')
    .select(['kind', 'location', 'note', 'created_by'])
    .where('order_id', '=', id)
    .where('kind', '=', 'printed')
    .execute();

describe('label A', () => {
  it('prints selected orders into one PDF whose barcodes read back; each counted once per print', async () => {
    const a = await newOrder();
    const b = await newOrder();
    const r = await download('order/download/labelA', { ids: [a.id, b.id], printer: 'Zebra ZD421' }, demo);
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(String(r.headers['content-type'])).toContain('application/pdf');
    expect(pdfPages(r.file)).toBe(2);
    expect(decodeBox(renderPage(r.file, 1), LAYOUT.waybillBarcode)?.text).toBe(a.waybillNo);
    expect(decodeBox(renderPage(r.file, 2), LAYOUT.waybillBarcode)?.text).toBe(b.waybillNo);
    const text = pdfText(r.file, 1).replace(/\s+/g, '');
    expect(text).toContain(validRecipient.name);
    expect(text).toContain('東京都千代田区丸の内1-1-1');
    // The phone is masked as the lists mask it.
    expect(text).not.toContain(validRecipient.phone);

    expect(await state(a.id)).toEqual({ status: 'printed', print_count: 1, print_flag: 1 });
    const demoId = (await h.db.selectFrom('users').select('id').where('name', '=', 'demo').executeTakeFirstOrThrow())
      .id;
    // No note: which template drew the label is ours, and the event reaches the customer (console,
    // v1 tracking, webhooks); the printer is its location. As the demo seed's printed events.
    expect(await events(a.id)).toEqual([{ kind: 'printed', location: 'Zebra ZD421', note: null, created_by: demoId }]);
    // A reprint counts again and stays printed.
    expect((await download('order/download/labelA', { ids: [a.id] }, demo)).status).toBe(200);
    expect(await state(a.id)).toMatchObject({ status: 'printed', print_count: 2 });
    expect(await events(a.id)).toHaveLength(2);
  });

  it('refuses the whole PDF with each order and why, counting nothing, when one cannot print', async () => {
    const ok = await newOrder();
    const held = await newOrder();
    await h.db.updateTable('orders').set({ intercepted: 1 }).where('id', '=', held.id).execute();
    const r = await download('order/download/labelA', { ids: [ok.id, held.id] }, demo);
    expect(r.status).toBe(409);
    expect(r.json.message).toContain('1 of the orders cannot be printed');
    expect(r.json.data.refused).toEqual([
      { orderNo: held.orderNo, reason: `Order ${held.orderNo} is intercepted: cancel the interception first.` },
    ]);
    expect(await state(ok.id)).toMatchObject({ status: 'created', print_count: 0 });
    // An error order is refused too.
    const bad = await newOrder();
    await h.db
      .updateTable('orders')
      .set({ error_at: new Date().toISOString(), error_reason: 'E01' })
      .where('id', '=', bad.id)
      .execute();
    const e = await download('order/download/labelA', { ids: [bad.id] }, demo);
    expect(e.status).toBe(409);
    expect(e.json.data.refused[0].reason).toContain('error order');
  });

  it("another tenant's orders read as not found and change nothing; an agent prints its customers', an operator any", async () => {
    const mine = await newOrder();
    const theirs = await download('order/download/labelA', { ids: [mine.id] }, demo2);
    expect(theirs.status).toBe(404);
    expect(await state(mine.id)).toMatchObject({ status: 'created', print_count: 0 });
    // Mixed with one of demo2's own: the missing one is named, nothing printed.
    const own2 = await newOrder(demo2);
    const mixed = await download('order/download/labelA', { ids: [own2.id, mine.id] }, demo2);
    expect(mixed.status).toBe(409);
    expect(await state(own2.id)).toMatchObject({ print_count: 0 });
    expect((await download('order/download/labelA', { ids: [mine.id] }, agent)).status).toBe(200);
    expect((await download('order/download/labelA', { ids: [mine.id, own2.id] }, operator)).status).toBe(200);
    expect(await state(mine.id)).toMatchObject({ print_count: 2 });
    expect(await state(own2.id)).toMatchObject({ print_count: 1 });
  });

  it('reports its progress under the progressId, to its user only', async () => {
    const orders = await Promise.all([newOrder(), newOrder(), newOrder()]);
    const id = 'labels-progress-1';
    const r = await download('order/download/labelA', { ids: orders.map((o) => o.id), progressId: id }, demo);
    expect(r.status).toBe(200);
    expect((await h.post('export/progress', { id }, demo)).body.data).toEqual({ phase: 'done', rows: 3, total: 3 });
    expect((await h.post('export/progress', { id }, demo2)).body.data.phase).toBe('unknown');
  });
});

describe('product label', () => {
  it('lists the items with their JAN barcodes and counts no print', async () => {
    const o = await newOrder();
    const r = await download('order/download/labelProduct', { ids: [o.id] }, demo);
    expect(r.status).toBe(200);
    const p = LAYOUT.product;
    expect(
      decodeBox(renderPage(r.file, 1), { x: 4, y: p.top, width: p.barcodeWidth, height: p.barcodeHeight }),
    ).toEqual({
      format: 'EAN_13',
      text: '4901234567894',
    });
    expect(pdfText(r.file).replace(/\s+/g, '')).toContain('明治奶粉');
    expect(await state(o.id)).toMatchObject({ status: 'created', print_count: 0 });
    expect((await download('order/download/labelProduct', { ids: [o.id] }, demo2)).status).toBe(404);
  });
});

describe('print job', () => {
  async function result(jobId: number, token = demo) {
    return h.post('order/printLabelAResult', { jobId }, token, { 'accept-language': 'en' });
  }
  async function finished(jobId: number) {
    for (let i = 0; i < 200; i++) {
      const r = await result(jobId);
      if (r.body.data.status !== 'running') return r.body.data;
      await new Promise((res) => setTimeout(res, 50));
    }
    throw new Error('job did not finish');
  }

  it('prints what can be printed, lists the rest with their reason, and leaves one PDF to download', async () => {
    const ok = await Promise.all([newOrder(), newOrder(), newOrder()]);
    const held = await newOrder();
    await h.db.updateTable('orders').set({ intercepted: 1 }).where('id', '=', held.id).execute();
    const foreign = await newOrder(demo2);
    const start = await h.post(
      'order/printLabelA',
      { ids: [...ok.map((o) => o.id), held.id, foreign.id], printer: 'Office' },
      demo,
      { 'accept-language': 'en' },
    );
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const job = await finished(start.body.data.jobId);
    expect(job).toMatchObject({ status: 'done', total: 5, printed: 3, drawn: 3, error: null });
    expect(job.refused).toEqual([
      { orderNo: null, reason: 'Order not found.' },
      { orderNo: held.orderNo, reason: `Order ${held.orderNo} is intercepted: cancel the interception first.` },
    ]);
    for (const o of ok) expect(await state(o.id)).toMatchObject({ status: 'printed', print_count: 1 });
    for (const o of ok)
      expect(await events(o.id)).toEqual([expect.objectContaining({ location: 'Office', note: null })]);
    expect(await state(held.id)).toMatchObject({ print_count: 0 });
    expect(await state(foreign.id)).toMatchObject({ print_count: 0 });

    const pdf = await download('file/downloadSteam', { id: job.fileId }, demo);
    expect(pdf.status).toBe(200);
    expect(pdfPages(pdf.file)).toBe(3);
    for (let p = 1; p <= 3; p++)
      expect(decodeBox(renderPage(pdf.file, p), LAYOUT.waybillBarcode)?.text).toBe(ok[p - 1]!.waybillNo);
    // The job and its PDF are its starter's only.
    expect((await result(start.body.data.jobId, demo2)).status).toBe(404);
    expect((await download('file/downloadSteam', { id: job.fileId }, demo2)).status).toBe(404);
  });

  it('a job of nothing printable ends done with every order refused and no file', async () => {
    const theirs = await newOrder(demo2);
    const start = await h.post('order/printLabelA', { ids: [theirs.id] }, demo);
    const job = await finished(start.body.data.jobId);
    expect(job).toMatchObject({ status: 'done', printed: 0, fileId: null, refused: [{ orderNo: null }] });
    expect(await state(theirs.id)).toMatchObject({ print_count: 0 });
  });
});

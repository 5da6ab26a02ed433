import type { AddressInfo } from 'node:net';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, multipart } from './harness.ts';
import { idCardCheckChar } from '@console/contract';
import { createOrder, jpOrderBody, validRecipient } from './support/orders.ts';

/**
 * Issue 11 #15: batch sender and updates — preview (old and new value per field, refusals by
 * status), then one all-or-nothing apply; tenancy through the caller's scope; a preview applied
 * twice at once changes the orders once. On SQLite and on PostgreSQL (TEST_DATABASE_URL).
 */
let h: Harness;
let demo: string;
let demo2: string;
let agent: string;
let operator: string;
let base: string;

beforeAll(async () => {
  h = await createHarness();
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}/api/`;
  [demo, demo2, agent, operator] = await Promise.all(['demo', 'demo2', 'agent', 'operator'].map((n) => h.login(n)));
});

/** A new order of the token's customer, through the API. */
const newOrder = (token: string, extra: Record<string, unknown> = {}) =>
  createOrder(
    h.post,
    token,
    jpOrderBody('CHG', { sender: { name: 'Old Sender', address: 'Osaka', phone: '06-1111-2222' }, ...extra }),
  );
const row = (id: number) => h.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const events = (id: number) =>
  h.db.selectFrom('tracking_events').select('kind').where('order_id', '=', id).where('kind', '=', 'updated').execute();
const NEW_SENDER = { name: 'New Sender KK', address: 'Tokyo Minato 1-2-3', phone: '03-9999-0000' };

async function upload(path: string, token: string, rows: (string | null)[][], lang = 'en') {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('s');
  for (const r of rows) ws.addRow(r);
  const data = Buffer.from(await wb.xlsx.writeBuffer());
  const m = multipart({}, { name: 'sheet.xlsx', data });
  const res = await h.app.inject({
    method: 'POST',
    url: `/api/${path}`,
    headers: { 'content-type': m.contentType, authorization: `Bearer ${token}`, 'accept-language': lang },
    payload: m.payload,
  });
  return { status: res.statusCode, body: res.json() };
}
async function blob(path: string, body: unknown, token: string) {
  const r = await h.app.inject({
    method: 'POST',
    url: `/api/${path}`,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  if (r.statusCode !== 200) return { status: r.statusCode, ws: null };
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(r.rawPayload as unknown as ArrayBuffer);
  return { status: 200, ws: wb.worksheets[0]! };
}
const values = (ws: ExcelJS.Worksheet, r: number) =>
  (ws.getRow(r).values as unknown[]).slice(1).map((v) => (v === null || v === undefined ? '' : String(v)));

describe('batch sender from a saved sender (pasted order numbers)', () => {
  it('previews old and new sender per order, refuses a received one, and applies all the others', async () => {
    const [a, b, received] = [await newOrder(demo), await newOrder(demo), await newOrder(demo)];
    expect((await h.post('order/orderScan', { code: received.waybillNo }, operator)).body.data.outcome).toBe(
      'received',
    );
    const p = await h.post(
      'order/batchSender/preview',
      { orderNos: `${a.orderNo}\n${b.orderNo}\n${received.orderNo}`, sender: NEW_SENDER },
      demo,
      { 'accept-language': 'en' },
    );
    expect(p.status).toBe(200);
    const d = p.body.data;
    expect(d).toMatchObject({ changing: 2, refused: 1, unchanged: 0 });
    expect(d.rows).toHaveLength(3);
    const ra = d.rows.find((r: any) => r.orderNo === a.orderNo);
    expect(ra.refusal).toBeNull();
    expect(ra.changes).toEqual([
      { field: 'senderName', old: 'Old Sender', new: NEW_SENDER.name },
      { field: 'senderAddress', old: 'Osaka', new: NEW_SENDER.address },
      { field: 'senderPhone', old: '06-1111-2222', new: NEW_SENDER.phone },
    ]);
    const rr = d.rows.find((r: any) => r.orderNo === received.orderNo);
    expect(rr.status).toBe('received');
    expect(rr.refusal).toMatch(/received at the warehouse/);

    // Nothing changes before the apply.
    expect((await row(a.id)).sender_name).toBe('Old Sender');
    const ap = await h.post('order/batchSender/apply', { previewId: d.previewId }, demo);
    expect(ap.status).toBe(200);
    expect(ap.body.data).toEqual({ updated: 2 });
    for (const o of [a, b]) {
      const r = await row(o.id);
      expect([r.sender_name, r.sender_address, r.sender_phone]).toEqual([
        NEW_SENDER.name,
        NEW_SENDER.address,
        NEW_SENDER.phone,
      ]);
      expect(await events(o.id)).toHaveLength(1);
    }
    expect((await row(received.id)).sender_name).toBe('Old Sender');
    // A preview is applied once.
    expect((await h.post('order/batchSender/apply', { previewId: d.previewId }, demo)).status).toBe(404);
  });

  it('a customer cannot reach another customer’s orders; an agent can reach its customers’', async () => {
    const mine = await newOrder(demo);
    const theirs = await newOrder(demo2);
    const p = await h.post(
      'order/batchSender/preview',
      { orderNos: [mine.orderNo, theirs.orderNo], sender: NEW_SENDER },
      demo,
      { 'accept-language': 'en' },
    );
    const rows = p.body.data.rows as any[];
    expect(rows.find((r) => r.orderNo === theirs.orderNo)).toMatchObject({
      orderId: null,
      refusal: expect.any(String),
    });
    expect(rows.find((r) => r.orderNo === theirs.orderNo).refusal).toMatch(/No order/);
    expect(p.body.data.changing).toBe(1);
    // Another user cannot apply demo's preview, even one that may see the same orders.
    expect((await h.post('order/batchSender/apply', { previewId: p.body.data.previewId }, agent)).status).toBe(404);
    expect((await h.post('order/batchSender/apply', { previewId: p.body.data.previewId }, operator)).status).toBe(404);
    expect((await row(theirs.id)).sender_name).toBe('Old Sender');

    const byAgent = await h.post(
      'order/batchSender/preview',
      { orderNos: [mine.orderNo, theirs.orderNo], sender: NEW_SENDER },
      agent,
    );
    expect(byAgent.body.data.changing).toBe(2);
    expect((await h.post('order/batchSender/apply', { previewId: byAgent.body.data.previewId }, agent)).status).toBe(
      200,
    );
    expect((await row(theirs.id)).sender_name).toBe(NEW_SENDER.name);
  });

  it('all or nothing: an order received after the preview stops the whole apply', async () => {
    const [a, b] = [await newOrder(demo), await newOrder(demo)];
    const p = await h.post('order/batchSender/preview', { orderNos: [a.orderNo, b.orderNo], sender: NEW_SENDER }, demo);
    expect(p.body.data.changing).toBe(2);
    await h.post('order/orderScan', { code: b.waybillNo }, operator);
    const ap = await h.post('order/batchSender/apply', { previewId: p.body.data.previewId }, demo, {
      'accept-language': 'en',
    });
    expect(ap.status).toBe(409);
    expect(ap.body.message).toContain(b.orderNo);
    expect((await row(a.id)).sender_name).toBe('Old Sender');
    expect(await events(a.id)).toHaveLength(0);
  });

  it('two applies of one preview sent together: one changes the orders, the other is refused', async () => {
    for (let i = 0; i < 5; i++) {
      const [a, b] = [await newOrder(demo), await newOrder(demo)];
      const p = await h.post(
        'order/batchSender/preview',
        { orderNos: [a.orderNo, b.orderNo], sender: NEW_SENDER },
        demo,
      );
      const send = () =>
        fetch(`${base}order/batchSender/apply`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${demo}` },
          body: JSON.stringify({ previewId: p.body.data.previewId }),
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
      const results = await Promise.all([send(), send()]);
      const statuses = results.map((r) => r.status).sort();
      expect(statuses[0]).toBe(200);
      expect([404, 409]).toContain(statuses[1]);
      expect(results.find((r) => r.status === 200)!.body.data.updated).toBe(2);
      for (const o of [a, b]) expect(await events(o.id)).toHaveLength(1);
    }
  });

  it('422 for a sender the contract refuses', async () => {
    const a = await newOrder(demo);
    const r = await h.post(
      'order/batchSender/preview',
      { orderNos: [a.orderNo], sender: { name: 'x'.repeat(101) } },
      demo,
    );
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.data)).toContain('sender.name');
  });
});

describe('batch sender and updates from a sheet', () => {
  it('the batch-sender template has the order number and sender headers', async () => {
    const t = await blob('order/batchSender/template', {}, demo);
    expect(t.status).toBe(200);
    expect(values(t.ws!, 1)).toEqual(['Order number', 'Sender name', 'Sender address', 'Sender phone']);
  });

  it('a sender per order from the sheet; refused rows come back as a workbook; blank cells keep the value', async () => {
    const [a, b, shipped] = [await newOrder(demo), await newOrder(demo), await newOrder(demo)];
    await h.db.updateTable('orders').set({ status: 'shipped' }).where('id', '=', shipped.id).execute();
    const res = await upload('order/batchSender/previewSheet', demo, [
      ['Order number', 'Sender name', 'Sender phone'],
      [a.orderNo, 'Sheet Sender A', '03-1234-0001'],
      [b.orderNo, 'Sheet Sender B', null],
      [shipped.orderNo, 'Sheet Sender C', '03-1234-0003'],
      ['NO-SUCH-ORDER', 'X', null],
    ]);
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d).toMatchObject({ changing: 2, refused: 2 });
    expect(d.rows.find((r: any) => r.orderNo === b.orderNo).changes).toEqual([
      { field: 'senderName', old: 'Old Sender', new: 'Sheet Sender B' },
    ]);
    expect(d.rows.find((r: any) => r.orderNo === shipped.orderNo).refusal).toMatch(/shipped/);
    const err = await blob('order/batchSender/errors', { fileId: d.errorFileId }, demo);
    expect(err.status).toBe(200);
    expect(values(err.ws!, 1)).toEqual(['Order number', 'Sender name', 'Sender phone', 'Why not changed', 'Row']);
    expect(values(err.ws!, 2).slice(0, 3)).toEqual([shipped.orderNo, 'Sheet Sender C', '03-1234-0003']);
    expect(values(err.ws!, 2)[3]).toMatch(/shipped/);
    expect(values(err.ws!, 2)[4]).toBe('4');
    expect(values(err.ws!, 3)[0]).toBe('NO-SUCH-ORDER');
    // The refused rows are the uploader's: not another user's.
    expect((await blob('order/batchSender/errors', { fileId: d.errorFileId }, demo2)).status).toBe(404);

    expect((await h.post('order/batchSender/apply', { previewId: d.previewId }, demo)).status).toBe(200);
    expect((await row(a.id)).sender_phone).toBe('03-1234-0001');
    expect((await row(b.id)).sender_name).toBe('Sheet Sender B');
    expect((await row(b.id)).sender_phone).toBe('06-1111-2222');
    expect((await row(shipped.id)).sender_name).toBe('Old Sender');
  });

  it('the batch sender refuses a sheet with columns other than the sender', async () => {
    const res = await upload('order/batchSender/previewSheet', demo, [
      ['订单号', '发件人', '收件人'],
      ['X1', 'a', 'b'],
    ]);
    expect(res.status).toBe(422);
    expect(res.body.data.file[0]).toContain('收件人');
  });

  it('updates: chosen fields with old and new values, rule and status refusals, all applied at once', async () => {
    const [a, b, bad, cancelled] = [
      await newOrder(demo),
      await newOrder(demo),
      await newOrder(demo),
      await newOrder(demo),
    ];
    await h.db.updateTable('orders').set({ status: 'cancelled' }).where('id', '=', cancelled.id).execute();
    const res = await upload(
      'order/updates/preview',
      demo,
      [
        ['订单号', '收件人', '备注', '邮编'],
        [a.orderNo, '李四', 'leave at the door', null],
        [b.orderNo, null, 'second', '310000'],
        [bad.orderNo, null, null, '12'],
        [cancelled.orderNo, '赵六', null, null],
      ],
      'zh-CN',
    );
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d).toMatchObject({ changing: 2, refused: 2 });
    expect(d.rows.find((r: any) => r.orderNo === a.orderNo).changes).toEqual([
      { field: 'recipientName', old: validRecipient.name, new: '李四' },
      { field: 'remark', old: null, new: 'leave at the door' },
    ]);
    expect(d.rows.find((r: any) => r.orderNo === bad.orderNo).refusal).toMatch(/邮编/);
    expect(d.rows.find((r: any) => r.orderNo === cancelled.orderNo).refusal).toMatch(/已取消/);
    expect(d.errorFileId).toEqual(expect.any(Number));
    expect((await h.post('order/updates/apply', { previewId: d.previewId }, demo)).body.data).toEqual({ updated: 2 });
    expect((await row(a.id)).recipient_name).toBe('李四');
    expect((await row(b.id)).recipient_postcode).toBe('310000');
    expect((await row(b.id)).recipient_name).toBe(validRecipient.name);
    expect((await row(bad.id)).recipient_postcode).toBeNull();
    expect((await row(cancelled.id)).recipient_name).toBe(validRecipient.name);
    // A batch-sender preview id is not an updates preview.
    const s = await h.post('order/batchSender/preview', { orderNos: [a.orderNo], sender: NEW_SENDER }, demo);
    expect((await h.post('order/updates/apply', { previewId: s.body.data.previewId }, demo)).status).toBe(404);
  });

  it('updates run the abnormal rules on a changed recipient, as single update does', async () => {
    // An ID number of its own, so the order is not already abnormal for "same recipient too often".
    const base17 = `11010519850101${String(Math.floor(Math.random() * 1e3)).padStart(3, '0')}`;
    const a = await newOrder(demo, { recipient: { ...validRecipient, idCard: base17 + idCardCheckChar(base17) } });
    expect((await row(a.id)).abnormal_at).toBeNull();
    const res = await upload('order/updates/preview', demo, [
      ['Order number', 'Recipient phone'],
      [a.orderNo, '0571-88886666'],
    ]);
    expect(res.body.data.changing).toBe(1);
    expect((await h.post('order/updates/apply', { previewId: res.body.data.previewId }, demo)).status).toBe(200);
    const r = await row(a.id);
    expect(r.recipient_phone).toBe('0571-88886666');
    expect(r.abnormal_rule).toContain('invalidPhone');
    expect(r.abnormal_at).not.toBeNull();
  });

  it('a new preview replaces the caller’s earlier one of the same page', async () => {
    const a = await newOrder(demo);
    const first = await h.post('order/batchSender/preview', { orderNos: [a.orderNo], sender: NEW_SENDER }, demo);
    const second = await h.post(
      'order/batchSender/preview',
      { orderNos: [a.orderNo], sender: { ...NEW_SENDER, name: 'Second' } },
      demo,
    );
    expect((await h.post('order/batchSender/apply', { previewId: first.body.data.previewId }, demo)).status).toBe(404);
    expect((await h.post('order/batchSender/apply', { previewId: second.body.data.previewId }, demo)).status).toBe(200);
    expect((await row(a.id)).sender_name).toBe('Second');
  });

  it('refuses a file that is not a workbook, and a sheet without an order-number column', async () => {
    const m = multipart({}, { name: 'x.xlsx', data: Buffer.from('not a workbook at all') });
    const r = await h.app.inject({
      method: 'POST',
      url: '/api/order/updates/preview',
      headers: { 'content-type': m.contentType, authorization: `Bearer ${demo}` },
      payload: m.payload,
    });
    expect(r.statusCode).toBe(422);
    const noCol = await upload('order/updates/preview', demo, [['备注'], ['x']]);
    expect(noCol.status).toBe(422);
    expect(noCol.body.data.file[0]).toMatch(/Order number/);
  });
});

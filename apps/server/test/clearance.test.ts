import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { idCardCheckChar } from '@console/contract';
import { transition } from '../src/domain/order-life.ts';
import { clearanceSignature } from '../src/modules/clearance/clearance.webhook.ts';
import { createHarness, type Harness, multipart } from './harness.ts';
import { validRecipient } from './support/orders.ts';

/**
 * Issue 13, clearance results: an operator's result sheet and a company's signed webhook
 * release or refuse shipped orders through the order's life, all or nothing; a refusal is an
 * error order the customer fixes (a shipped order: recipient identity, phone, address only),
 * which clears the flag through clearError (push_s 0) for a later release. SQLite and
 * PostgreSQL (TEST_DATABASE_URL).
 */
const SECRET_HZ = 'hz-secret-0123456789abcdef0123456789abcdef';
const SECRET_SH = 'sh-secret-0123456789abcdef0123456789abcdef';
let h: Harness;
let demo: string;
let demo2: string;
let agent: string;
let operator: string;
let opId: number;

beforeAll(async () => {
  h = await createHarness({ env: { CLEARANCE_WEBHOOK_SECRETS: `HZ-CB=${SECRET_HZ}, SH-PD=${SECRET_SH}` } });
  [demo, demo2, agent, operator] = await Promise.all(['demo', 'demo2', 'agent', 'operator'].map((n) => h.login(n)));
  opId = (await h.db.selectFrom('users').select('id').where('name', '=', 'operator').executeTakeFirstOrThrow()).id;
});

let n = 0;
/**
 * A new order of the token's customer, declared with `company`, received and shipped through
 * the order's life (the outbound calls are another lane's).
 */
async function shippedOrder(token: string, company = 'HZ-CB') {
  n += 1;
  const r = await h.post(
    'order/createImport',
    {
      channel: 'JP',
      orderNo: `CLR${Date.now().toString(36).toUpperCase()}${n}`,
      clearanceCompany: company,
      recipient: validRecipient,
      sender: { name: 'Sender', address: 'Osaka', phone: '06-1111-2222' },
      items: [{ jan: '4901234567894', name: '明治 奶粉', quantity: 1, unitPrice: '1500' }],
      confirm: ['minorId', 'crossBorderLimit', 'multiplePricesPerJan'],
    },
    token,
  );
  if (r.status !== 200) throw new Error(`create failed: ${JSON.stringify(r.body)}`);
  const o = r.body.data as { id: number; orderNo: string; waybillNo: string };
  await h.db.transaction().execute(async (trx) => {
    const at = new Date().toISOString();
    for (const t of ['receive', 'ship'] as const) {
      const m = await transition(trx, t, [o.id], { at, by: opId });
      if (m.done.length !== 1) throw new Error(`${t} refused: ${JSON.stringify(m.refused)}`);
    }
  });
  return o;
}
const row = (id: number) => h.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const kinds = async (id: number) =>
  (await h.db.selectFrom('tracking_events').select('kind').where('order_id', '=', id).orderBy('id').execute()).map(
    (e) => e.kind,
  );

const EN_HEAD = ['Waybill number', 'Result (released / refused)', 'Reason code', 'Remark'];
async function sheet(rows: (string | null)[][], head: string[] = EN_HEAD) {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('s');
  ws.addRow(head);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
async function upload(token: string, company: string, data: Buffer, lang = 'en') {
  const m = multipart({ company }, { name: 'results.xlsx', data });
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/clearance/upload',
    headers: { 'content-type': m.contentType, authorization: `Bearer ${token}`, 'accept-language': lang },
    payload: m.payload,
  });
  return { status: res.statusCode, body: res.json() };
}
async function blob(path: string, body: unknown, token: string, lang = 'en') {
  const r = await h.app.inject({
    method: 'POST',
    url: `/api/${path}`,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'accept-language': lang },
    payload: JSON.stringify(body),
  });
  if (r.statusCode !== 200) return { status: r.statusCode, rows: null };
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(r.rawPayload as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  wb.worksheets[0]!.eachRow((rw) => rows.push((rw.values as unknown[]).slice(1)));
  return { status: 200, rows, sheets: wb.worksheets.map((w) => w.name) };
}

/** A webhook call as the company makes it; `tamper` changes the body after signing. */
async function webhook(
  body: unknown,
  opts: {
    company?: string;
    secret?: string;
    at?: number;
    tamper?: (raw: string) => string;
    headers?: Record<string, string>;
    unsigned?: boolean;
  } = {},
) {
  const raw = JSON.stringify(body);
  const ts = String(opts.at ?? Math.floor(h.clock.now.getTime() / 1000));
  const sig = clearanceSignature(opts.secret ?? SECRET_HZ, ts, Buffer.from(raw));
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/clearance/webhook',
    headers: {
      'content-type': 'application/json',
      ...(opts.unsigned
        ? {}
        : {
            'x-clearance-company': opts.company ?? 'HZ-CB',
            'x-clearance-timestamp': ts,
            'x-clearance-signature': `sha256=${sig}`,
          }),
      ...opts.headers,
    },
    payload: opts.tamper ? opts.tamper(raw) : raw,
  });
  return { status: res.statusCode, body: res.json() };
}
let delivery = 0;
const deliveryId = () => `delivery-${Date.now()}-${++delivery}`;

describe('clearance result sheet', () => {
  it('the template per company: four columns and the reason codes', async () => {
    const t = await blob('clearance/template', { company: 'HZ-CB' }, operator);
    expect(t.status).toBe(200);
    expect(t.rows![0]).toEqual(['Waybill number', 'Result (released / refused)', 'Reason code', 'Remark']);
    expect(t.sheets).toHaveLength(2);
    expect((await blob('clearance/template', { company: 'NOPE' }, operator)).status).toBe(422);
    // Only operators hold the results page.
    expect((await blob('clearance/template', { company: 'HZ-CB' }, demo)).status).toBe(403);
  });

  it('released and refused rows land, through the order life, with the reason and events', async () => {
    const a = await shippedOrder(demo);
    const b = await shippedOrder(demo2);
    const r = await upload(
      operator,
      'HZ-CB',
      await sheet([
        [a.waybillNo, 'released', null, 'ok'],
        [b.waybillNo, '退单', 'c01', '姓名不符'],
      ]),
    );
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ applied: true, rows: 2, released: 1, refused: 1, errorRows: 0, errorFileId: null });
    const ra = await row(a.id);
    expect([ra.status, ra.released, ra.error_at]).toEqual(['released', 1, null]);
    const rb = await row(b.id);
    expect(rb.status).toBe('shipped');
    expect(rb.error_at).not.toBeNull();
    expect(JSON.parse(rb.error_reason!)).toEqual([{ code: 'errorReason.clearance.C01' }]);
    expect((await kinds(a.id)).at(-1)).toBe('released');
    expect((await kinds(b.id)).at(-1)).toBe('errorFlagged');
  });

  it('an unmatched row refuses the whole sheet: nothing changes, the error workbook names each bad row', async () => {
    const a = await shippedOrder(demo);
    const other = await shippedOrder(demo, 'SH-PD');
    const notShipped = await shippedOrder(demo);
    await h.db
      .transaction()
      .execute((trx) => transition(trx, 'release', [notShipped.id], { at: new Date().toISOString(), by: opId }));
    const before = await row(a.id);
    const r = await upload(
      operator,
      'HZ-CB',
      await sheet([
        [a.waybillNo, 'released', null, null],
        ['NOSUCHWAYBILL1', 'released', null, null],
        [other.waybillNo, 'refused', 'C02', null],
        [notShipped.waybillNo, 'released', null, null],
        [a.waybillNo, 'refused', 'C01', null],
        ['X2', 'maybe', null, null],
        ['X3', 'refused', 'Z9', null],
      ]),
    );
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ applied: false, rows: 7, released: 0, refused: 0, errorRows: 6 });
    expect(await row(a.id)).toEqual(before);
    const e = await blob('clearance/errors', { fileId: r.body.data.errorFileId }, operator);
    expect(e.status).toBe(200);
    expect(e.rows![0]).toEqual([
      'Waybill number',
      'Result (released / refused)',
      'Reason code',
      'Remark',
      'Reason',
      'Row',
    ]);
    const reasons = e.rows!.slice(1).map((x) => [x[0], x[4], x[5]]);
    expect(reasons).toEqual([
      ['NOSUCHWAYBILL1', 'No order has this waybill number.', 3],
      [other.waybillNo, 'The order is declared with another clearance company.', 4],
      [notShipped.waybillNo, `Order ${notShipped.orderNo} is already released.`, 5],
      [a.waybillNo, 'The waybill number is also on row 2 of this sheet.', 6],
      ['X2', 'The result must be released or refused (放行 / 退单).', 7],
      ['X3', expect.stringContaining('Unknown reason code "Z9"'), 8],
    ]);
    // The error workbook is its uploader's.
    expect((await blob('clearance/errors', { fileId: r.body.data.errorFileId }, await h.login('admin'))).status).toBe(
      404,
    );
  });

  it('refuses a file that is not an xlsx, and anyone but an operator', async () => {
    const bad = await upload(operator, 'HZ-CB', Buffer.from('not a workbook'));
    expect(bad.status).toBe(422);
    expect(bad.body.data.file).toBeDefined();
    const a = await shippedOrder(demo);
    const data = await sheet([[a.waybillNo, 'released', null, null]]);
    for (const token of [demo, demo2, agent]) expect((await upload(token, 'HZ-CB', data)).status).toBe(403);
    expect((await row(a.id)).status).toBe('shipped');
  });
});

describe('clearance webhook', () => {
  it('a good signature applies the results', async () => {
    const a = await shippedOrder(demo);
    const b = await shippedOrder(demo);
    const r = await webhook({
      deliveryId: deliveryId(),
      results: [
        { waybillNo: a.waybillNo, result: 'released' },
        { waybillNo: b.waybillNo, result: 'refused', reasonCode: 'C03', remark: 'address' },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ released: 1, refused: 1 });
    expect((await row(a.id)).status).toBe('released');
    expect((await row(b.id)).error_reason).toContain('errorReason.clearance.C03');
    // A system move: no user on the events.
    const ev = await h.db
      .selectFrom('tracking_events')
      .select(['kind', 'created_by', 'note'])
      .where('order_id', '=', b.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(ev).toEqual({ kind: 'errorFlagged', created_by: null, note: 'C03: address' });
  });

  it('a wrong secret and an unknown company get the same answer; neither changes anything', async () => {
    const a = await shippedOrder(demo);
    const body = () => ({ deliveryId: deliveryId(), results: [{ waybillNo: a.waybillNo, result: 'released' }] });
    const wrong = await webhook(body(), { secret: 'x'.repeat(40) });
    const unknown = await webhook(body(), { company: 'NOPE-CO' });
    // A company that exists but has no secret configured is an unknown one too.
    const noSecret = await webhook(body(), { company: 'GZ-NS' });
    const otherCompanysSecret = await webhook(body(), { secret: SECRET_SH });
    for (const r of [wrong, unknown, noSecret, otherCompanysSecret]) {
      expect(r.status).toBe(401);
      expect(r.body).toEqual(wrong.body);
    }
    expect((await row(a.id)).status).toBe('shipped');
  });

  it('refuses stale and future timestamps, a replay, a tampered body and a user token without signature', async () => {
    const a = await shippedOrder(demo);
    const now = Math.floor(h.clock.now.getTime() / 1000);
    const body = () => ({ deliveryId: deliveryId(), results: [{ waybillNo: a.waybillNo, result: 'released' }] });
    expect((await webhook(body(), { at: now - 301 })).status).toBe(401);
    expect((await webhook(body(), { at: now + 301 })).status).toBe(401);
    const tampered = await webhook(body(), {
      tamper: (raw) => raw.replace('"released"', '"refused","reasonCode":"C01"'),
    });
    expect(tampered.status).toBe(401);
    const token = await webhook(body(), { unsigned: true, headers: { authorization: `Bearer ${operator}` } });
    expect(token.status).toBe(401);
    // The console's own call path does not exist for it either.
    expect((await h.post('clearance/webhook', body(), operator)).status).toBe(401);
    expect((await row(a.id)).status).toBe('shipped');

    // The same delivery twice: taken once. Signed again with a new timestamp: the id is seen.
    const once = body();
    const ts = now - 10;
    const first = await webhook(once, { at: ts });
    expect(first.status).toBe(200);
    const again = await webhook(once, { at: ts });
    expect(again.status).toBe(409);
    const resigned = await webhook(once, { at: ts + 1 });
    expect(resigned.status).toBe(409);
    expect((await kinds(a.id)).filter((k) => k === 'released')).toHaveLength(1);
  });

  it('a delivered replay is refused however fast it comes: parallel copies apply once', async () => {
    const a = await shippedOrder(demo);
    const once = { deliveryId: deliveryId(), results: [{ waybillNo: a.waybillNo, result: 'released' }] };
    const at = Math.floor(h.clock.now.getTime() / 1000);
    const all = await Promise.all(Array.from({ length: 4 }, () => webhook(once, { at })));
    expect(all.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    expect((await kinds(a.id)).filter((k) => k === 'released')).toHaveLength(1);
  });

  it('one result that cannot be applied refuses the call (422 naming it); nothing changes', async () => {
    const a = await shippedOrder(demo);
    const r = await webhook({
      deliveryId: deliveryId(),
      results: [
        { waybillNo: a.waybillNo, result: 'released' },
        { waybillNo: 'NOSUCH-1', result: 'refused', reasonCode: 'C01' },
      ],
    });
    expect(r.status).toBe(422);
    expect(r.body.data).toEqual({ 'results.1': ['No order has this waybill number.'] });
    expect((await row(a.id)).status).toBe('shipped');
  });
});

describe('the full loop: shipped → refused → fixed → released', () => {
  it('a refusal shows on the error list and badge; the customer fixes it; a second result releases it', async () => {
    const o = await shippedOrder(demo);
    // The header badge is the error list's total.
    const badge = async (token: string) =>
      (await h.post('order/error', { offset: 0, limit: 1, order: 'desc' }, token)).body.data.total as number;
    const errorsBefore = await badge(demo);
    const demo2Before = await badge(demo2);
    const refused = await upload(operator, 'HZ-CB', await sheet([[o.waybillNo, 'refused', 'C01', null]]));
    expect(refused.body.data.applied).toBe(true);

    const list = await h.post('order/error', { offset: 0, limit: 100, order: 'desc', keyword: o.orderNo }, demo, {
      'accept-language': 'en',
    });
    expect(list.status).toBe(200);
    const hit = list.body.data.list.find((x: { id: number }) => x.id === o.id);
    expect(hit).toBeDefined();
    expect(JSON.stringify(hit)).toContain('Customs: the ID number does not match the recipient name.');
    expect(await badge(demo)).toBe(errorsBefore + 1);
    expect(await badge(demo2)).toBe(demo2Before);

    // demo2 cannot see or fix it.
    const other = await h.post('order/error/update', { id: o.id, recipient: validRecipient }, demo2);
    expect(other.status).toBe(404);

    // A shipped order's fix may not touch what left with the parcel (here: the e-mail).
    const locked = await h.post(
      'order/error/update',
      { id: o.id, recipient: { ...validRecipient, email: 'x@example.com' } },
      demo,
      { 'accept-language': 'en' },
    );
    expect(locked.status).toBe(422);
    expect(locked.body.data['recipient.email']).toBeDefined();
    expect((await row(o.id)).error_at).not.toBeNull();

    // The fix: another recipient (name and ID), which the refusal names.
    const id17 = '33010619900307123';
    const fixed = await h.post(
      'order/error/update',
      {
        id: o.id,
        recipient: { ...validRecipient, name: '李小红', idCard: id17 + idCardCheckChar(id17) },
        confirm: ['minorId'],
      },
      demo,
    );
    expect(fixed.status).toBe(200);
    expect(fixed.body.data).toEqual({ id: o.id, cleared: true });
    const after = await row(o.id);
    expect([after.status, after.error_at, after.error_reason, after.push_s, after.recipient_name]).toEqual([
      'shipped',
      null,
      null,
      0,
      '李小红',
    ]);
    expect((await kinds(o.id)).at(-1)).toBe('errorFixed');
    expect(await badge(demo)).toBe(errorsBefore);

    const released = await upload(operator, 'HZ-CB', await sheet([[o.waybillNo, 'released', null, null]]));
    expect(released.body.data).toMatchObject({ applied: true, released: 1 });
    expect((await row(o.id)).status).toBe('released');
    expect(await kinds(o.id)).toEqual(['received', 'shipped', 'errorFlagged', 'errorFixed', 'released']);
  });

  it("tenancy of the fix: an agent fixes its customers' error orders, not another customer's", async () => {
    const o = await shippedOrder(demo);
    const p = await shippedOrder(demo2);
    await upload(
      operator,
      'HZ-CB',
      await sheet([
        [o.waybillNo, 'refused', 'C02', null],
        [p.waybillNo, 'refused', 'C02', null],
      ]),
    );
    // A customer outside the agent's book.
    const cust = await h.db
      .insertInto('customers')
      .values({ code: 'LONE', name: 'Lone KK', agent_user_id: null, created_at: new Date().toISOString() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await h.db.updateTable('orders').set({ customer_id: cust.id }).where('id', '=', p.id).execute();
    const phone = { ...validRecipient, phone: '13900001111' };
    expect((await h.post('order/error/update', { id: p.id, recipient: phone }, agent)).status).toBe(404);
    expect((await row(p.id)).error_at).not.toBeNull();
    const ok = await h.post('order/error/update', { id: o.id, recipient: phone }, agent);
    expect(ok.status).toBe(200);
    expect(ok.body.data.cleared).toBe(true);
    expect((await row(o.id)).push_s).toBe(0);
  });

  it('the other error-fix calls clear through the order life too (boxcUpdate keeps the shipped lock)', async () => {
    const o = await shippedOrder(demo);
    await upload(operator, 'HZ-CB', await sheet([[o.waybillNo, 'refused', 'C99', null]]));
    const boxc = await h.post('order/error/boxcUpdate', { id: o.id, boxNo: 'B1' }, demo);
    expect(boxc.status).toBe(409);
    // An unchanged re-check leaves it; the operator's clear by hand clears it, with the note.
    const re = await h.post('order/error/update2', { ids: [o.id] }, demo);
    expect(re.body.data.cleared).toEqual([]);
    const clear = await h.post('order/error/update2', { ids: [o.id], clear: true, note: 'customs ok' }, operator);
    expect(clear.body.data.cleared).toEqual([o.id]);
    const r = await row(o.id);
    expect([r.error_at, r.push_s]).toEqual([null, 0]);
    expect((await kinds(o.id)).at(-1)).toBe('errorCleared');
  });
});

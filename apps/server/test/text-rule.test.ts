import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';
import { validRecipient } from './support/orders.ts';

/**
 * Finding 8: NUL and other control characters, lone surrogates and bidirectional
 * overrides are a 422 naming the field, in the caller's language, on every text field —
 * never a 500 (PostgreSQL) or a stored NUL (SQLite).
 */
let h: Harness;
let demo: string;
let operator: string;
const en = { 'accept-language': 'en' };
const zh = { 'accept-language': 'zh-CN' };

beforeAll(async () => {
  h = await createHarness();
  [demo, operator] = await Promise.all([h.login('demo'), h.login('operator')]);
});

describe('finding 8: control characters, lone surrogates and bidi overrides are a 422 on the field', () => {
  it('login with "demo\\u0000" is a 422 on name, in both languages, before any authentication', async () => {
    const r = await h.post('login', { name: 'demo\u0000', password: 'Demo@2026' }, undefined, en);
    expect(r.status).toBe(422);
    expect(r.body.data).toEqual({ name: [expect.stringMatching(/control character/)] });
    const z = await h.post('login', { name: 'demo\u0000', password: 'Demo@2026' }, undefined, zh);
    expect(z.body.data.name).toEqual(['含有不可见的控制字符（如 NUL 或换行）。请删除后重试。']);
    expect(r.body.data.access_token).toBeUndefined();
  });

  const filters: [string, Record<string, unknown>, string][] = [
    ['order/orderList', { recipientName: 'a\u0000b' }, 'recipientName'],
    ['order/orderList', { numbers: 'A1\nB\u00002' }, 'numbers'],
    ['order/search', { numbers: ['A1', 'B\u00002'] }, 'numbers'],
    ['notification/search', { keyword: 'a\u0000' }, 'keyword'],
    ['order/batch/search', { keyword: 'B\u0000' }, 'keyword'],
    ['order/idCard', { keyword: '\u0000' }, 'keyword'],
    ['order/error', { keyword: 'x\u0000y' }, 'keyword'],
    ['order/abnormal', { keyword: 'x\u202ey' }, 'keyword'],
    ['order/orderScan', { code: 'EE\u2066123' }, 'code'],
  ];
  it.each(filters)('%s %j', async (call, body, field) => {
    const r = await h.post(call, body, operator, en);
    expect(r.status, JSON.stringify(r.body)).toBe(422);
    expect(Object.keys(r.body.data)).toEqual([field]);
  });

  const recipient = validRecipient;
  const order = (over: Record<string, unknown>) => ({
    channel: 'JP',
    orderNo: `NUL${Date.now()}`,
    recipient,
    sender: { name: 'DEMO', address: 'Tokyo', phone: '03-1234-5678' },
    items: [{ name: '奶粉', quantity: 1, unitPrice: '1500' }],
    ...over,
  });
  it.each([
    ['orderNo', { orderNo: 'A\u0000' }, 'text_control', 'control character'],
    ['recipient.name', { recipient: { ...recipient, name: '王\u202e明' } }, 'text_bidi', 'text-direction'],
    ['recipient.address', { recipient: { ...recipient, address: '文三路\ud800' } }, 'text_surrogate', 'broken'],
    ['items.0.name', { items: [{ name: 'a\u0085', quantity: 1, unitPrice: '1' }] }, 'text_control', 'control'],
    ['remark', { remark: 'line\u0000' }, 'text_control', 'control'],
  ])('createImport with a bad %s is refused and nothing is stored', async (field, over, _key, words) => {
    const body = order(over);
    const r = await h.post('order/createImport', body, demo, en);
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.data)).toEqual([field]);
    expect(r.body.data[field][0]).toMatch(new RegExp(words));
  });
  it('a multi-line field keeps its line breaks; a single-line one refuses them', async () => {
    const ok = await h.post('order/createImport', order({ remark: 'first line\nsecond line' }), demo, en);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const stored = await h.db
      .selectFrom('orders')
      .select('remark')
      .where('id', '=', ok.body.data.id)
      .executeTakeFirst();
    expect(stored?.remark).toBe('first line\nsecond line');
    const bad = await h.post('order/createImport', order({ userRefNo: 'a\nb' }), demo, en);
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.data)).toEqual(['userRefNo']);
  });
  it('multipart text fields and saved settings hold to the rule too', async () => {
    const s = await h.post('user/settings/save', { key: 'tabs', value: [{ title: 'a\u0000' }] }, demo, en);
    expect(s.status).toBe(422);
    expect(Object.keys(s.body.data)).toEqual(['value']);
    const boundary = 'xBOUNDARYx';
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/order/batch/create',
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        authorization: `Bearer ${demo}`,
        'accept-language': 'en',
      },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="clearanceCompany"\r\n\r\nA\u0000B\r\n--${boundary}--\r\n`,
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().data)).toEqual(['clearanceCompany']);
  });
});

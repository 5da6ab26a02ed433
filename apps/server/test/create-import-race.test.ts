import { beforeAll, describe, expect, it } from 'vitest';
import { baseRow, fill, settle, template, upload } from './batches/helpers.ts';
import { createHarness, type Harness, type HttpClient, listening } from './harness.ts';
import { validRecipient } from './support/orders.ts';

/**
 * Finding 9: ten concurrent single creates with one order number, fired truly in
 * parallel at a listening server: one wins, the others hear that the number exists
 * (422 on orderNo, in their language), never a 500 or the database's own text.
 */
let h: Harness;
let http: HttpClient;
let token: string;

const recipient = validRecipient;
const body = (orderNo: string) => ({
  channel: 'JP',
  orderNo,
  recipient,
  sender: { name: 'DEMO Trading', address: 'Tokyo', phone: '03-1234-5678' },
  items: [{ jan: '4901234567894', name: '明治 奶粉', quantity: 2, unitPrice: '1500' }],
});

beforeAll(async () => {
  h = await createHarness();
  token = await h.login('demo');
  http = await listening(h.app);
});

async function createAll(orderNo: string, lang: string, n = 10) {
  // Built first, then sent together: the requests overlap on the server.
  const requests = Array.from(
    { length: n },
    () => () => http.post('order/createImport', body(orderNo), token, { 'accept-language': lang }),
  );
  return Promise.all(requests.map((send) => send()));
}

describe('finding 9: concurrent creates of one order number', () => {
  it.each([
    ['en', /order number .*already exists/i],
    ['zh-CN', /订单号.*已存在/],
  ])('one 200, the others a 422 duplicate on orderNo in %s', async (lang, message) => {
    const orderNo = `RACE${lang.replace('-', '')}${Date.now()}`;
    const answers = await createAll(orderNo, lang);
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, ...Array(9).fill(422)]);
    const losers = answers.filter((a) => a.status === 422);
    expect(losers).toHaveLength(9);
    for (const l of losers) {
      expect(l.body.code).toBe(422);
      expect(l.body.data.orderNo[0]).toMatch(message);
      expect(JSON.stringify(l.body)).not.toMatch(/constraint|unique|duplicate key|sqlite|orders_/i);
    }
    const stored = await h.db.selectFrom('orders').select('id').where('order_no', '=', orderNo).execute();
    expect(stored).toHaveLength(1);
  });
});

describe('finding 9: a batch that loses a race to another write', () => {
  it('fails with the duplicate number in words, not the constraint text', async () => {
    const tpl = await template(h, token, 'download/importOrder');
    const orderNo = `LOSE${Date.now()}`;
    const file = await fill(tpl, [baseRow(1, { orderNo })]);
    const up = await upload(h, 'order/batch/createImport', token, { channel: 'JP' }, { name: 'o.xlsx', data: file });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const p = await settle(h, token, up.body.data.id);
    expect(p).toMatchObject({ status: 'preview', validRows: 1 });
    // Another write takes the number after the preview and is not committed until the batch's
    // commit has started: on PostgreSQL the batch's own check cannot see it and its insert waits
    // on the unique index; on SQLite the batch waits for the writer and its check sees it.
    const { id: _id, ...row } = await h.db
      .selectFrom('orders')
      .selectAll()
      .where('customer_id', '=', p.customerId)
      .executeTakeFirstOrThrow();
    let confirm: Promise<{ status: number }> | undefined;
    await h.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('orders')
        .values({ ...row, batch_id: null, order_no: orderNo, system_no: `S${orderNo}`, waybill_no: null })
        .execute();
      confirm = h.post('order/batch/confirm', { id: p.id, confirmations: [] }, token, { 'accept-language': 'en' });
      await new Promise((r) => setTimeout(r, 1000));
    });
    expect((await confirm!).status).toBe(200);
    const done = await settle(h, token, p.id);
    expect(done.status).toBe('failed');
    expect(done.errorMessage).toMatch(/order number.*already exist/i);
    expect(done.errorMessage).not.toMatch(/constraint|duplicate key|unique|orders_|sqlite/i);
    const stored = await h.db.selectFrom('orders').select('batch_id').where('order_no', '=', orderNo).execute();
    expect(stored).toEqual([{ batch_id: null }]);
  });
});

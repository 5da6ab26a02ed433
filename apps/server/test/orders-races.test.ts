import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type HttpClient, listening } from './harness.ts';
import { createOrder, jpOrderBody } from './support/orders.ts';

/**
 * Finding 18 of issue 10: check-then-write races. On PostgreSQL a customer's delete and an
 * operator's scan of one new order, sent together 40 times, both succeeded 32 times; three
 * concurrent deletes of one order all answered {deleted: 1}. Here the requests go truly in
 * parallel over HTTP to a listening server (not app.inject), on SQLite and on PostgreSQL
 * (TEST_DATABASE_URL).
 */
let h: Harness;
let http: HttpClient;
let demo: string;
let operator: string;

beforeAll(async () => {
  h = await createHarness();
  http = await listening(h.app);
  [demo, operator] = await Promise.all(['demo', 'operator'].map((n) => h.login(n)));
});

const call = (path: string, body: unknown, token: string) => http.post(path, body, token, { 'accept-language': 'en' });

/** A new order of the customer, through the API (so it is exactly what a customer creates). */
const newOrder = () => createOrder(call, demo, jpOrderBody('RACE'));

describe('finding 18: status-guarded writes under truly parallel requests', () => {
  it('a delete and a scan of the same new order, sent together 40 times, never both succeed', async () => {
    const outcomes = { deleted: 0, received: 0 };
    for (let i = 0; i < 40; i++) {
      const o = await newOrder();
      const [del, scan] = await Promise.all([
        call('order/order/delete', { ids: [o.id] }, demo),
        call('order/orderScan', { code: o.waybillNo }, operator),
      ]);
      const deleted = del.status === 200 && del.body.data.deleted === 1;
      const received = scan.status === 200 && scan.body.data.outcome === 'received';
      expect({ i, deleted, received }).not.toEqual({ i, deleted: true, received: true });
      // Exactly one wins, and the loser says why: the delete a 409 (received), the scan "not found".
      expect(deleted || received).toBe(true);
      if (!deleted) expect(del.status).toBe(409);
      if (!received) expect(scan.body.data.outcome).toBe('notFound');
      const row = await h.db.selectFrom('orders').select('status').where('id', '=', o.id).executeTakeFirst();
      expect(row?.status).toBe(deleted ? undefined : 'received');
      if (deleted) outcomes.deleted++;
      else outcomes.received++;
    }
    expect(outcomes.deleted + outcomes.received).toBe(40);
  });

  it('three concurrent deletes of one order: exactly one answers {deleted: 1}', async () => {
    for (let i = 0; i < 10; i++) {
      const o = await newOrder();
      const answers = await Promise.all([1, 2, 3].map(() => call('order/order/delete', { ids: [o.id] }, demo)));
      const won = answers.filter((a) => a.status === 200 && a.body.data.deleted === 1);
      expect(won).toHaveLength(1);
      // The others find it gone.
      expect(answers.filter((a) => a.status === 404)).toHaveLength(2);
    }
  });

  it('an update and a scan sent together: the update never lands on a received order', async () => {
    for (let i = 0; i < 10; i++) {
      const o = await newOrder();
      const detail = (await call('order/order', { id: o.id }, demo)).body.data;
      const [upd, scan] = await Promise.all([
        call(
          'order/order/update',
          {
            id: o.id,
            recipient: { ...detail.recipient, address: '文三路200号' },
            sender: detail.sender,
            remark: 'changed',
            confirm: ['minorId', 'crossBorderLimit', 'multiplePricesPerJan'],
          },
          demo,
        ),
        call('order/orderScan', { code: o.waybillNo }, operator),
      ]);
      expect(scan.body.data.outcome).toBe('received');
      const row = await h.db
        .selectFrom('orders')
        .select(['status', 'remark'])
        .where('id', '=', o.id)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe('received');
      // Either the update came first (its event before the receipt), or it was refused with 409.
      const events = (
        await h.db.selectFrom('tracking_events').select('kind').where('order_id', '=', o.id).orderBy('id').execute()
      ).map((e) => e.kind);
      if (upd.status === 200) {
        expect(row.remark).toBe('changed');
        expect(events).toEqual(['updated', 'received']);
      } else {
        expect(upd.status).toBe(409);
        expect(row.remark).not.toBe('changed');
      }
    }
  });
});

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectOf } from '../../src/db/dialect.ts';
import { openResponse, sealRequest } from '../aes-client.ts';
import { createHarness, type Harness, type HttpClient, listening } from '../harness.ts';
import { cloneOrders } from '../support/orders.ts';

/**
 * Issue 26, finding 8: a storage scan racing the deletion of one of its orders. The scan found
 * the order, the delete committed before the scan wrote its lines, and on PostgreSQL the line's
 * foreign key to the vanished order refused the whole entry with a 400. The waybill of the
 * deleted order is a `notFound` line (no order), the other waybills of the entry are received.
 */
let h: Harness;
let http: HttpClient;
let demo: string;
let operator: string;
let demoId: number;

const take = (n: number) => cloneOrders(h.db, demoId, n, 'RD');
async function scan(waybillNos: string[]) {
  const r = await http.post(
    'storageOrder/create',
    sealRequest(operator, { origin: 'counter', customerId: demoId, waybillNos }),
    operator,
    { aes: '1', 'accept-language': 'en' },
  );
  return { status: r.status, body: r.body, data: r.status === 200 ? (openResponse(operator, r.body) as any) : null };
}
const exists = async (id: number) =>
  !!(await h.db.selectFrom('orders').select('id').where('id', '=', id).executeTakeFirst());
const statusOf = async (id: number) =>
  (await h.db.selectFrom('orders').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

beforeAll(async () => {
  h = await createHarness();
  http = await listening(h.app);
  [demo, operator] = await Promise.all(['demo', 'operator'].map((n) => h.login(n)));
  demoId = (await h.db.selectFrom('users').select('customer_id').where('name', '=', 'demo').executeTakeFirstOrThrow())
    .customer_id!;
});
afterAll(() => h.app.close());

describe('a storage scan racing a delete', () => {
  it('scan and delete sent at once, 25 times: never a refused entry; the deleted waybill is notFound', async () => {
    for (let round = 0; round < 25; round++) {
      const [gone, kept] = await take(2);
      const [s, d] = await Promise.all([
        scan([gone!.waybill_no, kept!.waybill_no]),
        http.post('order/order/delete', { ids: [gone!.id] }, demo),
      ]);
      expect(s.status, JSON.stringify(s.body)).toBe(200);
      const [first, second] = s.data.lines;
      expect(second).toMatchObject({ code: kept!.waybill_no, outcome: 'received' });
      expect(await statusOf(kept!.id)).toBe('received');
      if (d.status === 200) {
        expect(d.body.data.deleted).toBe(1);
        // The delete won: the scan either never saw the order or saw it vanish.
        expect(first).toMatchObject({ code: gone!.waybill_no, outcome: 'notFound', ok: false, order: null });
        expect(await exists(gone!.id)).toBe(false);
      } else {
        // The scan won: a received order is not deleted (409).
        expect(d.status).toBe(409);
        expect(first).toMatchObject({ code: gone!.waybill_no, outcome: 'received' });
        expect(await statusOf(gone!.id)).toBe('received');
      }
      expect(s.data.storageOrder).toMatchObject({
        lineCount: 2,
        receivedCount: d.status === 200 ? 1 : 2,
      });
    }
    // Which request wins each round is up to the machine; the next case pins the narrow window.
  });

  it('the delete commits after the scan found the order and before it wrote its lines', async () => {
    const [gone, kept] = await take(2);
    const deleteOrder = (trx: typeof h.db) =>
      Promise.all([
        trx.deleteFrom('order_items').where('order_id', '=', gone!.id).execute(),
        trx.deleteFrom('tracking_events').where('order_id', '=', gone!.id).execute(),
      ]).then(() => trx.deleteFrom('orders').where('id', '=', gone!.id).execute());
    let s: Awaited<ReturnType<typeof scan>>;
    if (dialectOf(h.db) === 'postgres') {
      // The delete's transaction holds the order's row; the scan reads it (still there for it),
      // then its receive waits on the row; once it waits, the delete commits.
      let pending!: Promise<Awaited<ReturnType<typeof scan>>>;
      await h.db.transaction().execute(async (trx) => {
        await deleteOrder(trx as never);
        pending = scan([gone!.waybill_no, kept!.waybill_no]);
        for (let i = 0; i < 200; i++) {
          // A session of this test's database waiting on a lock: the scan's receive, on the order's row.
          const waiting = await sql<{ n: string }>`
            select count(*) as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock'`.execute(h.db);
          if (Number(waiting.rows[0]!.n) > 0) break;
          await new Promise((r) => setTimeout(r, 25));
        }
      });
      s = await pending;
    } else {
      // SQLite has one writer: a delete is wholly before or after a scan. Before: the same answer.
      await h.db.transaction().execute((trx) => deleteOrder(trx as never));
      s = await scan([gone!.waybill_no, kept!.waybill_no]);
    }
    expect(s.status, JSON.stringify(s.body)).toBe(200);
    expect(s.data.lines.map((l: any) => [l.code, l.outcome, l.order?.id ?? null])).toEqual([
      [gone!.waybill_no, 'notFound', null],
      [kept!.waybill_no, 'received', kept!.id],
    ]);
    expect(s.data.lines[0].message).toBe(`No order has waybill ${gone!.waybill_no}.`);
    expect(await statusOf(kept!.id)).toBe('received');
    const lines = await h.db
      .selectFrom('storage_order_lines')
      .select(['code', 'order_id', 'outcome'])
      .where('storage_order_id', '=', s.data.storageOrder.id)
      .orderBy('id')
      .execute();
    expect(lines).toEqual([
      { code: gone!.waybill_no, order_id: null, outcome: 'notFound' },
      { code: kept!.waybill_no, order_id: kept!.id, outcome: 'received' },
    ]);
  });
});

import { idCardCheckChar } from '@console/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, listening } from '../harness.ts';
import { jpOrderBody, validRecipient } from '../support/orders.ts';
import { customerIdOf, makeKey } from './helpers.ts';

/**
 * Issue 39: `POST /api/v1/orders/batch` (up to 500 orders, a result per order in the console's
 * words) and `Idempotency-Key` on the new POSTs (batch, cancel, intercept): parallel requests over
 * HTTP to a listening server make one change, and all that succeed answer the same.
 */
let h: Harness;
let base: string;
let key: string;
let demoId: number;

beforeAll(async () => {
  h = await createHarness({ env: { API_RATE_LIMIT_PER_MINUTE: '1000' } });
  const demo = await h.login('demo');
  key = (await makeKey(h, demo, { scopes: ['orders:read', 'orders:write'] })).key;
  demoId = await customerIdOf(h, 'DEMO');
  base = (await listening(h.app)).base;
});

const post = async (path: string, body: unknown, idem?: string) => {
  const r = await fetch(`${base}/v1/${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'accept-language': 'en',
      authorization: `Bearer ${key}`,
      ...(idem ? { 'idempotency-key': idem } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, text, json: JSON.parse(text), replayed: r.headers.get('idempotent-replayed') };
};

const ordersNumbered = async (prefix: string) =>
  h.db
    .selectFrom('orders')
    .select(['id', 'order_no', 'customer_id', 'waybill_no'])
    .where('order_no', 'like', `${prefix}%`)
    .execute();

describe('batch create', () => {
  it(
    '500 orders mixing good and bad: each good one made, each bad one answered with its own field errors',
    { timeout: 120_000 },
    async () => {
      const existing = jpOrderBody('B5X');
      expect((await post('orders', existing)).status).toBe(200);
      // Every 5th has no items, every 7th an ID card that fails its check digit, one repeats an existing
      // number and one (13) the number of another in the batch (11); recipients differ, as in a shop's day.
      const recipient = (i: number) => {
        const base = `11010519800101${String(i).padStart(3, '0')}`;
        return { ...validRecipient, idCard: base + idCardCheckChar(base) };
      };
      const orders = Array.from({ length: 500 }, (_, i) =>
        i === 3
          ? { ...existing }
          : i % 5 === 0
            ? jpOrderBody('B5', { items: [], recipient: recipient(i) })
            : i % 7 === 0
              ? jpOrderBody('B5', { recipient: { ...validRecipient, idCard: '110105198001011230' } })
              : jpOrderBody('B5', { recipient: recipient(i) }),
      );
      orders[13] = { ...orders[13]!, orderNo: orders[11]!.orderNo };
      const started = Date.now();
      const r = await post('orders/batch', { orders });
      const ms = Date.now() - started;
      expect(r.status, r.text.slice(0, 500)).toBe(200);
      const results = r.json.data.results as any[];
      expect(results.map((x) => x.index)).toEqual(orders.map((_, i) => i));
      const bad = (i: number) => i === 3 || i === 13 || i % 5 === 0 || i % 7 === 0;
      expect(results.map((x) => x.status)).toEqual(orders.map((_, i) => (bad(i) ? 'refused' : 'created')));
      for (const x of results.filter((x) => x.status === 'refused')) {
        expect(x.error).toMatchObject({ code: 422, key: 'validationFailed' });
        const field = x.index === 3 || x.index === 13 ? 'orderNo' : x.index % 5 === 0 ? 'items' : 'recipient.idCard';
        expect([x.index, Object.keys(x.error.data)]).toEqual([x.index, [field]]);
        expect(x.orderNo).toBe(orders[x.index]!.orderNo);
      }
      // The same words the single create gives for the same order.
      const single = await post('orders', orders[5]);
      expect(single.json.data).toEqual(results[5].error.data);
      const made = results.filter((x) => x.status === 'created');
      expect(r.json.data).toMatchObject({ created: made.length, refused: 500 - made.length });
      const rows = new Map((await ordersNumbered('B5')).map((o) => [o.id, o]));
      for (const x of made) {
        const row = rows.get(x.order.id);
        expect(row).toMatchObject({
          order_no: orders[x.index]!.orderNo,
          customer_id: demoId,
          waybill_no: x.order.waybillNo,
        });
        expect(x.order.waybillNo).toBeTruthy();
      }
      expect(rows.size).toBe(made.length + 1); // and the existing one
      console.log(`v1 batch of 500 (${made.length} made): ${ms} ms`);
    },
  );

  it('refuses 501 orders whole with a 422 on `orders`, making none', async () => {
    const orders = Array.from({ length: 501 }, () => jpOrderBody('B501'));
    const r = await post('orders/batch', { orders });
    expect([r.status, r.json.key, Object.keys(r.json.data)]).toEqual([422, 'validationFailed', ['orders']]);
    expect(r.json.data.orders[0]).toContain('At most 500 orders');
    expect(await ordersNumbered('B501')).toEqual([]);
  });
});

describe('Idempotency-Key on the new POSTs', () => {
  const race = async (path: string, body: unknown, idem: string) => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(path, body, idem)));
    const ok = answers.filter((a) => a.status === 200);
    const busy = answers.filter((a) => a.status === 409);
    expect(ok.length + busy.length, JSON.stringify(answers.map((a) => a.status))).toBe(10);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ok.map((a) => a.text)).size).toBe(1);
    for (const b of busy) expect(b.json.key).toBe('requestInProgress');
    const again = await post(path, body, idem);
    expect([again.status, again.text, again.replayed]).toEqual([200, ok[0]!.text, 'true']);
    return ok[0]!.json;
  };

  it('10 parallel batches with one key make each order once and answer the same; another body is refused', async () => {
    const body = { orders: [jpOrderBody('BIDEM'), jpOrderBody('BIDEM'), jpOrderBody('BIDEM')] };
    const first = await race('orders/batch', body, `batch-${body.orders[0]!.orderNo}`);
    expect(first.data.created).toBe(3);
    expect((await ordersNumbered('BIDEM')).length).toBe(3);
    const other = await post('orders/batch', { orders: body.orders.slice(1) }, `batch-${body.orders[0]!.orderNo}`);
    expect([other.status, Object.keys(other.json.data)]).toEqual([422, ['idempotencyKey']]);
  });

  it('10 parallel cancels or intercepts with one key change the order once', async () => {
    const events = (id: number, kind: string) =>
      h.db.selectFrom('tracking_events').select('id').where('order_id', '=', id).where('kind', '=', kind).execute();
    const a = (await post('orders', jpOrderBody('CIDEM'))).json.data.id as number;
    const cancelled = await race(`orders/${a}/cancel`, { reason: 'twice?' }, `cancel-${a}`);
    expect(cancelled.data).toMatchObject({ id: a, status: 'cancelled' });
    expect(await events(a, 'cancelled')).toHaveLength(1);
    const b = (await post('orders', jpOrderBody('IIDEM'))).json.data.id as number;
    const held = await race(`orders/${b}/intercept`, { reason: 'hold it' }, `intercept-${b}`);
    expect(held.data.order).toMatchObject({ id: b, intercepted: true });
    expect(await events(b, 'intercepted')).toHaveLength(1);
    expect(await h.db.selectFrom('order_interceptions').select('id').where('order_id', '=', b).execute()).toHaveLength(
      1,
    );
  });
});

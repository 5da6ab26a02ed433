import { beforeAll, describe, expect, it } from 'vitest';
import { transition } from '../src/domain/order-life.ts';
import { baseRow, fill, idCard, settle, template, upload } from './batches/helpers.ts';
import { createHarness, type Harness, type HttpClient, listening } from './harness.ts';
import { createOrder, jpOrderBody, validRecipient } from './support/orders.ts';

/**
 * Issue 13, the order's life: interceptions (create / list / cancel) through order-life's
 * transitions, the warehouse scan against them (also truly in parallel), the tenant matrix,
 * the public tracking page, the abnormal-rule switches on create and on batch import, and the
 * header badges' counts.
 */
let h: Harness;
let http: HttpClient;
let demo: string;
let demo2: string;
let agent: string;
let operator: string;
let demoId: number;
let demo2Id: number;
const en = { 'accept-language': 'en' };
const post = (path: string, body: unknown, token: string) => h.post(path, body, token, en);

beforeAll(async () => {
  h = await createHarness();
  http = await listening(h.app);
  [demo, demo2, agent, operator] = await Promise.all(['demo', 'demo2', 'agent', 'operator'].map((n) => h.login(n)));
  const ids = await h.db.selectFrom('customers').select(['id', 'code']).execute();
  demoId = ids.find((c) => c.code === 'DEMO')!.id;
  demo2Id = ids.find((c) => c.code === 'DEMO2')!.id;
});

/** A new order through the API (exactly what a customer creates); recipient phone optional. */
const newOrder = (token = demo, extra: Record<string, unknown> = {}) =>
  createOrder(
    post,
    token,
    jpOrderBody('ICP', { userRefNo: `UREF-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`, ...extra }),
  );
const orderRow = (id: number) =>
  h.db.selectFrom('orders').select(['status', 'intercepted', 'customer_id']).where('id', '=', id).executeTakeFirst();
const eventsOf = async (id: number) =>
  (
    await h.db.selectFrom('tracking_events').select(['kind', 'note']).where('order_id', '=', id).orderBy('id').execute()
  ).map((e) => e.kind);
const recordsOf = (id: number) =>
  h.db.selectFrom('order_interceptions').selectAll().where('order_id', '=', id).orderBy('id').execute();

describe('order/create/interception', () => {
  it('a customer intercepts its order by waybill number; the scan refuses it; a cancelled interception lets it through', async () => {
    const o = await newOrder();
    const c = await post(
      'order/create/interception',
      { noType: 'waybillNo', numbers: o.waybillNo.toLowerCase(), reason: 'Wrong address' },
      demo,
    );
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    expect(c.body.data.intercepted).toBe(1);
    expect(c.body.data.results).toEqual([
      expect.objectContaining({ outcome: 'intercepted', orderNo: o.orderNo, message: null }),
    ]);
    expect(await orderRow(o.id)).toMatchObject({ intercepted: 1, status: 'created' });
    const [rec] = await recordsOf(o.id);
    expect(rec).toMatchObject({ no_type: 'waybillNo', reason: 'Wrong address', cancelled_at: null });
    const events = await h.db
      .selectFrom('tracking_events')
      .select(['kind', 'note'])
      .where('order_id', '=', o.id)
      .execute();
    expect(events).toContainEqual({ kind: 'intercepted', note: 'Wrong address' });

    // The order list shows it intercepted (and the filter finds it).
    const list = await post('order/orderList', { limit: 50, intercepted: true, numbers: [o.orderNo] }, demo);
    expect(list.body.data.list.map((r: any) => [r.id, r.intercepted])).toEqual([[o.id, true]]);

    // The warehouse refuses it.
    const scan = await post('order/orderScan', { code: o.waybillNo }, operator);
    expect(scan.body.data.outcome).toBe('intercepted');
    expect((await orderRow(o.id))!.status).toBe('created');

    // Cancel: the reason is required.
    const noReason = await post('order/cancel/interception', { id: rec!.id, cancelReason: '' }, demo);
    expect(noReason.status).toBe(422);
    expect(noReason.body.data).toHaveProperty('cancelReason');
    const cancel = await post('order/cancel/interception', { id: rec!.id, cancelReason: 'Address fixed' }, demo);
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect(cancel.body.data).toMatchObject({
      status: 'cancelled',
      cancelReason: 'Address fixed',
      cancelledBy: '演示客户',
    });
    expect((await orderRow(o.id))!.intercepted).toBe(0);
    const again = await post('order/cancel/interception', { id: rec!.id, cancelReason: 'twice' }, demo);
    expect(again.status).toBe(409);

    const scan2 = await post('order/orderScan', { code: o.waybillNo }, operator);
    expect(scan2.body.data.outcome).toBe('received');
    expect(await eventsOf(o.id)).toEqual(['intercepted', 'interceptionCancelled', 'received']);
  });

  it('every number kind finds the order; each number is answered (not found, refused with the reason)', async () => {
    const kinds = ['orderNo', 'systemNo', 'userRefNo', 'splitWaybillNo'] as const;
    for (const kind of kinds) {
      const o = await newOrder();
      await h.db
        .updateTable('orders')
        .set({ split_waybill_no: `SPL${o.id}` })
        .where('id', '=', o.id)
        .execute();
      const row = await h.db
        .selectFrom('orders')
        .select(['order_no', 'system_no', 'user_ref_no', 'split_waybill_no'])
        .where('id', '=', o.id)
        .executeTakeFirstOrThrow();
      const number = {
        orderNo: row.order_no,
        systemNo: row.system_no,
        userRefNo: row.user_ref_no!,
        splitWaybillNo: row.split_waybill_no!,
      }[kind];
      const c = await post('order/create/interception', { noType: kind, numbers: [number], reason: 'r' }, demo);
      expect(c.body.data.results, kind).toEqual([expect.objectContaining({ outcome: 'intercepted', number })]);
      expect((await orderRow(o.id))!.intercepted, kind).toBe(1);
    }

    const shipped = await newOrder();
    await h.db.transaction().execute(async (trx) => {
      await transition(trx, 'receive', [shipped.id], { at: new Date().toISOString(), by: null });
      await transition(trx, 'ship', [shipped.id], { at: new Date().toISOString(), by: null });
    });
    const held = await newOrder();
    const first = await post(
      'order/create/interception',
      { noType: 'orderNo', numbers: [held.orderNo], reason: 'a' },
      demo,
    );
    expect(first.body.data.intercepted).toBe(1);
    const c = await post(
      'order/create/interception',
      { noType: 'orderNo', numbers: `${shipped.orderNo}\n${held.orderNo}\nNO-SUCH-ORDER`, reason: 'b' },
      demo,
    );
    expect(c.body.data.intercepted).toBe(0);
    expect(c.body.data.results).toEqual([
      expect.objectContaining({
        number: shipped.orderNo,
        outcome: 'refused',
        message: `Order ${shipped.orderNo} is already shipped.`,
      }),
      expect.objectContaining({
        number: held.orderNo,
        outcome: 'refused',
        message: expect.stringMatching(/intercepted/),
      }),
      expect.objectContaining({ number: 'NO-SUCH-ORDER', outcome: 'notFound', orderNo: null }),
    ]);
    expect((await orderRow(shipped.id))!.intercepted).toBe(0);
    expect(await recordsOf(shipped.id)).toHaveLength(0);
    expect(await recordsOf(held.id)).toHaveLength(1);
    // The reason is required; a batch number names many orders: not a kind one intercepts by.
    expect(
      (await post('order/create/interception', { noType: 'orderNo', numbers: ['x'], reason: '' }, demo)).status,
    ).toBe(422);
    expect(
      (await post('order/create/interception', { noType: 'batchNo', numbers: ['x'], reason: 'r' }, demo)).status,
    ).toBe(422);
  });
});

describe('tenant matrix', () => {
  it('demo2 intercepts, reads and cancels nothing of demo’s; an agent only its customers’; an operator all', async () => {
    const mine = await newOrder(demo);
    const c2 = await post(
      'order/create/interception',
      { noType: 'waybillNo', numbers: [mine.waybillNo], reason: 'x' },
      demo2,
    );
    expect(c2.body.data.results).toEqual([expect.objectContaining({ outcome: 'notFound', orderNo: null })]);
    expect((await orderRow(mine.id))!.intercepted).toBe(0);

    const c = await post(
      'order/create/interception',
      { noType: 'waybillNo', numbers: [mine.waybillNo], reason: 'x' },
      demo,
    );
    const recId = c.body.data.results[0].interceptionId as number;
    const l2 = await post('order/list/interception', { limit: 100 }, demo2);
    expect(l2.body.data.list.every((r: any) => r.customerId === demo2Id)).toBe(true);
    expect(l2.body.data.list.map((r: any) => r.id)).not.toContain(recId);
    expect((await post('order/list/interception', { limit: 100, customerId: demoId }, demo2)).body.data.total).toBe(0);
    const x = await post('order/cancel/interception', { id: recId, cancelReason: 'not yours' }, demo2);
    expect(x.status).toBe(404);
    expect((await orderRow(mine.id))!.intercepted).toBe(1);

    // The agent keeps DEMO only.
    await h.db.updateTable('customers').set({ agent_user_id: null }).where('id', '=', demo2Id).execute();
    try {
      const theirs = await newOrder(demo2);
      const a = await post(
        'order/create/interception',
        { noType: 'orderNo', numbers: [theirs.orderNo, mine.orderNo], reason: 'agent' },
        agent,
      );
      expect(a.body.data.results.map((r: any) => r.outcome)).toEqual(['notFound', 'refused']);
      expect((await orderRow(theirs.id))!.intercepted).toBe(0);
      const al = await post('order/list/interception', { limit: 100 }, agent);
      expect(al.body.data.list.length).toBeGreaterThan(0);
      expect(al.body.data.list.every((r: any) => r.customerId === demoId)).toBe(true);
      const ac = await post('order/cancel/interception', { id: recId, cancelReason: 'agent cancels' }, agent);
      expect(ac.status).toBe(200);

      // The operator reaches both customers.
      const op = await post(
        'order/create/interception',
        { noType: 'orderNo', numbers: [theirs.orderNo], reason: 'operator' },
        operator,
      );
      expect(op.body.data.results).toEqual([expect.objectContaining({ outcome: 'intercepted' })]);
      const ol = await post('order/list/interception', { limit: 100, customerId: demo2Id }, operator);
      expect(ol.body.data.list.map((r: any) => r.orderNo)).toContain(theirs.orderNo);
      expect(ol.body.data.list.every((r: any) => r.customerId === demo2Id)).toBe(true);
    } finally {
      const agentId = (
        await h.db.selectFrom('users').select('id').where('name', '=', 'agent').executeTakeFirstOrThrow()
      ).id;
      await h.db.updateTable('customers').set({ agent_user_id: agentId }).where('id', '=', demo2Id).execute();
    }
  });
});

describe('order/list/interception', () => {
  it('pages, sorts and filters on the server (number, status, dates)', async () => {
    const a = await newOrder();
    const b = await newOrder();
    const made = await post(
      'order/create/interception',
      { noType: 'orderNo', numbers: [a.orderNo, b.orderNo], reason: 'list' },
      demo,
    );
    const [ra, rb] = made.body.data.results.map((r: any) => r.interceptionId as number);
    await post('order/cancel/interception', { id: rb, cancelReason: 'done' }, demo);

    const byWaybill = await post('order/list/interception', { limit: 10, number: a.waybillNo }, demo);
    expect(byWaybill.body.data.list.map((r: any) => r.id)).toEqual([ra]);
    expect(byWaybill.body.data.list[0]).toMatchObject({ number: a.orderNo, status: 'active', orderStatus: 'created' });
    const active = await post('order/list/interception', { limit: 500, status: 'active' }, demo);
    const cancelled = await post('order/list/interception', { limit: 500, status: 'cancelled' }, demo);
    expect(active.body.data.list.every((r: any) => r.status === 'active' && r.cancelledAt === null)).toBe(true);
    expect(cancelled.body.data.list.every((r: any) => r.status === 'cancelled' && r.cancelReason)).toBe(true);
    expect(active.body.data.list.map((r: any) => r.id)).toContain(ra);
    expect(cancelled.body.data.list.map((r: any) => r.id)).toContain(rb);
    const all = await post('order/list/interception', { limit: 1, offset: 0 }, demo);
    expect(all.body.data.total).toBe(active.body.data.total + cancelled.body.data.total);
    expect(all.body.data.list).toHaveLength(1);

    const day = (d: Date) => new Date(d.getTime() + 8 * 3_600_000).toISOString().slice(0, 10);
    const today = day(new Date());
    const inDay = await post('order/list/interception', { limit: 500, dateFrom: today, dateTo: today }, demo);
    expect(inDay.body.data.list.map((r: any) => r.id)).toEqual(expect.arrayContaining([ra, rb]));
    const longAgo = await post(
      'order/list/interception',
      { limit: 500, dateFrom: '2020-01-01', dateTo: '2020-01-02' },
      demo,
    );
    expect(longAgo.body.data.total).toBe(0);

    const asc = await post('order/list/interception', { limit: 500, sort: 'orderNo', order: 'asc' }, demo);
    const nos = asc.body.data.list.map((r: any) => r.orderNo as string);
    expect(nos).toEqual([...nos].sort());
  });
});

describe('races over HTTP', () => {
  it('a scan and an interception of the same new order, together 25 times, leave one consistent state', async () => {
    const call = (p: string, body: unknown, token: string) => http.post(p, body, token, en);
    const seen = { interceptedFirst: 0, receivedFirst: 0 };
    for (let i = 0; i < 25; i++) {
      const o = await newOrder();
      const [scan, icp] = await Promise.all([
        call('order/orderScan', { code: o.waybillNo }, operator),
        call('order/create/interception', { noType: 'waybillNo', numbers: [o.waybillNo], reason: `race ${i}` }, demo),
      ]);
      expect(scan.status).toBe(200);
      expect(icp.status).toBe(200);
      const row = (await orderRow(o.id))!;
      const events = await eventsOf(o.id);
      const records = await recordsOf(o.id);
      const received = (scan.body as any).data.outcome === 'received';
      // An interception is allowed on a received order, so it always lands; the scan lands
      // only if it came first.
      expect((icp.body as any).data.results[0].outcome).toBe('intercepted');
      expect(row.intercepted).toBe(1);
      expect(records).toHaveLength(1);
      if (received) {
        expect(row.status).toBe('received');
        expect(events).toEqual(['received', 'intercepted']);
        seen.receivedFirst++;
      } else {
        expect((scan.body as any).data.outcome).toBe('intercepted');
        expect(row.status).toBe('created');
        expect(events).toEqual(['intercepted']);
        seen.interceptedFirst++;
      }
    }
    expect(seen.interceptedFirst + seen.receivedFirst).toBe(25);
  });

  it('two interceptions and two cancels of the same order in parallel: one record, one cancel', async () => {
    const call = (p: string, body: unknown, token: string) => http.post(p, body, token, en);
    for (let i = 0; i < 10; i++) {
      const o = await newOrder();
      const both = await Promise.all(
        [demo, operator].map((t) =>
          call('order/create/interception', { noType: 'orderNo', numbers: [o.orderNo], reason: 'twice' }, t),
        ),
      );
      const outcomes = both.map((r) => (r.body as any).data.results[0].outcome).sort();
      expect(outcomes).toEqual(['intercepted', 'refused']);
      const records = await recordsOf(o.id);
      expect(records).toHaveLength(1);
      const cancels = await Promise.all(
        [demo, operator].map((t) => call('order/cancel/interception', { id: records[0]!.id, cancelReason: 'go' }, t)),
      );
      expect(cancels.map((r) => r.status).sort()).toEqual([200, 409]);
      expect((await orderRow(o.id))!.intercepted).toBe(0);
      expect(await eventsOf(o.id)).toEqual(['intercepted', 'interceptionCancelled']);
    }
  });
});

describe('events shown', () => {
  it('public tracking shows the interception and its cancellation, never reasons or office events', async () => {
    const o = await newOrder();
    const c = await post(
      'order/create/interception',
      { noType: 'orderNo', numbers: [o.orderNo], reason: 'SECRET-REASON' },
      demo,
    );
    await post(
      'order/cancel/interception',
      { id: c.body.data.results[0].interceptionId, cancelReason: 'SECRET-CANCEL' },
      demo,
    );
    await h.db
      .transaction()
      .execute((trx) =>
        transition(trx, 'flagError', [o.id], { at: new Date().toISOString(), by: null, reason: 'errorReason.x' }),
      );
    const t = await h.post('order/tracking', { waybillNos: [o.waybillNo] }, undefined, en);
    const kinds = t.body.data[0].events.map((e: any) => e.kind);
    expect(kinds).toEqual(['created', 'intercepted', 'interceptionCancelled']);
    expect(JSON.stringify(t.body)).not.toMatch(/SECRET/);
    // The owner's detail has every event with its note.
    const d = await post('order/order', { id: o.id }, demo);
    expect(d.body.data.events.map((e: any) => [e.kind, e.note])).toEqual([
      ['created', null],
      ['intercepted', 'SECRET-REASON'],
      ['interceptionCancelled', 'SECRET-CANCEL'],
      ['errorFlagged', 'errorReason.x'],
    ]);
  });
});

describe('header badges', () => {
  it('count the live error and abnormal flags of the caller’s orders, not cancelled ones', async () => {
    const total = async (path: string, token: string) =>
      (await post(path, { offset: 0, limit: 1, order: 'desc' }, token)).body.data.total as number;
    const count = async (customerId: number, col: 'error_at' | 'abnormal_at') =>
      Number(
        (
          await h.db
            .selectFrom('orders')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('customer_id', '=', customerId)
            .where(col, 'is not', null)
            .where('status', '!=', 'cancelled')
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await total('order/error', demo)).toBe(await count(demoId, 'error_at'));
    expect(await total('order/abnormal', demo)).toBe(await count(demoId, 'abnormal_at'));
    expect(await total('order/error', demo2)).toBe(await count(demo2Id, 'error_at'));
    expect(await total('order/error', operator)).toBe(
      (await count(demoId, 'error_at')) + (await count(demo2Id, 'error_at')),
    );

    const [e2Before, eBefore] = [await total('order/error', demo2), await total('order/error', demo)];
    const o = await newOrder();
    const at = new Date().toISOString();
    await h.db.transaction().execute((trx) => transition(trx, 'flagError', [o.id], { at, by: null, reason: 'x' }));
    expect(await total('order/error', demo)).toBe(eBefore + 1);
    expect(await total('order/error', demo2)).toBe(e2Before);
    await h.db.transaction().execute((trx) => transition(trx, 'cancel', [o.id], { at, by: null }));
    expect(await total('order/error', demo)).toBe(eBefore);
    const stats = await post('order/stats', {}, demo);
    expect(stats.body.data.errors).toBe(eBefore);
  });
});

describe('abnormal rule switches', () => {
  it('lists the rules with their switch; only operators switch; a rule off is not applied on create', async () => {
    const rules = await post('validateAbnormalRule/selectAllRule', {}, demo);
    expect(rules.body.data.map((r: any) => [r.code, r.enabled])).toEqual([
      ['unresolvableAddress', true],
      ['invalidPhone', true],
      ['valueOverLimit', true],
      ['sameRecipientTooOften', true],
    ]);
    expect((await post('validateAbnormalRule/updateRule', { code: 'invalidPhone', enabled: false }, demo)).status).toBe(
      403,
    );
    expect((await post('validateAbnormalRule/updateRule', { code: 'nope', enabled: false }, operator)).status).toBe(
      422,
    );

    const badPhone = { ...validRecipient, phone: '0312345678', idCard: idCard('19850505', '330106', '417') };
    const off = await post('validateAbnormalRule/updateRule', { code: 'invalidPhone', enabled: false }, operator);
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body.data).toMatchObject({ code: 'invalidPhone', enabled: false });
    expect((await post('validateAbnormalRule/selectAllRule', {}, operator)).body.data[1].enabled).toBe(false);
    const quiet = await newOrder(demo, { recipient: badPhone });
    expect(
      await h.db.selectFrom('orders').select('abnormal_rule').where('id', '=', quiet.id).executeTakeFirstOrThrow(),
    ).toEqual({ abnormal_rule: null });

    await post('validateAbnormalRule/updateRule', { code: 'invalidPhone', enabled: true }, operator);
    const caught = await newOrder(demo, { recipient: badPhone });
    const row = await h.db
      .selectFrom('orders')
      .select('abnormal_rule')
      .where('id', '=', caught.id)
      .executeTakeFirstOrThrow();
    expect(row.abnormal_rule?.split(',')).toContain('invalidPhone');
  });

  it('batch import applies the switched-on rules per row and leaves out a switched-off one', async () => {
    const tpl = await template(h, demo, 'download/importOrder');
    const person = idCard('19770707', '310104', '518');
    const importRows = async (tag: string) => {
      const rows = Array.from({ length: 6 }, (_, i) =>
        baseRow(i + 1, { orderNo: `AB${tag}-${i}`, recipientIdCard: person }),
      );
      const up = await upload(
        h,
        'order/batch/createImport',
        demo,
        { channel: 'JP' },
        { name: 'o.xlsx', data: await fill(tpl, rows) },
      );
      expect(up.status, JSON.stringify(up.body)).toBe(200);
      const p = await settle(h, demo, up.body.data.id);
      expect(p).toMatchObject({ status: 'preview', invalidRows: 0 });
      const c = await post('order/batch/confirm', { id: p.id, confirmations: p.confirmations ?? [] }, demo);
      expect(c.status, JSON.stringify(c.body)).toBe(200);
      expect(await settle(h, demo, p.id)).toMatchObject({ status: 'done' });
      return h.db
        .selectFrom('orders')
        .select(['order_no', 'abnormal_rule', 'abnormal_reason'])
        .where('batch_id', '=', p.id)
        .orderBy('order_no')
        .execute();
    };
    await post('validateAbnormalRule/updateRule', { code: 'sameRecipientTooOften', enabled: false }, operator);
    const quiet = await importRows(`Q${Date.now()}`);
    expect(quiet.map((r) => r.abnormal_rule)).toEqual([null, null, null, null, null, null]);

    await post('validateAbnormalRule/updateRule', { code: 'sameRecipientTooOften', enabled: true }, operator);
    const caught = await importRows(`C${Date.now()}`);
    // Six earlier orders of the same person this week (the first import): every row is caught.
    expect(caught.every((r) => r.abnormal_rule === 'sameRecipientTooOften')).toBe(true);
    const list = await post('order/abnormal', { limit: 500 }, demo);
    const shown = list.body.data.list.find((r: any) => r.orderNo === caught[0]!.order_no);
    expect(shown.abnormalReason).toMatch(/\d+ orders? .*7 days|same/i);
  });
});

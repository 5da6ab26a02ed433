import { beforeAll, describe, expect, it } from 'vitest';
import { refusal, RULES, type Transition, transition } from '../src/domain/order-life.ts';
import { createHarness, type Harness } from './harness.ts';

/**
 * The order-life module (issue 13): every transition from every state, table-driven. The
 * expectations are written out here, not read from RULES, so a change to the rules fails here.
 */
let h: Harness;
let orderId: number;
let batchOrders: number[];
let batchId: number;
let userId: number;

beforeAll(async () => {
  h = await createHarness();
  const o = await h.db
    .selectFrom('orders')
    .select(['id'])
    .where('batch_id', 'is', null)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  orderId = o.id;
  userId = (await h.db.selectFrom('users').select('id').where('name', '=', 'operator').executeTakeFirstOrThrow()).id;
  const b = await h.db
    .selectFrom('orders')
    .select(['batch_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('batch_id', 'is not', null)
    .groupBy('batch_id')
    .having((eb) => eb.fn.countAll(), '>=', 2)
    .orderBy('batch_id')
    .executeTakeFirstOrThrow();
  batchId = b.batch_id!;
  batchOrders = (await h.db.selectFrom('orders').select('id').where('batch_id', '=', batchId).execute()).map(
    (r) => r.id,
  );
});

const STATUSES = ['created', 'printed', 'received', 'shipped', 'released', 'cancelled'] as const;
type Status = (typeof STATUSES)[number];
const live = (s: Status) => s !== 'cancelled';
const beforeShip = (s: Status) => s === 'created' || s === 'printed';

/** Allowed moves, written out (spec §4 and issue 13). */
const ALLOWED: Record<Transition, (s: Status, intercepted: boolean, error: boolean) => boolean> = {
  print: (s, i, e) => beforeShip(s) && !i && !e,
  receive: (s, i) => beforeShip(s) && !i,
  ship: (s, i, e) => s === 'received' && !i && !e,
  release: (s, i) => s === 'shipped' && !i,
  cancel: (s, i) => beforeShip(s) && !i,
  intercept: (s, i) => (beforeShip(s) || s === 'received') && !i,
  cancelInterception: (s, i) => (beforeShip(s) || s === 'received') && i,
  flagError: (s) => live(s),
  clearError: (s, _i, e) => live(s) && e,
};

/** What each move leaves, written out. */
const AFTER: Record<Transition, (s: Status) => { status: Status; intercepted?: number; error?: boolean }> = {
  print: () => ({ status: 'printed' }),
  receive: () => ({ status: 'received' }),
  ship: () => ({ status: 'shipped' }),
  release: () => ({ status: 'released', error: false }),
  cancel: () => ({ status: 'cancelled' }),
  intercept: (s) => ({ status: s, intercepted: 1 }),
  cancelInterception: (s) => ({ status: s, intercepted: 0 }),
  flagError: (s) => ({ status: s, error: true }),
  clearError: (s) => ({ status: s, error: false }),
};

const EVENT: Record<Transition, string> = {
  print: 'printed',
  receive: 'received',
  ship: 'shipped',
  release: 'released',
  cancel: 'cancelled',
  intercept: 'intercepted',
  cancelInterception: 'interceptionCancelled',
  flagError: 'errorFlagged',
  clearError: 'errorFixed',
};

const cases: [Transition, Status, boolean, boolean][] = [];
for (const t of Object.keys(ALLOWED) as Transition[])
  for (const s of STATUSES) for (const i of [false, true]) for (const e of [false, true]) cases.push([t, s, i, e]);

describe('order life: every transition from every state', () => {
  it('covers each transition the module has', () => {
    expect(Object.keys(RULES).sort()).toEqual(Object.keys(ALLOWED).sort());
  });

  it.each(cases)('%s from %s (intercepted %s, error %s)', async (t, status, intercepted, error) => {
    const at0 = '2026-11-24T00:00:00.000Z';
    await h.db
      .updateTable('orders')
      .set({
        status,
        intercepted: intercepted ? 1 : 0,
        error_at: error ? at0 : null,
        error_reason: error ? 'E01' : null,
        print_count: 0,
        push_s: 1,
      })
      .where('id', '=', orderId)
      .execute();
    const events = async () =>
      await h.db
        .selectFrom('tracking_events')
        .select(['kind', 'note', 'created_by', 'location'])
        .where('order_id', '=', orderId)
        .orderBy('id')
        .execute();
    const before = await events();
    const at = '2026-11-24T01:02:03.000Z';
    const r = await h.db
      .transaction()
      .execute((trx) => transition(trx, t, [orderId], { at, by: userId, location: 'Osaka', reason: 'E42' }));
    const o = await h.db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
    const after = await events();
    const state = { status, intercepted: intercepted ? 1 : 0, error_at: error ? at0 : null };
    if (ALLOWED[t](status, intercepted, error)) {
      expect(r.done).toEqual([orderId]);
      expect(r.refused).toEqual([]);
      expect(refusal(state, t)).toBeNull();
      const want = AFTER[t](status);
      expect(o.status).toBe(want.status);
      if (want.intercepted !== undefined) expect(o.intercepted).toBe(want.intercepted);
      if (want.error !== undefined) expect(o.error_at !== null).toBe(want.error);
      if (t === 'flagError') expect(o.error_reason).toBe('E42');
      if (t === 'clearError') expect(o.push_s).toBe(0);
      if (t === 'print') expect(o.print_count).toBe(1);
      if (t === 'receive') expect(o.received_at).toBe(at);
      if (t === 'ship') expect(o.shipped_at).toBe(at);
      expect(o.updated_at).toBe(at);
      // Exactly one event, with who and where.
      expect(after.length).toBe(before.length + 1);
      expect(after.at(-1)).toMatchObject({ kind: EVENT[t], created_by: userId, location: 'Osaka' });
    } else {
      expect(r.done).toEqual([]);
      const key = refusal(state, t);
      expect(key).not.toBeNull();
      expect(r.refused).toEqual([{ id: orderId, orderNo: o.order_no, key }]);
      expect(o.status).toBe(status);
      expect(o.intercepted).toBe(intercepted ? 1 : 0);
      expect(o.error_at !== null).toBe(error);
      expect(after.length).toBe(before.length);
    }
  });
});

describe('order life: reasons and batches', () => {
  it('tells "not yet" from "already" and names a missing order', async () => {
    expect(refusal({ status: 'created', intercepted: 0, error_at: null }, 'ship')).toBe('lifeNotYet_received');
    expect(refusal({ status: 'shipped', intercepted: 0, error_at: null }, 'receive')).toBe('lifeAlready_shipped');
    expect(refusal({ status: 'received', intercepted: 0, error_at: 'x' }, 'ship')).toBe('lifeErrorOrder');
    expect(refusal({ status: 'received', intercepted: 1, error_at: null }, 'ship')).toBe('lifeIntercepted');
    const r = await h.db
      .transaction()
      .execute((trx) => transition(trx, 'ship', [999_999_999], { at: '2026-11-24T00:00:00.000Z', by: null }));
    expect(r.refused).toEqual([{ id: 999_999_999, orderNo: null, key: 'orderNotFound' }]);
  });

  it('clearError by hand writes an errorCleared event with the note; a fix writes errorFixed', async () => {
    for (const byHand of [true, false]) {
      await h.db
        .updateTable('orders')
        .set({ status: 'shipped', intercepted: 0, error_at: '2026-11-24T00:00:00.000Z', error_reason: 'E1', push_s: 1 })
        .where('id', '=', orderId)
        .execute();
      const at = '2026-11-24T04:00:00.000Z';
      const r = await h.db
        .transaction()
        .execute((trx) => transition(trx, 'clearError', [orderId], { at, by: userId, note: 'why', byHand }));
      expect(r.done).toEqual([orderId]);
      const last = await h.db
        .selectFrom('tracking_events')
        .select(['kind', 'note'])
        .where('order_id', '=', orderId)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(last).toEqual({ kind: byHand ? 'errorCleared' : 'errorFixed', note: 'why' });
      const o = await h.db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
      expect([o.error_at, o.push_s]).toEqual([null, 0]);
    }
  });

  it("receiving keeps the batch's receive status: none → partial → all", async () => {
    await h.db
      .updateTable('orders')
      .set({ status: 'created', intercepted: 0, received_at: null, error_at: null })
      .where('batch_id', '=', batchId)
      .execute();
    const at = '2026-11-24T02:00:00.000Z';
    const first = await h.db
      .transaction()
      .execute((trx) => transition(trx, 'receive', [batchOrders[0]!], { at, by: userId }));
    expect(first.batches).toEqual([{ batchId, receiveStatus: 'partial' }]);
    const rest = await h.db
      .transaction()
      .execute((trx) => transition(trx, 'receive', batchOrders.slice(1), { at, by: userId }));
    expect(rest.batches).toEqual([{ batchId, receiveStatus: 'all' }]);
    const b = await h.db
      .selectFrom('batches')
      .select('receive_status')
      .where('id', '=', batchId)
      .executeTakeFirstOrThrow();
    expect(b.receive_status).toBe('all');
  });

  it('a receive and an interception of one order at the same moment leave one consistent state', async () => {
    for (let i = 0; i < 20; i++) {
      await h.db
        .updateTable('orders')
        .set({ status: 'created', intercepted: 0, received_at: null, error_at: null })
        .where('id', '=', orderId)
        .execute();
      await h.db.deleteFrom('tracking_events').where('order_id', '=', orderId).execute();
      const at = `2026-11-24T03:00:${String(i).padStart(2, '0')}.000Z`;
      const [rec, icp] = await Promise.all([
        h.db.transaction().execute((trx) => transition(trx, 'receive', [orderId], { at, by: userId })),
        h.db.transaction().execute((trx) => transition(trx, 'intercept', [orderId], { at, by: userId })),
      ]);
      expect(icp.done).toEqual([orderId]); // an interception before shipping always holds
      const o = await h.db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
      const kinds = (
        await h.db.selectFrom('tracking_events').select('kind').where('order_id', '=', orderId).orderBy('id').execute()
      ).map((e) => e.kind);
      expect(o.intercepted).toBe(1);
      if (rec.done.length) {
        expect(o.status).toBe('received');
        expect(kinds).toEqual(['received', 'intercepted']);
      } else {
        expect(rec.refused[0]!.key).toBe('lifeIntercepted');
        expect(o.status).toBe('created');
        expect(kinds).toEqual(['intercepted']);
      }
    }
  });
});

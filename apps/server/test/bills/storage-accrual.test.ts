import { beforeAll, describe, expect, it } from 'vitest';
import { fromMinor, toMinor } from '../../src/domain/pricing/charge-amounts.ts';
import { type NewCharge, writeCharges } from '../../src/domain/pricing/charges.ts';
import { transition } from '../../src/domain/order-life.ts';
import { accrueStorage } from '../../src/modules/bills/storage-accrual.ts';
import { createHarness, type Harness } from '../harness.ts';
import { cloneOrders } from '../support/orders.ts';

/**
 * Storage accrues by China month (issue 17): the job charges the closed months of parcels still
 * in the warehouse (an intercepted one included, which may never ship), each line in its
 * month's statement (or the next open one once that is issued); running it again, or two runs at
 * once, writes nothing twice; shipping later adds only the months not charged yet; an order
 * charged storage the old way (one `storage:<order>` line) is not charged again. Dates are in
 * 2031 so the seeded statements (issued up to this month) are not in the way.
 */
let h: Harness;
let operator: string;
let demo: string;
let demoId: number;
let operatorId: number;
const post = (path: string, body: unknown, token: string) => h.post(path, body, token, { 'accept-language': 'en' });

beforeAll(async () => {
  h = await createHarness();
  [operator, demo] = await Promise.all(['operator', 'demo'].map((n) => h.login(n)));
  demoId = (await h.db.selectFrom('customers').select('id').where('code', '=', 'DEMO').executeTakeFirstOrThrow()).id;
  operatorId = (await h.db.selectFrom('users').select('id').where('name', '=', 'operator').executeTakeFirstOrThrow())
    .id;
  // demo's own card: 10 free days, then 50 a day; no other fees, so storage is what the tests see.
  const card = await post(
    'rateCards/save',
    {
      channelCode: 'JP',
      customerId: demoId,
      effectiveFrom: '2030-01-01',
      rules: { firstWeightG: 500, firstPrice: 1200, storageFreeDays: 10, storagePerDay: 50 },
    },
    operator,
  );
  expect(card.status).toBe(200);
});

/** A fresh JP order of demo received at `receivedAt` (copied from a seeded one). */
async function received(receivedAt: string) {
  const [{ id }] = await cloneOrders(h.db, demoId, 1, 'AC', {
    channel: 'JP',
    over: { gross_weight_g: 400, recipient_province: '浙江省', tax_estimate: null },
  });
  await move('receive', [id], receivedAt);
  return id;
}
async function move(t: Parameters<typeof transition>[1], ids: number[], at: string) {
  const r = await h.db.transaction().execute((trx) => transition(trx, t, ids, { at, by: operatorId }));
  expect(r.done).toEqual(ids);
}
async function storageOf(id: number) {
  const rows = await h.db
    .selectFrom('charges as c')
    .innerJoin('bills as b', 'b.id', 'c.bill_id')
    .select(['c.charge_key', 'c.amount_minor', 'c.at', 'b.period'])
    .where('c.order_id', '=', id)
    .where('c.kind', '=', 'storage')
    .orderBy('c.charge_key')
    .execute();
  return rows.map((r) => ({
    key: r.charge_key.replace(`storage:${id}`, ''),
    amount: Number(r.amount_minor),
    at: new Date(r.at).toISOString(),
    bill: r.period,
  }));
}
const storageCount = async () =>
  Number(
    (
      await h.db
        .selectFrom('charges')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('kind', '=', 'storage')
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('the storage accrual job', () => {
  let intercepted: number;
  let held: number;
  let old: number;
  it('charges the closed months of orders still held, an intercepted one included, each in its month', async () => {
    // China 12:00 Apr 10: 40 days before China 12:00 May 20. 20 days complete in April, 10 free.
    intercepted = await received('2031-04-10T04:00:00.000Z');
    await move('intercept', [intercepted], '2031-04-12T04:00:00.000Z');
    // China 12:00 Mar 1: 30 days complete in March (20 billable), 30 more in April.
    held = await received('2031-03-01T04:00:00.000Z');
    // Received this month: nothing closed yet.
    const fresh = await received('2031-05-02T04:00:00.000Z');
    // Charged the old way (one line at shipping): never charged again.
    old = await received('2031-02-01T04:00:00.000Z');
    await h.db
      .insertInto('charges')
      .values({
        bill_id: (
          await h.db
            .insertInto('bills')
            .values({
              customer_id: demoId,
              period: '2031-02',
              status: 'open',
              created_at: '2031-02-28T00:00:00.000Z',
              updated_at: '2031-02-28T00:00:00.000Z',
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
        customer_id: demoId,
        order_id: old,
        kind: 'storage',
        charge_key: `storage:${old}`,
        amount_minor: '100',
        currency: 'JPY',
        weight_g: null,
        rate_card_id: null,
        reason: null,
        corrects_id: null,
        at: '2031-02-28T00:00:00.000Z',
        created_by: null,
      })
      .execute();

    const written = await accrueStorage(h.db, new Date('2031-05-20T04:00:00.000Z'));
    expect(await storageOf(intercepted)).toEqual([
      { key: ':2031-04', amount: 10 * 50, at: '2031-04-30T15:59:59.999Z', bill: '2031-04' },
    ]);
    expect(await storageOf(held)).toEqual([
      { key: ':2031-03', amount: 20 * 50, at: '2031-03-31T15:59:59.999Z', bill: '2031-03' },
      { key: ':2031-04', amount: 30 * 50, at: '2031-04-30T15:59:59.999Z', bill: '2031-04' },
    ]);
    expect(await storageOf(fresh)).toEqual([]);
    expect((await storageOf(old)).map((c) => c.key)).toEqual(['']);
    // Seeded orders still in storage were received before 2031: their closed months too.
    expect(written).toBeGreaterThanOrEqual(3);

    const before = await storageCount();
    expect(await accrueStorage(h.db, new Date('2031-05-20T04:00:00.000Z'))).toBe(0);
    expect(await accrueStorage(h.db, new Date('2031-05-31T15:59:59.000Z'))).toBe(0);
    expect(await storageCount()).toBe(before);
  });

  it('two runs at once write each month once', async () => {
    const ids = [
      await received('2031-01-05T04:00:00.000Z'),
      await received('2031-01-20T04:00:00.000Z'),
      await received('2031-02-10T04:00:00.000Z'),
    ];
    const before = await storageCount();
    const at = new Date('2031-06-02T04:00:00.000Z');
    const runs = await Promise.all([accrueStorage(h.db, at), accrueStorage(h.db, at), accrueStorage(h.db, at)]);
    const after = await storageCount();
    expect(runs.reduce((a, n) => a + n, 0)).toBe(after - before);
    for (const id of ids) {
      const lines = await storageOf(id);
      expect(new Set(lines.map((l) => l.key)).size).toBe(lines.length);
      // Every closed month from the first billable one to May.
      expect(lines.at(-1)!.key).toBe(':2031-05');
    }
    // January 5 (China 12:00): 26 days complete in January, 10 free.
    expect((await storageOf(ids[0]!))[0]).toMatchObject({ key: ':2031-01', amount: 16 * 50 });
  });

  it('shipping later adds only the months not charged yet, the current one to the shipping time', async () => {
    // The job of June 1 closes May.
    await accrueStorage(h.db, new Date('2031-06-01T04:00:00.000Z'));
    // May 1 00:00 to Jun 1 00:00 China: days 21..51 complete: 31 billable.
    expect((await storageOf(intercepted)).map((c) => [c.key, c.amount])).toEqual([
      [':2031-04', 500],
      [':2031-05', 31 * 50],
    ]);
    await move('cancelInterception', [intercepted], '2031-06-02T04:00:00.000Z');
    // China 12:00 Jun 3: 54 days in all, 44 billable; 41 were charged.
    await move('ship', [intercepted], '2031-06-03T04:00:00.000Z');
    expect(await storageOf(intercepted)).toEqual([
      { key: ':2031-04', amount: 500, at: '2031-04-30T15:59:59.999Z', bill: '2031-04' },
      { key: ':2031-05', amount: 31 * 50, at: '2031-05-31T15:59:59.999Z', bill: '2031-05' },
      { key: ':2031-06', amount: 3 * 50, at: '2031-06-03T04:00:00.000Z', bill: '2031-06' },
    ]);
    // Shipped: the job leaves it alone.
    const n = await storageCount();
    await accrueStorage(h.db, new Date('2031-08-01T04:00:00.000Z'));
    expect((await storageOf(intercepted)).length).toBe(3);
    expect(await storageCount()).toBeGreaterThan(n); // the others still held did accrue
  });

  it('an order charged storage the old way ships without another storage line', async () => {
    await move('ship', [old], '2031-06-05T04:00:00.000Z');
    expect((await storageOf(old)).map((c) => [c.key, c.amount])).toEqual([['', 100]]);
    const freight = await h.db
      .selectFrom('charges')
      .select('amount_minor')
      .where('charge_key', '=', `freight:${old}`)
      .executeTakeFirstOrThrow();
    expect(Number(freight.amount_minor)).toBe(1200);
  });

  it('shipping before the job ran writes every month, each in its month', async () => {
    const id = await received('2031-09-01T04:00:00.000Z');
    await move('ship', [id], '2031-11-15T04:00:00.000Z');
    // China 12:00 Sep 1: 29 days complete in September (30 days long), 19 billable; 31 in
    // October; 15 by China 12:00 Nov 15 (75 in all, 65 billable).
    expect((await storageOf(id)).map((c) => [c.key, c.amount, c.bill])).toEqual([
      [':2031-09', 19 * 50, '2031-09'],
      [':2031-10', 31 * 50, '2031-10'],
      [':2031-11', 15 * 50, '2031-11'],
    ]);
  });

  it('a closed month whose statement was issued goes to the next open one: a new line, the issued one unchanged', async () => {
    const id = await received('2031-12-01T04:00:00.000Z');
    const [dec] = (await post('bills', { customerId: demoId, period: '2031-12', limit: 10 }, operator)).body.data
      .list as any[];
    const decBill =
      dec ??
      (await h.db
        .insertInto('bills')
        .values({
          customer_id: demoId,
          period: '2031-12',
          status: 'open',
          created_at: '2031-12-01T00:00:00.000Z',
          updated_at: '2031-12-01T00:00:00.000Z',
        })
        .returning('id')
        .executeTakeFirstOrThrow());
    expect((await post('bill/issue', { id: decBill.id }, operator)).status).toBe(200);
    const issuedBefore = (await post('bills', { customerId: demoId, period: '2031-12' }, operator)).body.data.list[0];
    await accrueStorage(h.db, new Date('2032-01-10T04:00:00.000Z'));
    expect(await storageOf(id)).toEqual([
      { key: ':2031-12', amount: 20 * 50, at: '2031-12-31T15:59:59.999Z', bill: '2032-01' },
    ]);
    const issuedAfter = (await post('bills', { customerId: demoId, period: '2031-12' }, operator)).body.data.list[0];
    expect(issuedAfter).toEqual(issuedBefore);
  });

  it('two writers naming the same statements and lines in opposite orders, in parallel, both finish (no deadlock on PostgreSQL)', async () => {
    const [a, b] = [await received('2031-03-01T04:00:00.000Z'), await received('2031-03-01T04:00:00.000Z')];
    const line = (round: number, orderId: number, month: string, n: number): NewCharge => ({
      customer_id: demoId,
      order_id: orderId,
      kind: 'storage',
      charge_key: `deadlock:${round}:${n}`,
      amount_minor: 100,
      currency: 'JPY',
      at: `${2040 + round}-${month}-15T04:00:00.000Z`,
    });
    for (let round = 0; round < 5; round++) {
      // The storage job's order against a ship's: each statement and each line the other's first.
      const first = [line(round, a, '03', 1), line(round, b, '02', 2)];
      const second = [line(round, b, '02', 2), line(round, a, '03', 1)];
      const at = `${2040 + round}-03-20T04:00:00.000Z`;
      const written = await Promise.all(
        [first, second].map((lines) => h.db.transaction().execute((trx) => writeCharges(trx, lines, at, null))),
      );
      expect(written.flat()).toHaveLength(2);
      const rows = await h.db
        .selectFrom('charges as c')
        .innerJoin('bills as b', 'b.id', 'c.bill_id')
        .select(['c.charge_key', 'b.period'])
        .where('c.charge_key', 'like', `deadlock:${round}:%`)
        .orderBy('c.charge_key')
        .execute();
      expect(rows).toEqual([
        { charge_key: `deadlock:${round}:1`, period: `${2040 + round}-03` },
        { charge_key: `deadlock:${round}:2`, period: `${2040 + round}-02` },
      ]);
    }
  });

  it('every statement total still equals the sum of its lines', async () => {
    const bills = (await post('bills', { customerId: demoId, limit: 500 }, operator)).body.data.list as any[];
    expect(bills.filter((b) => b.period.startsWith('2031')).length).toBeGreaterThanOrEqual(6);
    for (const b of bills) {
      const lines: any[] = [];
      for (let offset = 0; ; offset += 500) {
        const r = await post('bill/lines', { id: b.id, offset, limit: 500, order: 'asc' }, demo);
        expect(r.status).toBe(200);
        lines.push(...r.body.data.list);
        if (lines.length >= r.body.data.total) break;
      }
      expect(lines).toHaveLength(b.lines);
      const jpy = lines.filter((l) => l.currency === 'JPY').reduce((a, l) => a + toMinor(l.amount, 0), 0n);
      expect(b.totals.find((t: any) => t.currency === 'JPY')?.amount ?? '0').toBe(fromMinor(jpy, 0));
    }
  });
});

describe('the job in the app', () => {
  it('runs once at start (STORAGE_ACCRUAL_HOURS) and stops with the app', async () => {
    const started = await createHarness({
      env: { STORAGE_ACCRUAL_HOURS: '24' },
      now: new Date('2031-05-20T04:00:00.000Z'),
    });
    const held = await started.db
      .selectFrom('orders')
      .select('id')
      .where('status', '=', 'received')
      .where('received_at', 'is not', null)
      .execute();
    expect(held.length).toBeGreaterThan(0);
    // The start run is not awaited by the start: wait for its lines.
    let keys: string[] = [];
    for (let i = 0; i < 100; i++) {
      keys = (await started.db.selectFrom('charges').select('charge_key').where('kind', '=', 'storage').execute()).map(
        (c) => c.charge_key,
      );
      if (held.every((o) => keys.includes(`storage:${o.id}:2031-04`))) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    for (const o of held) expect(keys).toContain(`storage:${o.id}:2031-04`);
    await started.app.close();
  });
});

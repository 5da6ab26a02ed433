import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { fromMinor, toCnyFen, toMinor } from '../../src/domain/pricing/charge-amounts.ts';
import { chargeRelabel, chargeShipment } from '../../src/domain/pricing/charges.ts';
import { transition } from '../../src/domain/order-life.ts';
import { createHarness, type Harness } from '../harness.ts';
import { aes, outsider } from '../items/helpers.ts';
import { validRecipient } from '../support/orders.ts';

/**
 * Bills (issue 17) through the API on a real database: charges written by the ship and
 * intercept moves (once, also under parallel ship requests), the relabel hook, rate card
 * overrides and effective dates, adjustments as new lines, statement totals equal to their
 * lines in every currency and in CNY, statuses, the workbook, and the tenant matrix.
 */
let h: Harness;
let demo: string;
let demo2: string;
let agent: string;
let operator: string;
let demoId: number;
let demo2Id: number;
let operatorId: number;
const en = { 'accept-language': 'en' };
const post = (path: string, body: unknown, token: string) => h.post(path, body, token, en);

beforeAll(async () => {
  h = await createHarness();
  [demo, demo2, agent, operator] = await Promise.all(['demo', 'demo2', 'agent', 'operator'].map((n) => h.login(n)));
  const ids = await h.db.selectFrom('customers').select(['id', 'code']).execute();
  demoId = ids.find((c) => c.code === 'DEMO')!.id;
  demo2Id = ids.find((c) => c.code === 'DEMO2')!.id;
  operatorId = (await h.db.selectFrom('users').select('id').where('name', '=', 'operator').executeTakeFirstOrThrow())
    .id;
});

let n = 0;
/** A new JP order through the API, then received in the warehouse with a gross weight. */
async function receivedOrder(
  token = demo,
  o: { weight?: number | null; province?: string; tax?: string | null; receivedAt?: string } = {},
) {
  n += 1;
  const r = await post(
    'order/createImport',
    {
      channel: 'JP',
      orderNo: `BIL${Date.now().toString(36).toUpperCase()}${n}`,
      userRefNo: `BREF-${n}-${Date.now()}`,
      recipient: validRecipient,
      sender: { name: 'DEMO Trading', address: 'Tokyo', phone: '03-1234-5678' },
      items: [{ jan: '4901234567894', name: '明治 奶粉', quantity: 1, unitPrice: '1500' }],
      confirm: ['minorId', 'crossBorderLimit', 'multiplePricesPerJan'],
    },
    token,
  );
  if (r.status !== 200) throw new Error(`create failed: ${JSON.stringify(r.body)}`);
  const id = r.body.data.id as number;
  const at = o.receivedAt ?? new Date().toISOString();
  await h.db.transaction().execute(async (trx) => {
    await transition(trx, 'print', [id], { at, by: operatorId });
    await transition(trx, 'receive', [id], { at, by: operatorId });
  });
  await h.db
    .updateTable('orders')
    .set({
      gross_weight_g: o.weight === undefined ? 1200 : o.weight,
      recipient_province: o.province ?? validRecipient.province,
      tax_estimate: o.tax === undefined ? null : o.tax,
      received_at: at,
    })
    .where('id', '=', id)
    .execute();
  return id;
}

const ship = (ids: number[], at = new Date().toISOString()) =>
  h.db.transaction().execute((trx) => transition(trx, 'ship', ids, { at, by: operatorId }));
const chargesOf = (orderId: number) =>
  h.db
    .selectFrom('charges')
    .select(['kind', 'amount_minor', 'currency', 'bill_id', 'rate_card_id'])
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute()
    .then((rows) => rows.map((r) => ({ ...r, amount_minor: Number(r.amount_minor) })));

async function allLines(id: number, token: string) {
  const out: any[] = [];
  for (let offset = 0; ; offset += 500) {
    const r = await post('bill/lines', { id, offset, limit: 500, order: 'asc' }, token);
    expect(r.status).toBe(200);
    out.push(...r.body.data.list);
    if (out.length >= r.body.data.total) return out;
  }
}
async function allBills(token: string, filters: Record<string, unknown> = {}) {
  const r = await post('bills', { limit: 500, ...filters }, token);
  expect(r.status).toBe(200);
  return r.body.data as { total: number; list: any[] };
}

describe('seeded bills', () => {
  it('each customer sees its own statements with the charges of its shipped orders', async () => {
    for (const [token, customerId] of [
      [demo, demoId],
      [demo2, demo2Id],
    ] as const) {
      const { list } = await allBills(token);
      expect(list.length).toBeGreaterThan(0);
      expect(list.every((b) => b.customerId === customerId)).toBe(true);
      const shipped = await h.db
        .selectFrom('orders')
        .select('id')
        .where('customer_id', '=', customerId)
        .where('status', 'in', ['shipped', 'released'])
        .execute();
      const freight = await h.db
        .selectFrom('charges')
        .select('order_id')
        .where('customer_id', '=', customerId)
        .where('kind', '=', 'freight')
        .execute();
      expect(freight.map((f) => f.order_id).sort()).toEqual(shipped.map((s) => s.id).sort());
    }
  });
});

describe('charges on shipping', () => {
  it('freight by weight, remote surcharge, storage beyond the free days, tax as a CNY line', async () => {
    const at = new Date().toISOString();
    const tenDaysAgo = new Date(Date.parse(at) - 10 * 86_400_000).toISOString();
    const id = await receivedOrder(demo, {
      weight: 1200,
      province: '西藏自治区',
      tax: '12.345',
      receivedAt: tenDaysAgo,
    });
    const r = await ship([id], at);
    expect(r.done).toEqual([id]);
    const rows = await chargesOf(id);
    // Storage is one line per China month: ten days may span a month end, so the parts are summed.
    const storage = rows.filter((c) => c.kind === 'storage');
    expect(storage.length).toBeGreaterThanOrEqual(1);
    expect(rows.filter((c) => c.kind !== 'storage').map((c) => [c.kind, c.amount_minor, c.currency])).toEqual([
      ['freight', 1200 + 2 * 300, 'JPY'],
      ['remote', 800, 'JPY'],
      ['tax', 1235, 'CNY'],
    ]);
    expect(storage.reduce((a, c) => a + c.amount_minor, 0)).toBe(3 * 50);
  });

  it('shipping twice charges once; charging again writes nothing', async () => {
    const id = await receivedOrder();
    await ship([id]);
    const again = await ship([id]);
    expect(again.done).toEqual([]);
    expect(again.refused[0]!.key).toBe('lifeAlready_shipped');
    await h.db.transaction().execute((trx) => chargeShipment(trx, [id], new Date().toISOString(), null));
    expect((await chargesOf(id)).map((c) => c.kind)).toEqual(['freight']);
  });

  it('parallel ship requests over the API charge each order once', async () => {
    const ids = [await receivedOrder(), await receivedOrder(demo2), await receivedOrder()];
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => aes(h, 'storageOrder/outBatch', { orderIds: ids }, operator)),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const shippedLines = answers.flatMap((a) => a.data.lines.filter((l: any) => l.outcome === 'shipped'));
    expect(shippedLines).toHaveLength(3);
    for (const id of ids) expect((await chargesOf(id)).filter((c) => c.kind === 'freight')).toHaveLength(1);
  });

  it("a customer's card overrides its channel's from its effective day; the card of the charge's day is used", async () => {
    const tomorrow = new Date(Date.now() + 8 * 3_600_000 + 86_400_000).toISOString().slice(0, 10);
    const saved = await post(
      'rateCards/save',
      {
        channelCode: 'JP',
        customerId: demoId,
        effectiveFrom: tomorrow,
        rules: { firstWeightG: 1000, firstPrice: 700, brackets: [{ upToG: null, stepG: 1000, price: 200 }] },
      },
      operator,
    );
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ customerId: demoId, currency: 'JPY', effectiveFrom: tomorrow });
    const today = await receivedOrder(demo, { weight: 2500 });
    await ship([today]);
    expect((await chargesOf(today))[0]).toMatchObject({ kind: 'freight', amount_minor: 1200 + 3 * 300 + 500 });
    const later = await receivedOrder(demo, { weight: 2500 });
    await ship([later], new Date(Date.now() + 2 * 86_400_000).toISOString());
    expect((await chargesOf(later))[0]).toMatchObject({ kind: 'freight', amount_minor: 700 + 2 * 200 });
    // demo2 still pays its own card (seeded: first price 1,000) on the same day.
    const other = await receivedOrder(demo2, { weight: 400 });
    await ship([other], new Date(Date.now() + 2 * 86_400_000).toISOString());
    expect((await chargesOf(other))[0]).toMatchObject({ kind: 'freight', amount_minor: 1000 });
  });

  it('an order without a weight pays the first weight', async () => {
    const id = await receivedOrder(demo, { weight: null });
    await ship([id]);
    expect((await chargesOf(id))[0]).toMatchObject({ kind: 'freight', amount_minor: 1200 });
  });
});

describe('interception and relabel fees', () => {
  it('an interception is charged once, however often the order is intercepted', async () => {
    const id = await receivedOrder();
    const orderNo = (await h.db.selectFrom('orders').select('order_no').where('id', '=', id).executeTakeFirstOrThrow())
      .order_no;
    const intercept = () =>
      post('order/create/interception', { noType: 'orderNo', numbers: [orderNo], reason: 'wrong item' }, demo);
    expect((await intercept()).status).toBe(200);
    await h.db
      .transaction()
      .execute((trx) => transition(trx, 'cancelInterception', [id], { at: new Date().toISOString(), by: operatorId }));
    expect((await intercept()).status).toBe(200);
    expect((await chargesOf(id)).map((c) => [c.kind, c.amount_minor])).toEqual([['interception', 500]]);
  });

  it('chargeRelabel (for the label B lane) charges each order once, also when called in parallel', async () => {
    const ids = [await receivedOrder(), await receivedOrder()];
    const at = new Date().toISOString();
    await Promise.all(
      Array.from({ length: 3 }, () => h.db.transaction().execute((trx) => chargeRelabel(trx, ids, at, operatorId))),
    );
    for (const id of ids)
      expect((await chargesOf(id)).map((c) => [c.kind, c.amount_minor])).toEqual([['relabel', 300]]);
  });
});

describe('statements', () => {
  it('totals equal the sum of their lines in every currency, and in CNY at the month rates', async () => {
    const rates = await h.db.selectFrom('currency_rates').select(['currency', 'rate_cny']).execute();
    const decimals = Object.fromEntries(
      (await h.db.selectFrom('currencies').select(['code', 'decimals']).execute()).map((c) => [c.code, c.decimals]),
    );
    const rateOf = Object.fromEntries(rates.map((r) => [r.currency, r.rate_cny]));
    const { list } = await allBills(operator);
    expect(list.length).toBeGreaterThan(2);
    for (const b of list) {
      const lines = await allLines(b.id, operator);
      expect(lines).toHaveLength(b.lines);
      const sums = new Map<string, bigint>();
      for (const l of lines)
        sums.set(l.currency, (sums.get(l.currency) ?? 0n) + toMinor(l.amount, decimals[l.currency]));
      const expected = [...sums.entries()]
        .sort(([a], [c]) => a.localeCompare(c))
        .map(([currency, v]) => ({ currency, amount: fromMinor(v, decimals[currency]) }));
      expect(b.totals).toEqual(expected);
      const cny = [...sums.entries()].reduce((a, [c, v]) => a + toCnyFen(v, decimals[c], rateOf[c]!), 0n);
      expect(b.totalCny).toBe(fromMinor(cny, 2));
    }
  });

  it('filters by period, customer and status; the chart has 12 months', async () => {
    const { list } = await allBills(operator, { customerId: demo2Id });
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((b) => b.customerId === demo2Id)).toBe(true);
    const p = list[0].period;
    expect((await allBills(operator, { period: p })).list.every((b) => b.period === p)).toBe(true);
    expect((await allBills(operator, { status: 'open' })).list.every((b) => b.status === 'open')).toBe(true);
    const months = await post('bill/months', {}, demo);
    expect(months.status).toBe(200);
    expect(months.body.data).toHaveLength(12);
    const mine = await allBills(demo);
    const byPeriod = new Map(mine.list.map((b) => [b.period, b.totalCny]));
    for (const m of months.body.data) if (byPeriod.has(m.period)) expect(m.totalCny).toBe(byPeriod.get(m.period));
  });

  it('adjustments are new signed lines with a reason; bad amounts are 422 on the field', async () => {
    const [open] = (await allBills(operator, { customerId: demoId, status: 'open' })).list;
    const before = open.totals.find((t: any) => t.currency === 'JPY')?.amount ?? '0';
    const bad = await post(
      'bill/adjust',
      { customerId: demoId, currency: 'JPY', amount: '5.5', reason: 'x' },
      operator,
    );
    expect(bad.status).toBe(422);
    expect(bad.body.data.amount[0]).toMatch(/0 decimal/);
    const zero = await post('bill/adjust', { customerId: demoId, currency: 'JPY', amount: '0', reason: 'x' }, operator);
    expect(zero.status).toBe(422);
    const other = await post(
      'bill/adjust',
      { customerId: demoId, currency: 'XXX', amount: '1', reason: 'x' },
      operator,
    );
    expect(other.status).toBe(422);
    const foreignOrder = await h.db
      .selectFrom('orders')
      .select('id')
      .where('customer_id', '=', demo2Id)
      .executeTakeFirstOrThrow();
    const wrong = await post(
      'bill/adjust',
      { customerId: demoId, orderId: foreignOrder.id, currency: 'JPY', amount: '1', reason: 'x' },
      operator,
    );
    expect(wrong.status).toBe(422);
    const freight = await h.db
      .selectFrom('charges')
      .select(['id', 'bill_id'])
      .where('customer_id', '=', demoId)
      .where('kind', '=', 'freight')
      .where('bill_id', '=', open.id)
      .executeTakeFirstOrThrow();
    const ok = await post(
      'bill/adjust',
      { customerId: demoId, correctsId: freight.id, currency: 'JPY', amount: '-300', reason: 'weighed again' },
      operator,
    );
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ kind: 'adjustment', amount: '-300', correctsId: freight.id });
    const after = (await allBills(operator, { customerId: demoId, status: 'open' })).list.find((b) => b.id === open.id);
    expect(after.totals.find((t: any) => t.currency === 'JPY').amount).toBe(String(Number(before) - 300));
    // The corrected line itself is unchanged.
    const lines = await allLines(open.id, demo);
    expect(lines.find((l) => l.id === freight.id).kind).toBe('freight');
    expect(lines.at(-1)).toMatchObject({ kind: 'adjustment', reason: 'weighed again' });
  });

  it('issue and mark paid: once each, in order; a charge after issuing goes to the next open month', async () => {
    const { list } = await allBills(operator, { customerId: demo2Id, status: 'open' });
    const open = list[0];
    expect((await post('bill/markPaid', { id: open.id }, operator)).status).toBe(409);
    const issues = await Promise.all([1, 2, 3].map(() => post('bill/issue', { id: open.id }, operator)));
    expect(issues.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect(issues.find((r) => r.status === 200)!.body.data).toMatchObject({ status: 'issued' });
    const id = await receivedOrder(demo2);
    await ship([id]);
    const [freight] = await chargesOf(id);
    const bill = await h.db
      .selectFrom('bills')
      .selectAll()
      .where('id', '=', freight!.bill_id)
      .executeTakeFirstOrThrow();
    expect(bill.status).toBe('open');
    expect(bill.period > open.period).toBe(true);
    const paid = await post('bill/markPaid', { id: open.id }, operator);
    expect(paid.status).toBe(200);
    expect(paid.body.data).toMatchObject({ status: 'paid' });
    expect(paid.body.data.paidAt).toBeTruthy();
  });

  it('downloads the statement: every line, the totals per currency and in CNY', async () => {
    const [b] = (await allBills(demo)).list;
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/bill/downloadXlsx',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${demo}`, 'accept-language': 'en' },
      payload: JSON.stringify({ id: b.id }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain(`bill-DEMO-${b.period}.xlsx`);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as never);
    const rows: unknown[][] = [];
    wb.worksheets[0]!.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
    expect(rows[0]).toEqual(['Time', 'Kind', 'Order no.', 'Weight (g)', 'Amount', 'Currency', 'Reason']);
    expect(rows).toHaveLength(1 + b.lines + b.totals.length + 1);
    const totals = rows.slice(1 + b.lines, 1 + b.lines + b.totals.length).map((r) => [r[0], r[4], r[5]]);
    expect(totals).toEqual(b.totals.map((t: any) => ['Total', t.amount, t.currency]));
    expect(rows.at(-1)!.slice(0, 1).concat(rows.at(-1)![4], rows.at(-1)![5])).toEqual([
      'Total (CNY)',
      b.totalCny,
      'CNY',
    ]);
  });
});

describe('tenant matrix', () => {
  it('a customer sees only its own bills; another customer’s id is not found', async () => {
    const mine = (await allBills(demo)).list;
    const theirs = (await allBills(demo2)).list;
    expect(mine.every((b) => b.customerId === demoId)).toBe(true);
    expect(theirs.every((b) => b.customerId === demo2Id)).toBe(true);
    const foreign = theirs[0].id;
    expect((await post('bill/lines', { id: foreign }, demo)).status).toBe(404);
    expect((await post('bill/downloadXlsx', { id: foreign }, demo)).status).toBe(404);
    // Asking for another customer by filter gives nothing, not their rows.
    expect((await allBills(demo, { customerId: demo2Id })).total).toBe(0);
    const stranger = await outsider(h, 'billstranger');
    expect((await allBills(stranger.token)).total).toBe(0);
    expect((await post('bill/lines', { id: mine[0].id }, stranger.token)).status).toBe(404);
  });

  it('an agent sees its customers’ bills; operators see all', async () => {
    const a = (await allBills(agent)).list;
    expect(new Set(a.map((b) => b.customerId))).toEqual(new Set([demoId, demo2Id]));
    expect((await allBills(operator)).total).toBeGreaterThanOrEqual(a.length);
  });

  it('customers and agents get 403 on issuing, paying, adjusting and rate cards', async () => {
    const [b] = (await allBills(demo)).list;
    const card = { channelCode: 'JP', effectiveFrom: '2030-01-01', rules: { firstWeightG: 500, firstPrice: 1 } };
    for (const token of [demo, demo2, agent]) {
      expect((await post('bill/issue', { id: b.id }, token)).status).toBe(403);
      expect((await post('bill/markPaid', { id: b.id }, token)).status).toBe(403);
      expect(
        (await post('bill/adjust', { customerId: demoId, currency: 'JPY', amount: '-1', reason: 'x' }, token)).status,
      ).toBe(403);
      expect((await post('rateCards/list', {}, token)).status).toBe(403);
      expect((await post('rateCards/save', card, token)).status).toBe(403);
    }
    expect((await post('rateCards/list', { channelCode: 'JP' }, operator)).body.data.total).toBeGreaterThan(0);
  });

  it('rate cards: brackets must rise; unknown channel and customer are 422', async () => {
    const base = { channelCode: 'JP', effectiveFrom: '2030-01-01' };
    const bad = await post(
      'rateCards/save',
      { ...base, rules: { firstWeightG: 1000, firstPrice: 1, brackets: [{ upToG: 800, stepG: 100, price: 1 }] } },
      operator,
    );
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.data)).toEqual(['rules.brackets']);
    const open = await post(
      'rateCards/save',
      {
        ...base,
        rules: {
          firstWeightG: 1000,
          firstPrice: 1,
          brackets: [
            { upToG: null, stepG: 100, price: 1 },
            { upToG: 5000, stepG: 100, price: 1 },
          ],
        },
      },
      operator,
    );
    expect(open.status).toBe(422);
    expect(
      (
        await post(
          'rateCards/save',
          { ...base, channelCode: 'NOPE', rules: { firstWeightG: 1, firstPrice: 1 } },
          operator,
        )
      ).status,
    ).toBe(422);
    expect(
      (
        await post(
          'rateCards/save',
          { ...base, customerId: 999999, rules: { firstWeightG: 1, firstPrice: 1 } },
          operator,
        )
      ).status,
    ).toBe(422);
    expect(
      (
        await post(
          'rateCards/save',
          { ...base, effectiveFrom: '2030-13-01', rules: { firstWeightG: 1, firstPrice: 1 } },
          operator,
        )
      ).status,
    ).toBe(422);
  });
});

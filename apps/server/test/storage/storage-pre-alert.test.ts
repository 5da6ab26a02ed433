import { beforeAll, describe, expect, it } from 'vitest';
import { openResponse, sealRequest } from '../aes-client.ts';
import { createHarness, type Harness, listening } from '../harness.ts';
import { aes } from '../items/helpers.ts';
import { cloneOrders } from '../support/orders.ts';

/**
 * Issue 26, finding 1: customers and agents set the weight their freight was billed by. A
 * customer's storage entry received its own parcel at 1 g, the warehouse's 20 kg scan then
 * answered `alreadyReceived` and the bill said 1,200 JPY instead of 11,100. Receiving and
 * weighing are the warehouse's: a customer's or agent's entry is a pre-alert (declared weight kept
 * apart), the operator's scan receives and weighs, and charges use the measured weight. A
 * re-weigh after receipt is the operators', audited, and re-prices a freight already charged.
 *
 * Demo's seeded JP card: first 500 g 1,200; to 2 kg each started 500 g 300; beyond, each
 * started kg 500; minimum 1,200. 20 kg: 1,200 + 3 × 300 + 18 × 500 = 11,100.
 */
let h: Harness;
let demo: string;
let agent: string;
let operator: string;
let demoId: number;
let demo2Id: number;

const take = (customerId: number, n: number) =>
  cloneOrders(h.db, customerId, n, 'PA', {
    channel: 'JP',
    over: { gross_weight_g: null, recipient_province: '浙江省', tax_estimate: null },
  });
const store = (token: string, body: Record<string, unknown>) =>
  aes(h, 'storageOrder/create', { origin: 'counter', ...body }, token);
const order = (id: number) =>
  h.db
    .selectFrom('orders')
    .select(['status', 'received_at', 'gross_weight_g', 'declared_weight_g'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
const charges = (orderId: number) =>
  h.db
    .selectFrom('charges as c')
    .innerJoin('bills as b', 'b.id', 'c.bill_id')
    .select(['c.id', 'c.kind', 'c.amount_minor', 'c.weight_g', 'c.corrects_id', 'c.reason', 'b.status', 'b.period'])
    .where('c.order_id', '=', orderId)
    .where('c.kind', 'in', ['freight', 'adjustment'])
    .orderBy('c.id')
    .execute();
const freightTotal = async (orderId: number) =>
  (await charges(orderId)).reduce((n, c) => n + Number(c.amount_minor), 0);

beforeAll(async () => {
  h = await createHarness();
  [demo, agent, operator] = await Promise.all(['demo', 'agent', 'operator'].map((n) => h.login(n)));
  const ids = await h.db
    .selectFrom('users')
    .select(['name', 'customer_id'])
    .where('name', 'in', ['demo', 'demo2'])
    .execute();
  demoId = ids.find((r) => r.name === 'demo')!.customer_id!;
  demo2Id = ids.find((r) => r.name === 'demo2')!.customer_id!;
});

describe("a customer's or agent's entry is a pre-alert", () => {
  it('the 1 g a customer declares is kept apart; the warehouse scan receives at 20 kg and the freight is 11,100', async () => {
    const [a] = await take(demoId, 1);
    const pre = await store(demo, { waybillNos: [a!.waybill_no], grossWeightsG: [1] });
    expect(pre.status).toBe(200);
    expect(pre.data.storageOrder).toMatchObject({ preAlert: true, lineCount: 1, receivedCount: 1, refusedCount: 0 });
    expect(pre.data.lines[0]).toMatchObject({
      outcome: 'preAlerted',
      ok: true,
      grossWeightG: 1,
      declaredWeightG: 1,
      measuredWeightG: null,
    });
    expect(pre.data.lines[0].message).toBe(
      `Order ${a!.order_no} is pre-alerted: the warehouse receives and weighs it.`,
    );
    // Nothing received, nothing weighed: the order waits for the warehouse.
    expect(await order(a!.id)).toMatchObject({
      status: 'created',
      received_at: null,
      gross_weight_g: null,
      declared_weight_g: 1,
    });

    const scan = await store(operator, { customerId: demoId, waybillNos: [a!.waybill_no], grossWeightsG: [20_000] });
    expect(scan.data.storageOrder.preAlert).toBe(false);
    expect(scan.data.lines[0]).toMatchObject({
      outcome: 'received',
      grossWeightG: 20_000,
      declaredWeightG: 1,
      measuredWeightG: 20_000,
    });
    expect(await order(a!.id)).toMatchObject({ status: 'received', gross_weight_g: 20_000, declared_weight_g: 1 });
    // The customer's storage order shows the declared weight beside the measured one.
    const lines = await aes(h, 'storageOrder/orders', { id: pre.data.storageOrder.id }, demo);
    expect(lines.data.list[0]).toMatchObject({ grossWeightG: 1, declaredWeightG: 1, measuredWeightG: 20_000 });

    // A customer's later entry changes neither the weight nor the receipt.
    const late = await store(demo, { waybillNos: [a!.waybill_no], grossWeightsG: [5] });
    expect(late.data.lines[0].outcome).toBe('alreadyReceived');
    expect(await order(a!.id)).toMatchObject({ gross_weight_g: 20_000, declared_weight_g: 1 });

    expect((await aes(h, 'storageOrder/outBatch', { orderIds: [a!.id] }, operator)).status).toBe(200);
    expect((await charges(a!.id)).map((c) => [c.kind, Number(c.amount_minor), c.weight_g])).toEqual([
      ['freight', 11_100, 20_000],
    ]);
  });

  it("an agent's entry pre-alerts too; receipts and pre-alerts do not mix in one storage order", async () => {
    const [b] = await take(demo2Id, 1);
    const r = await store(agent, {
      customerId: demo2Id,
      waybillNos: [b!.waybill_no, 'NOSUCHPA1'],
      grossWeightsG: [300, null],
    });
    expect(r.data.lines.map((l: any) => l.outcome)).toEqual(['preAlerted', 'notFound']);
    expect(r.data.storageOrder).toMatchObject({ preAlert: true, receivedCount: 1, refusedCount: 1 });
    expect(await order(b!.id)).toMatchObject({ status: 'created', gross_weight_g: null, declared_weight_g: 300 });
    // An operator cannot add receipts to a customer's pre-alert, nor a customer pre-alerts to a receipt.
    expect((await store(operator, { id: r.data.storageOrder.id, waybillNos: [b!.waybill_no] })).status).toBe(409);
    const op = await store(operator, { customerId: demoId, waybillNos: ['NOSUCHPA2'] });
    expect((await store(demo, { id: op.data.storageOrder.id, waybillNos: ['NOSUCHPA3'] })).status).toBe(409);
  });
});

describe('re-weigh (operators)', () => {
  const reweigh = (token: string, body: Record<string, unknown>, lang = 'en') =>
    aes(h, 'storageOrder/reweigh', body, token, lang);

  it('re-weighs a received order, audited, and re-prices the shipped freight by an adjustment line', async () => {
    const [o] = await take(demoId, 1);
    await store(operator, { customerId: demoId, waybillNos: [o!.waybill_no], grossWeightsG: [400] });
    // Before shipping: only the weight; the freight is priced by it when the order ships.
    const before = await reweigh(operator, { orderId: o!.id, grossWeightG: 1_800, reason: 'scale error' });
    expect(before.status).toBe(200);
    expect(before.data).toEqual({ orderId: o!.id, previousWeightG: 400, grossWeightG: 1_800, adjustment: null });
    await aes(h, 'storageOrder/outBatch', { orderIds: [o!.id] }, operator);
    expect(await freightTotal(o!.id)).toBe(1_200 + 3 * 300);

    const after = await reweigh(operator, { orderId: o!.id, grossWeightG: 20_000, reason: 'parcel re-weighed' });
    expect(after.status).toBe(200);
    expect(after.data.adjustment).toMatchObject({ amount: '9000', currency: 'JPY' });
    expect(await order(o!.id)).toMatchObject({ gross_weight_g: 20_000 });
    const lines = await charges(o!.id);
    expect(lines.map((c) => [c.kind, Number(c.amount_minor), c.weight_g])).toEqual([
      ['freight', 2_100, 1_800],
      ['adjustment', 9_000, 20_000],
    ]);
    expect(lines[1]!.corrects_id).toBe(lines[0]!.id);
    expect(lines[1]!.reason).toContain('parcel re-weighed');
    expect(await freightTotal(o!.id)).toBe(11_100);
    // Back down: the adjustment takes the difference from what is charged now.
    await reweigh(operator, { orderId: o!.id, grossWeightG: 450, reason: 'typo' });
    expect(await freightTotal(o!.id)).toBe(1_200);

    const audits = await h.db
      .selectFrom('audit_log')
      .select(['action', 'target', 'detail', 'user_name'])
      .where('target', '=', `order:${o!.id}`)
      .orderBy('id')
      .execute();
    expect(audits.map((a) => [a.action, a.user_name])).toEqual([
      ['order.reweigh', 'operator'],
      ['order.reweigh', 'operator'],
      ['order.reweigh', 'operator'],
    ]);
    expect(JSON.parse(audits[1]!.detail)).toMatchObject({ from: 1_800, to: 20_000, reason: 'parcel re-weighed' });
  });

  it('a freight on an issued statement is not edited: the difference goes to the open one', async () => {
    const [o] = await take(demoId, 1);
    await store(operator, { customerId: demoId, waybillNos: [o!.waybill_no], grossWeightsG: [1_000] });
    await aes(h, 'storageOrder/outBatch', { orderIds: [o!.id] }, operator);
    const [freight] = await charges(o!.id);
    const billId = (
      await h.db.selectFrom('charges').select('bill_id').where('id', '=', freight!.id).executeTakeFirstOrThrow()
    ).bill_id;
    expect((await h.post('bill/issue', { id: billId }, operator)).status).toBe(200);
    const r = await reweigh(operator, { orderId: o!.id, grossWeightG: 3_000, reason: 'late re-weigh' });
    expect(r.status).toBe(200);
    const lines = await charges(o!.id);
    expect(lines[0]).toMatchObject({ kind: 'freight', amount_minor: freight!.amount_minor, status: 'issued' });
    expect(lines[1]).toMatchObject({ kind: 'adjustment', corrects_id: freight!.id, status: 'open' });
    expect(lines[1]!.period > lines[0]!.period).toBe(true);
    expect(await freightTotal(o!.id)).toBe(1_200 + 3 * 300 + 500);
  });

  it('two re-weighs at once: the charges add up to the freight of the weight that stayed', async () => {
    const http = await listening(h.app);
    const [o] = await take(demoId, 1);
    await store(operator, { customerId: demoId, waybillNos: [o!.waybill_no], grossWeightsG: [600] });
    await aes(h, 'storageOrder/outBatch', { orderIds: [o!.id] }, operator);
    const send = (grossWeightG: number) =>
      http.post(
        'storageOrder/reweigh',
        sealRequest(operator, { orderId: o!.id, grossWeightG, reason: 'x' }),
        operator,
        {
          aes: '1',
        },
      );
    const answers = await Promise.all([5_000, 12_000, 5_000, 12_000].map(send));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    for (const a of answers) openResponse(operator, a.body);
    const { gross_weight_g } = await order(o!.id);
    const expected = gross_weight_g === 5_000 ? 1_200 + 900 + 3 * 500 : 1_200 + 900 + 10 * 500;
    expect(await freightTotal(o!.id)).toBe(expected);
  });

  it('refuses bad input with the field (422), an order not received (409), and customers and agents (403)', async () => {
    const [o, fresh] = await take(demoId, 2);
    await store(operator, { customerId: demoId, waybillNos: [o!.waybill_no] });
    for (const bad of [0, 100_001, 1.5, '20']) {
      const r = await reweigh(operator, { orderId: o!.id, grossWeightG: bad, reason: 'x' });
      expect(r.status).toBe(422);
      expect(Object.keys(r.data)).toEqual(['grossWeightG']);
    }
    const noReason = await reweigh(operator, { orderId: o!.id, grossWeightG: 100, reason: '' }, 'zh-CN');
    expect(noReason.status).toBe(422);
    expect(Object.keys(noReason.data)).toEqual(['reason']);
    const notReceived = await reweigh(operator, { orderId: fresh!.id, grossWeightG: 100, reason: 'x' });
    expect(notReceived.status).toBe(409);
    expect(notReceived.body.message).toBe('Only a received order can be re-weighed.');
    expect((await reweigh(operator, { orderId: 99_999_999, grossWeightG: 100, reason: 'x' })).status).toBe(404);
    expect((await reweigh(demo, { orderId: o!.id, grossWeightG: 100, reason: 'x' })).status).toBe(403);
    expect((await reweigh(agent, { orderId: o!.id, grossWeightG: 100, reason: 'x' })).status).toBe(403);
    expect((await order(o!.id)).gross_weight_g).toBeNull();
  });
});

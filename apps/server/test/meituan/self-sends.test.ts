import type { selfSends as C } from '@console/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness.ts';
import { aes, outsider } from '../items/helpers.ts';

/**
 * Self-sends: declared parcels, matched by inbound storage (a storage line whose code is a
 * declared tracking number marks the parcel arrived); the list's expected against arrived; the
 * tenant matrix over both calls.
 */
let h: Harness;
let demo: string;
let demo2: string;
let agent: string;
let operator: string;
let other: { customerId: number; token: string };
let ids: { demo: number; demo2: number };

const declare = (token: string, body: Partial<C.SaveSelfSendRequest> = {}, lang = 'en') =>
  h.post(
    'selfSends/save',
    { expressCompany: 'yamato', trackingNos: ['4000-1111-2222'], expectedPieces: 2, sendDate: '2026-11-20', ...body },
    token,
    { 'accept-language': lang },
  );

beforeAll(async () => {
  h = await createHarness();
  [demo, demo2, agent, operator] = await Promise.all(['demo', 'demo2', 'agent', 'operator'].map((n) => h.login(n)));
  other = await outsider(h, 'selfsendoutsider');
  const customers = await h.db.selectFrom('customers').select(['id', 'code']).execute();
  ids = { demo: customers.find((c) => c.code === 'DEMO')!.id, demo2: customers.find((c) => c.code === 'DEMO2')!.id };
});

describe('declare and list', () => {
  it('a customer declares parcels; the list shows them pending with pieces expected', async () => {
    const r = await declare(demo, { trackingNos: ['ya100200300', 'YA100200301'], remark: 'two boxes' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toMatchObject({
      customerId: ids.demo,
      expressCompany: 'yamato',
      expectedPieces: 2,
      arrivedCount: 0,
      status: 'pending',
      parcels: [
        { trackingNo: 'YA100200300', arrivedAt: null, storageNo: null },
        { trackingNo: 'YA100200301', arrivedAt: null, storageNo: null },
      ],
    });
    const list = await h.post('selfSends/list', { trackingNo: 'ya100200300' }, demo);
    expect(list.body.data.list.map((x: C.SelfSendRow) => x.id)).toEqual([r.body.data.id]);
  });

  it('a tracking number declared before, twice in one entry, or other without a name is a 422 naming the field', async () => {
    const again = await declare(demo, { trackingNos: ['YA100200300'] });
    expect(again.status).toBe(422);
    expect(again.body.data.trackingNos[0]).toBe('Tracking number YA100200300 is already declared.');
    const twice = await declare(demo, { trackingNos: ['SG1', 'sg1'].map((x) => `${x}2345`) }, 'zh-CN');
    expect(twice.status).toBe(422);
    expect(twice.body.data.trackingNos[0]).toBe('快递单号 SG12345 重复输入。');
    const other = await declare(demo, { expressCompany: 'other', trackingNos: ['OT12345'] });
    expect(Object.keys(other.body.data)).toEqual(['expressName']);
    const bad = await declare(demo, { trackingNos: ['AB 12#34'] });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.data)).toEqual(['trackingNos.0']);
    // Another customer may declare the same number (the express companies' numbers are not ours).
    expect((await declare(demo2, { trackingNos: ['YA100200300'] })).status).toBe(200);
  });

  it('two parallel declarations of one number: one is saved, the other refused', async () => {
    const answers = await Promise.all([1, 2].map(() => declare(demo, { trackingNos: ['PAR-777001'] })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 422]);
    const n = await h.db.selectFrom('self_send_parcels').select('id').where('tracking_no', '=', 'PAR-777001').execute();
    expect(n).toHaveLength(1);
  });
});

describe('matching on inbound storage', () => {
  it("a storage entry of demo's tracking number marks demo's parcel arrived, not demo2's same number", async () => {
    const s = await aes(
      h,
      'storageOrder/create',
      { customerId: ids.demo, origin: 'selfSend', waybillNos: ['ya100200300'] },
      operator,
    );
    expect(s.status, JSON.stringify(s.body)).toBe(200);
    const storageNo = s.data.storageOrder.storageNo as string;
    const mine = (await h.post('selfSends/list', { trackingNo: 'YA100200300' }, demo)).body.data
      .list[0] as C.SelfSendRow;
    expect(mine).toMatchObject({ arrivedCount: 1, status: 'partial' });
    expect(mine.parcels[0]).toMatchObject({ trackingNo: 'YA100200300', storageNo });
    expect(mine.parcels[0]!.arrivedAt).not.toBeNull();
    const theirs = (await h.post('selfSends/list', { trackingNo: 'YA100200300' }, demo2)).body.data
      .list[0] as C.SelfSendRow;
    expect(theirs).toMatchObject({ arrivedCount: 0, status: 'pending' });

    // An operator's entry naming no customer matches any customer's parcel; a second storage does not move it.
    await aes(h, 'storageOrder/create', { origin: 'selfSend', waybillNos: ['YA100200301', 'YA100200300'] }, operator);
    const done = (await h.post('selfSends/list', { trackingNo: 'YA100200300' }, demo)).body.data
      .list[0] as C.SelfSendRow;
    expect(done).toMatchObject({ arrivedCount: 2, status: 'arrived' });
    expect(done.parcels[0]!.storageNo).toBe(storageNo);
    expect(
      (await h.post('selfSends/list', { status: 'arrived' }, demo)).body.data.list.map((x: C.SelfSendRow) => x.id),
    ).toEqual([done.id]);
    expect(
      (await h.post('selfSends/list', { status: 'pending', trackingNo: 'YA100200300' }, demo)).body.data.total,
    ).toBe(0);
  });
});

describe('tenant matrix', () => {
  it("demo2 sees none of demo's; the agent sees both; a customer cannot declare for another", async () => {
    const d2 = await h.post('selfSends/list', { customerId: ids.demo, limit: 100 }, demo2);
    expect(d2.body.data.total).toBe(0);
    const all2 = await h.post('selfSends/list', { limit: 100 }, demo2);
    expect(all2.body.data.list.every((x: C.SelfSendRow) => x.customerId === ids.demo2)).toBe(true);
    expect((await h.post('selfSends/list', {}, other.token)).body.data.total).toBe(0);
    const agentList = await h.post('selfSends/list', { limit: 100 }, agent);
    expect(new Set(agentList.body.data.list.map((x: C.SelfSendRow) => x.customerCode))).toEqual(
      new Set(['DEMO', 'DEMO2']),
    );
    const forged = await declare(demo2, { customerId: ids.demo, trackingNos: ['FORGED1'] });
    expect(forged.status).toBe(422);
    expect(Object.keys(forged.body.data)).toEqual(['customerId']);
    expect((await declare(agent, { trackingNos: ['AGENT1'] })).status).toBe(422);
    expect((await declare(agent, { customerId: other.customerId, trackingNos: ['AGENT2'] })).status).toBe(422);
    expect((await declare(agent, { customerId: ids.demo2, trackingNos: ['AGENT3'] })).status).toBe(200);
    expect((await h.post('selfSends/list', {})).status).toBe(401);
    expect((await h.post('selfSends/save', {})).status).toBe(401);
  });
});

import { idCardCheckChar, isValidS10 } from '@console/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';
import { catalogueItem } from './support/catalogue.ts';

/** order/createImport with a chosen number segment: the waybill comes from that segment, or a 422 says why not. */
let h: Harness;
let demo: string;
let agent: string;
let ids: { demo: number; demo2: number };
const seg: Record<'demoOwn' | 'shared2' | 'demo2Own' | 'emsOwn' | 'spent', number> = {} as never;

const recipient = {
  name: '王小明',
  idCard: '11010519800101123' + idCardCheckChar('11010519800101123'),
  phone: '13812345678',
  province: '浙江省',
  city: '杭州市',
  district: '西湖区',
  address: '文三路100号',
};
const body = (over: Record<string, unknown> = {}) => ({
  channel: 'JP',
  orderNo: `SG${Math.random().toString(36).slice(2, 10).toUpperCase()}`,
  recipient,
  sender: { name: 'DEMO Trading', address: 'Tokyo', phone: '03-1234-5678' },
  items: [{ jan: '4901234567894', name: '明治 奶粉', quantity: 1, unitPrice: '1500' }],
  ...over,
});
const segmentRow = (id: number) =>
  h.db.selectFrom('number_segments').select(['next_seq']).where('id', '=', id).executeTakeFirstOrThrow();
const orderRow = (id: number) =>
  h.db.selectFrom('orders').select(['waybill_no', 'number_segment_id']).where('id', '=', id).executeTakeFirstOrThrow();

beforeAll(async () => {
  h = await createHarness();
  [demo, agent] = await Promise.all(['demo', 'agent'].map((n) => h.login(n)));
  const rows = await h.db.selectFrom('customers').select(['id', 'code']).execute();
  ids = { demo: rows.find((r) => r.code === 'DEMO')!.id, demo2: rows.find((r) => r.code === 'DEMO2')!.id };
  const add = async (v: {
    channel_code: string;
    customer_id: number | null;
    prefix: string;
    scheme?: string;
    suffix?: string;
    next_seq?: number;
    last_seq?: number;
  }) =>
    (
      await h.db
        .insertInto('number_segments')
        .values({
          name: v.prefix,
          scheme: 'plain',
          next_seq: 1,
          last_seq: 9_999_999,
          ...v,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  seg.demoOwn = await add({ channel_code: 'JP', customer_id: ids.demo, prefix: 'DMJ' });
  seg.shared2 = await add({ channel_code: 'JP', customer_id: null, prefix: 'SHJ', next_seq: 500 });
  seg.demo2Own = await add({ channel_code: 'JP', customer_id: ids.demo2, prefix: 'D2J' });
  seg.emsOwn = await add({
    channel_code: 'EMS',
    customer_id: ids.demo,
    prefix: 'EA',
    suffix: 'JP',
    scheme: 's10',
    next_seq: 12_345_670,
    last_seq: 99_999_999,
  });
  seg.spent = await add({ channel_code: 'JP', customer_id: null, prefix: 'OLD', next_seq: 11, last_seq: 10 });
});

describe('chosen number segment on single create', () => {
  it('without a choice the customer’s own segment is used first (unchanged)', async () => {
    const r = await h.post('order/createImport', body(), demo);
    expect(r.status).toBe(200);
    expect(r.body.data.waybillNo).toMatch(/^DMJ\d{10}$/);
    expect((await orderRow(r.body.data.id)).number_segment_id).toBe(seg.demoOwn);
  });

  it('a chosen shared segment gives the waybill from that segment and advances only it', async () => {
    const before = { own: await segmentRow(seg.demoOwn), shared: await segmentRow(seg.shared2) };
    const r = await h.post('order/createImport', body({ numberSegmentId: seg.shared2 }), demo);
    expect(r.status).toBe(200);
    expect(r.body.data.waybillNo).toBe(`SHJ${String(before.shared.next_seq).padStart(10, '0')}`);
    expect(await orderRow(r.body.data.id)).toEqual({
      waybill_no: r.body.data.waybillNo,
      number_segment_id: seg.shared2,
    });
    expect(Number((await segmentRow(seg.shared2)).next_seq)).toBe(Number(before.shared.next_seq) + 1);
    expect((await segmentRow(seg.demoOwn)).next_seq).toBe(before.own.next_seq);
  });

  it('an agent choosing for its customer gets that customer’s segment', async () => {
    const r = await h.post('order/createImport', body({ customerId: ids.demo2, numberSegmentId: seg.demo2Own }), agent);
    expect(r.status).toBe(200);
    expect(r.body.data.waybillNo).toMatch(/^D2J\d{10}$/);
  });

  it('EMS: a chosen S10 segment gives a number with a valid check digit', async () => {
    // EMS takes approved catalogue items only (channel_tax_settings).
    await catalogueItem(h, 'DEMO', '4901234567894', 'approved');
    const r = await h.post('order/createImport', body({ channel: 'EMS', numberSegmentId: seg.emsOwn }), demo);
    expect(r.status).toBe(200);
    expect(r.body.data.waybillNo).toMatch(/^EA12345670\dJP$/);
    expect(isValidS10(r.body.data.waybillNo)).toBe(true);
  });

  it('a segment the customer may not use is a 422 on numberSegmentId, in both languages, and writes nothing', async () => {
    const before = await segmentRow(seg.demo2Own);
    const count = async () =>
      Number(
        (
          await h.db
            .selectFrom('orders')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const n = await count();
    const other = await h.post('order/createImport', body({ numberSegmentId: seg.demo2Own }), demo, {
      'accept-language': 'en',
    });
    expect(other.status).toBe(422);
    expect(other.body.data.numberSegmentId).toEqual(['This number segment cannot be used for the channel.']);
    const zh = await h.post('order/createImport', body({ numberSegmentId: seg.demo2Own }), demo, {
      'accept-language': 'zh-CN',
    });
    expect(zh.body.data.numberSegmentId).toEqual(['该号段不能用于此渠道。']);
    // A segment of another channel is not usable either.
    const wrongChannel = await h.post('order/createImport', body({ numberSegmentId: seg.emsOwn }), demo);
    expect(wrongChannel.status).toBe(422);
    expect(Object.keys(wrongChannel.body.data)).toEqual(['numberSegmentId']);
    const missing = await h.post('order/createImport', body({ numberSegmentId: 999_999 }), demo);
    expect(missing.status).toBe(422);
    expect(await count()).toBe(n);
    expect(await segmentRow(seg.demo2Own)).toEqual(before);
  });

  it('a used-up chosen segment is a 422, never a silent switch to another prefix', async () => {
    const r = await h.post('order/createImport', body({ numberSegmentId: seg.spent }), demo, {
      'accept-language': 'en',
    });
    expect(r.status).toBe(422);
    expect(r.body.data.numberSegmentId[0]).toMatch(/No numbers are left/);
  });

  it('concurrent creates on one chosen segment never get the same number', async () => {
    const start = Number((await segmentRow(seg.shared2)).next_seq);
    const results = await Promise.all(
      Array.from({ length: 12 }, () => h.post('order/createImport', body({ numberSegmentId: seg.shared2 }), demo)),
    );
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(200));
    const numbers = results.map((r) => r.body.data.waybillNo as string).sort();
    expect(numbers).toEqual(Array.from({ length: 12 }, (_, i) => `SHJ${String(start + i).padStart(10, '0')}`));
    expect(Number((await segmentRow(seg.shared2)).next_seq)).toBe(start + 12);
  });
});

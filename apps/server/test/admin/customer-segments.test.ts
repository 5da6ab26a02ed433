import { admin, idCardCheckChar, isValidS10 } from '@console/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness.ts';

/**
 * A customer's own waybill number segments (issue 17): made and retired on the Customers page.
 * The customer's next order on the channel takes its number from its segment; a range meeting
 * any segment of the same number shape is refused, also when two creates race; a retired
 * segment hands out nothing more and orders fall back to the shared one.
 */
let h: Harness;
let tokens: Record<'demo' | 'demo2' | 'agent' | 'operator' | 'admin', string>;
let demoId: number;
let demo2Id: number;

const en = { 'accept-language': 'en' };
const recipient = {
  name: '王小明',
  idCard: '11010519800101123' + idCardCheckChar('11010519800101123'),
  phone: '13812345678',
  province: '浙江省',
  city: '杭州市',
  district: '西湖区',
  address: '文三路100号',
};
const order = (channel: string) => ({
  channel,
  orderNo: `SEG${Math.random().toString(36).slice(2, 10).toUpperCase()}`,
  recipient,
  sender: { name: 'DEMO Trading', address: 'Tokyo', phone: '03-1234-5678' },
  items: [{ jan: '4901234567894', name: '明治 奶粉', quantity: 1, unitPrice: channel === 'JP' ? '1500' : '10' }],
});
const segment = (over: Record<string, unknown> = {}) => ({
  customerId: demoId,
  channelCode: 'USA',
  name: 'DEMO-USA-1',
  prefix: 'DMUS',
  scheme: 'plain',
  firstSeq: 1000,
  lastSeq: 1999,
  ...over,
});
const create = (body: Record<string, unknown>, token = tokens.operator) =>
  h.post(admin.createSegment.path, body, token, en);
const segmentsOf = async (customerId: number, token = tokens.operator) =>
  (await h.post(admin.customerSegments.path, { customerId }, token, en)).body.data as admin.SegmentRow[];

beforeAll(async () => {
  h = await createHarness();
  const names = ['demo', 'demo2', 'agent', 'operator', 'admin'] as const;
  tokens = Object.fromEntries(await Promise.all(names.map(async (n) => [n, await h.login(n)]))) as typeof tokens;
  const rows = await h.db.selectFrom('customers').select(['id', 'code']).execute();
  demoId = rows.find((r) => r.code === 'DEMO')!.id;
  demo2Id = rows.find((r) => r.code === 'DEMO2')!.id;
});

describe('a customer segment', () => {
  it('lists the demo seed’s own segment of demo2, and none for demo', async () => {
    expect(await segmentsOf(demoId)).toEqual([]);
    const [seeded, ...rest] = await segmentsOf(demo2Id);
    expect(rest).toEqual([]);
    expect(seeded).toMatchObject({ channelCode: 'SG', prefix: 'D2SG', scheme: 'plain', firstSeq: 1, used: 0 });
    expect(seeded!.remaining).toBe(999_999);
  });

  it('is made, listed with used/remaining, audited, and gives the customer’s next order its number', async () => {
    const r = await create(segment());
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      channelCode: 'USA',
      name: 'DEMO-USA-1',
      prefix: 'DMUS',
      suffix: '',
      scheme: 'plain',
      firstSeq: 1000,
      nextSeq: 1000,
      lastSeq: 1999,
      used: 0,
      remaining: 1000,
      firstNumber: 'DMUS0000001000',
      lastNumber: 'DMUS0000001999',
    });
    const log = await h.db
      .selectFrom('audit_log')
      .select(['target', 'detail'])
      .where('action', '=', 'segment.create')
      .executeTakeFirstOrThrow();
    expect(log.target).toBe('customer:DEMO');
    expect(JSON.parse(log.detail)).toMatchObject({ id: r.body.data.id, prefix: 'DMUS', first: 1000, last: 1999 });

    const o = await h.post('order/createImport', order('USA'), tokens.demo, en);
    expect(o.status).toBe(200);
    expect(o.body.data.waybillNo).toBe('DMUS0000001000');
    const o2 = await h.post('order/createImport', order('USA'), tokens.demo, en);
    expect(o2.body.data.waybillNo).toBe('DMUS0000001001');
    // Another customer on the channel still gets the shared segment.
    const other = await h.post('order/createImport', order('USA'), tokens.demo2, en);
    expect(other.status).toBe(200);
    expect(other.body.data.waybillNo).not.toMatch(/^DMUS/);

    const [listed] = await segmentsOf(demoId);
    expect(listed).toMatchObject({ id: r.body.data.id, nextSeq: 1002, used: 2, remaining: 998 });
  });

  it('an S10 segment hands out S10 numbers with their check digit', async () => {
    // UK rather than EMS: EMS takes catalogue items only, which is not this test's business.
    const r = await create(
      segment({
        channelCode: 'UK',
        name: 'DEMO-UK-S10',
        prefix: 'EX',
        suffix: 'JP',
        scheme: 's10',
        firstSeq: 500,
        lastSeq: 600,
      }),
    );
    expect(r.status).toBe(200);
    const o = await h.post('order/createImport', order('UK'), tokens.demo, en);
    expect(o.status).toBe(200);
    expect(o.body.data.waybillNo).toMatch(/^EX00000500\dJP$/);
    expect(isValidS10(o.body.data.waybillNo)).toBe(true);
  });

  it.each([
    ['an S10 prefix of three letters', { scheme: 's10', prefix: 'EEX', suffix: 'JP', lastSeq: 10 }, 'prefix'],
    ['an S10 without its country', { scheme: 's10', prefix: 'EZ', suffix: '', lastSeq: 10 }, 'suffix'],
    [
      'an S10 past 8 digits',
      { scheme: 's10', prefix: 'EZ', suffix: 'JP', firstSeq: 1, lastSeq: 100_000_000 },
      'lastSeq',
    ],
    ['a lower-case plain prefix', { prefix: 'dmx' }, 'prefix'],
    ['a plain prefix of 11 characters', { prefix: 'ABCDEFGHIJK' }, 'prefix'],
    ['a range ending before it starts', { prefix: 'DMXX', firstSeq: 10, lastSeq: 9 }, 'lastSeq'],
    ['an unknown channel', { prefix: 'DMXX', channelCode: 'MARS' }, 'channelCode'],
  ])('refuses %s (422 on the field, nothing made)', async (_name, over, field) => {
    const before = await h.db.selectFrom('number_segments').select('id').execute();
    const r = await create(segment(over));
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.data)).toEqual([field]);
    expect(await h.db.selectFrom('number_segments').select('id').execute()).toHaveLength(before.length);
  });

  it('refuses a range overlapping any segment of the same shape: its own, another customer’s, the shared one', async () => {
    // DMUS 1000–1999 is demo's; the same prefix on another customer and channel is still the same numbers.
    const mine = await create(segment({ customerId: demo2Id, channelCode: 'JP', firstSeq: 1999, lastSeq: 2500 }));
    expect(mine.status).toBe(422);
    expect(mine.body.data.firstSeq).toEqual([
      'This range meets segment DEMO-USA-1 (1000–1999) of the same prefix and suffix: a number would be handed out twice.',
    ]);
    // The other bound (issue 36 #17: only the first was tested): ending on its first number meets it too.
    const below = await create(segment({ customerId: demo2Id, channelCode: 'JP', firstSeq: 500, lastSeq: 1000 }));
    expect(below.status).toBe(422);
    expect(Object.keys(below.body.data)).toEqual(['firstSeq']);
    // The shared JP segment is CBL1, 1 … 9,999,999,999 (its first_seq is 1 from the migration).
    const shared = await create(segment({ prefix: 'CBL1', firstSeq: 2_000_000_000, lastSeq: 2_000_000_010 }));
    expect(shared.status).toBe(422);
    expect(Object.keys(shared.body.data)).toEqual(['firstSeq']);
    // Touching ranges are fine; a different suffix is a different number.
    expect((await create(segment({ name: 'DEMO-USA-2', firstSeq: 2000, lastSeq: 2099 }))).status).toBe(200);
    expect(
      (
        await create(
          segment({
            customerId: demo2Id,
            channelCode: 'AU',
            name: 'D2-AU-X',
            suffix: 'X',
            firstSeq: 1500,
            lastSeq: 1600,
          }),
        )
      ).status,
    ).toBe(200);
  });

  it('two parallel creates of overlapping ranges: exactly one is made', async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        create(
          segment({
            customerId: demo2Id,
            channelCode: 'PH',
            name: `RACE-${i}`,
            prefix: 'RACE',
            firstSeq: 1 + i * 10,
            lastSeq: 100 + i * 10,
          }),
        ),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 422, 422, 422, 422, 422]);
    const rows = await h.db.selectFrom('number_segments').select('name').where('prefix', '=', 'RACE').execute();
    expect(rows).toHaveLength(1);
    for (const r of results.filter((x) => x.status === 422)) expect(Object.keys(r.body.data)).toEqual(['firstSeq']);
  });

  it('retired: nothing more is handed out, the next order falls back to the shared segment, the range stays claimed', async () => {
    const seg = (await segmentsOf(demoId)).find((s) => s.name === 'DEMO-USA-1')!;
    const r = await h.post(admin.retireSegment.path, { id: seg.id }, tokens.operator, en);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      id: seg.id,
      firstSeq: 1000,
      nextSeq: 1002,
      lastSeq: 1001,
      used: 2,
      remaining: 0,
    });
    // DEMO-USA-2 (2000–2099) is the next own one: retire it too, then the shared one is left.
    const second = (await segmentsOf(demoId)).find((s) => s.name === 'DEMO-USA-2')!;
    expect((await h.post(admin.retireSegment.path, { id: second.id }, tokens.operator, en)).status).toBe(200);
    const shared = await h.db
      .selectFrom('number_segments')
      .select(['prefix', 'next_seq'])
      .where('channel_code', '=', 'USA')
      .where('customer_id', 'is', null)
      .executeTakeFirstOrThrow();
    const o = await h.post('order/createImport', order('USA'), tokens.demo, en);
    expect(o.status).toBe(200);
    expect(o.body.data.waybillNo).toBe(`${shared.prefix}${String(shared.next_seq).padStart(10, '0')}`);
    // The numbers it gave stay claimed; the part never used may be given again.
    expect((await create(segment({ name: 'AGAIN', firstSeq: 1001, lastSeq: 1001 }))).status).toBe(422);
    expect((await create(segment({ name: 'REUSE', firstSeq: 1002, lastSeq: 1100 }))).status).toBe(200);
    const log = await h.db
      .selectFrom('audit_log')
      .select(['target', 'detail'])
      .where('action', '=', 'segment.retire')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    expect(log.target).toBe('customer:DEMO');
    expect(JSON.parse(log.detail)).toMatchObject({ id: seg.id, lastSeq: [1999, 1001] });
  });

  it('a shared segment or a missing one cannot be retired here', async () => {
    const shared = await h.db
      .selectFrom('number_segments')
      .select(['id', 'last_seq'])
      .where('customer_id', 'is', null)
      .where('channel_code', '=', 'JP')
      .executeTakeFirstOrThrow();
    const r = await h.post(admin.retireSegment.path, { id: shared.id }, tokens.admin, en);
    expect(r.status).toBe(422);
    expect(r.body.data.id).toEqual(['Number segment not found.']);
    const after = await h.db
      .selectFrom('number_segments')
      .select('last_seq')
      .where('id', '=', shared.id)
      .executeTakeFirstOrThrow();
    expect(Number(after.last_seq)).toBe(Number(shared.last_seq));
    expect((await h.post(admin.retireSegment.path, { id: 999_999 }, tokens.operator, en)).status).toBe(422);
  });

  it('customers and agents get 403 on every segment call; nothing changes', async () => {
    const seg = (await segmentsOf(demo2Id))[0]!;
    for (const who of ['demo', 'demo2', 'agent'] as const) {
      const t = tokens[who];
      expect((await h.post(admin.customerSegments.path, { customerId: demo2Id }, t)).status).toBe(403);
      expect((await create(segment({ customerId: demo2Id, prefix: 'NOPE' }), t)).status).toBe(403);
      expect((await h.post(admin.retireSegment.path, { id: seg.id }, t)).status).toBe(403);
    }
    expect(await h.db.selectFrom('number_segments').select('id').where('prefix', '=', 'NOPE').execute()).toEqual([]);
    expect((await segmentsOf(demo2Id))[0]).toEqual(seg);
  });
});

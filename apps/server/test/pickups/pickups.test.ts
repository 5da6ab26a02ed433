import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SLIP_LAYOUT } from '../../src/modules/pickups/pickups.slip.ts';
import { createHarness, type Harness } from '../harness.ts';
import { aes } from '../items/helpers.ts';
import { plain, plainBlob } from '../plain-client.ts';
import { decodeBox, pdfPages, pdfText, renderPage } from '../support/pdf-read.ts';

/**
 * Pickup appointments (issue 16) with the clock fixed in Japan time: the calendar (Sundays,
 * 2026-11-23 Labour Thanksgiving Day, the same-day cutoff), the race for the last place of a
 * slot (truly parallel requests), change and cancel rules, the slip's barcodes decoded back,
 * the messages, the link from a storage order of the boxes, and the tenant matrix.
 */
// Saturday 2026-11-21, 08:30 in Japan: that day's slots close at 09:00.
const SAT_0830_JST = new Date('2026-11-20T23:30:00Z');
let h: Harness;
let demo: string;
let demo2: string;
let agent: string;
let operator: string;
let demoId: number;
let demo2Id: number;

const book = (token: string, body: Record<string, unknown>, lang = 'en') =>
  plain(
    h,
    'subscribe/take/piece',
    {
      region: 'tokyo',
      date: '2026-11-24',
      slot: '12-14',
      boxNo: 'BX-1',
      shopAbbr: 'YYK',
      bigCartons: 2,
      smallParcels: 1,
      markerPrefix: 'YYK1124',
      ...body,
    },
    token,
    lang,
  );
const slots = async (region: string, from: string, days = 5) =>
  (await plain(h, 'subscribe/time/slots', { region, from, days }, operator)).data.days as any[];
const left = async (region: string, date: string, slot: string) =>
  (await slots(region, date, 1))[0].slots.find((s: any) => s.slot === slot).left as number;
const setCapacity = (region: string, slot: string, capacity: number) =>
  plain(h, 'subscribe/time/capacity/update', { region, slot, capacity }, operator);

const blob = (path: string, body: unknown, token: string) => plainBlob(h, path, body, token);

beforeAll(async () => {
  h = await createHarness({ now: SAT_0830_JST, env: { ACCESS_TOKEN_TTL_SECONDS: String(30 * 86400) } });
  [demo, demo2, agent, operator] = await Promise.all(['demo', 'demo2', 'agent', 'operator'].map((n) => h.login(n)));
  const ids = await h.db
    .selectFrom('users')
    .select(['name', 'customer_id'])
    .where('name', 'in', ['demo', 'demo2'])
    .execute();
  demoId = ids.find((r) => r.name === 'demo')!.customer_id!;
  demo2Id = ids.find((r) => r.name === 'demo2')!.customer_id!;
});
beforeEach(() => {
  h.clock.now = SAT_0830_JST;
});

describe('the calendar, in Japan time', () => {
  it('closes Sundays and holidays, and a day past its same-day cutoff', async () => {
    const days = await slots('tokyo', '2026-11-21');
    expect(days.map((d) => [d.date, d.open, d.closedReason])).toEqual([
      ['2026-11-21', true, null],
      ['2026-11-22', false, 'sunday'],
      ['2026-11-23', false, 'holiday'],
      ['2026-11-24', true, null],
      ['2026-11-25', true, null],
    ]);
    expect(days[2].holiday).toContain('勤労感謝の日');
    expect(days[0].slots).toHaveLength(4);
    expect(days[1].slots.every((s: any) => s.left === 0)).toBe(true);

    // 09:00 in Japan on the 21st (00:00 UTC): its slots are closed.
    h.clock.now = new Date('2026-11-21T00:00:00Z');
    expect((await slots('tokyo', '2026-11-21', 1))[0]).toMatchObject({ open: false, closedReason: 'cutoff' });
    // Today by default is Japan's date: 15:00 UTC on the 20th is already midnight of the 21st in Japan.
    h.clock.now = new Date('2026-11-20T15:00:00Z');
    expect((await plain(h, 'subscribe/time/slots', { region: 'osaka' }, demo)).data.today).toBe('2026-11-21');
  });

  it('refuses to book a Sunday, a holiday, or past the cutoff (422 on date)', async () => {
    const sunday = await book(demo, { date: '2026-11-22' });
    expect(sunday.status).toBe(422);
    expect(sunday.body.data.date[0]).toContain('Sundays');
    const holiday = await book(demo, { date: '2026-11-23' }, 'zh-CN');
    expect(holiday.status).toBe(422);
    expect(holiday.body.data.date[0]).toContain('勤労感謝の日');
    expect((await book(demo, { date: '2026-11-21', slot: '16-18' })).status).toBe(200);
    h.clock.now = new Date('2026-11-21T00:00:00Z');
    const late = await book(demo, { date: '2026-11-21', slot: '16-18' });
    expect(late.status).toBe(422);
    expect(late.body.data.date[0]).toContain('closed at 9:00');
    expect((await book(demo, { date: '2026-02-30' })).status).toBe(422);
  });

  it('checks the fields: letters for the shop, boxes expected', async () => {
    const r = await book(demo, { shopAbbr: '优衣库', markerPrefix: 'A B' });
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.data).sort()).toEqual(['markerPrefix', 'shopAbbr']);
    expect((await book(demo, { bigCartons: 0, smallParcels: 0 })).status).toBe(422);
    expect((await plain(h, 'subscribe/shop/abbr', { name: '优衣库旗舰店' }, demo)).data).toEqual({ abbr: 'YYKQJD' });
    expect((await plain(h, 'subscribe/shop/abbr', { name: 'ABC 店' }, demo)).data).toEqual({ abbr: 'ABCD' });
  });
});

describe('capacity', () => {
  it('counts the places left and gives exactly one of the last place to two racing customers', async () => {
    expect((await setCapacity('osaka', '16-18', 1)).status).toBe(200);
    expect(await left('osaka', '2026-11-25', '16-18')).toBe(1);
    const [a, b] = await Promise.all([
      book(demo, { region: 'osaka', date: '2026-11-25', slot: '16-18' }),
      book(demo2, { region: 'osaka', date: '2026-11-25', slot: '16-18' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect([a, b].find((x) => x.status === 409)!.body.message).toContain('full');
    expect(await left('osaka', '2026-11-25', '16-18')).toBe(0);
    const rows = await h.db
      .selectFrom('pickups')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('region', '=', 'osaka')
      .where('pickup_date', '=', '2026-11-25')
      .where('slot', '=', '16-18')
      .executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(1);
  });

  it('lets exactly the capacity through when many book at once', async () => {
    await setCapacity('osaka', '14-16', 3);
    const all = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        book(i % 2 ? demo : demo2, { region: 'osaka', date: '2026-11-26', slot: '14-16', boxNo: `R${i}` }),
      ),
    );
    expect(all.filter((r) => r.status === 200)).toHaveLength(3);
    expect(all.filter((r) => r.status === 409)).toHaveLength(5);
    expect(await left('osaka', '2026-11-26', '14-16')).toBe(0);
  });

  it('is set by operators only', async () => {
    expect((await setCapacity('tokyo', '10-12', 99)).status).toBe(200);
    for (const t of [demo, agent]) {
      expect((await plain(h, 'subscribe/time/capacity', {}, t)).status).toBe(403);
      expect(
        (await plain(h, 'subscribe/time/capacity/update', { region: 'tokyo', slot: '10-12', capacity: 1 }, t)).status,
      ).toBe(403);
    }
    const list = (await plain(h, 'subscribe/time/capacity', {}, operator)).data;
    expect(list).toContainEqual({ region: 'tokyo', slot: '10-12', capacity: 99 });
    expect(list).toHaveLength(8);
  });
});

describe('change and cancel', () => {
  it('cancels with a reason before the cutoff and gives the place back; not twice, not after the cutoff', async () => {
    const before = await left('tokyo', '2026-11-25', '10-12');
    const r = await book(demo, { date: '2026-11-25', slot: '10-12' });
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ status: 'booked', cancellable: true, customerId: demoId, boxNo: 'BX-1' });
    expect(await left('tokyo', '2026-11-25', '10-12')).toBe(before - 1);
    expect((await plain(h, 'subscribe/take/piece/cancel', { id: r.data.id, reason: '' }, demo)).status).toBe(422);
    // Someone else's: not found, and nothing changes.
    expect((await plain(h, 'subscribe/take/piece/cancel', { id: r.data.id, reason: 'x' }, demo2)).status).toBe(404);
    const [c1, c2] = await Promise.all([
      plain(h, 'subscribe/take/piece/cancel', { id: r.data.id, reason: 'Shop closed' }, demo),
      plain(h, 'subscribe/take/piece/cancel', { id: r.data.id, reason: 'Shop closed' }, demo),
    ]);
    expect([c1.status, c2.status].sort()).toEqual([200, 409]);
    const ok = c1.status === 200 ? c1 : c2;
    expect(ok.data).toMatchObject({ status: 'cancelled', cancelReason: 'Shop closed', cancellable: false });
    expect(await left('tokyo', '2026-11-25', '10-12')).toBe(before);

    const late = await book(demo, { date: '2026-11-21', slot: '10-12' });
    h.clock.now = new Date('2026-11-21T00:00:00Z');
    const refused = await plain(h, 'subscribe/take/piece/cancel', { id: late.data.id, reason: 'late' }, demo);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('cutoff');
    expect((await plain(h, 'subscribe/take/piece/info', { id: late.data.id }, demo)).data.cancellable).toBe(false);
  });

  it('changes the slot: the new place is taken, the old one given back', async () => {
    const r = await book(demo, { date: '2026-11-27', slot: '10-12' });
    const body = { ...r.data, id: r.data.id, date: '2026-11-27', slot: '14-16' };
    const u = await plain(
      h,
      'subscribe/take/piece/update',
      {
        id: r.data.id,
        region: 'tokyo',
        date: '2026-11-27',
        slot: '14-16',
        boxNo: body.boxNo,
        shopAbbr: 'abc',
        bigCartons: 1,
        smallParcels: 0,
        markerPrefix: 'abc1',
      },
      demo,
    );
    expect(u.status).toBe(200);
    expect(u.data).toMatchObject({ slot: '14-16', shopAbbr: 'ABC', markerPrefix: 'ABC1', bigCartons: 1 });
    const day = (await slots('tokyo', '2026-11-27', 1))[0];
    expect(day.slots.find((s: any) => s.slot === '10-12').booked).toBe(0);
    expect(day.slots.find((s: any) => s.slot === '14-16').booked).toBe(1);
    const other = await plain(
      h,
      'subscribe/take/piece/update',
      { ...u.data, id: r.data.id, date: '2026-11-27' },
      demo2,
    );
    expect([404, 422]).toContain(other.status);
  });
});

describe('the slip', () => {
  it('carries the booking number and one marker per box as barcodes that read back', async () => {
    const r = await book(demo, {
      date: '2026-11-24',
      slot: '14-16',
      bigCartons: 11,
      smallParcels: 2,
      markerPrefix: 'SLP',
    });
    const res = await blob('subscribe/take/pdf', { id: r.data.id }, demo);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('application/pdf');
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'slip-')), 's.pdf');
    fs.writeFileSync(file, res.bytes);
    expect(pdfPages(file)).toBe(3); // the slip, then 10 + 3 markers
    expect(decodeBox(renderPage(file, 1), SLIP_LAYOUT.bookingBarcode)).toEqual({
      format: 'CODE_128',
      text: r.data.pickupNo,
    });
    const text = pdfText(file, 1);
    expect(text).toContain('2026-11-24');
    expect(text).toContain('14-16');
    expect(text).toContain('Shinkiba');
    const m = SLIP_LAYOUT.markers;
    const first = { x: m.left + 5, y: m.top + 16, width: m.cellWidth - 14, height: m.barcodeHeight };
    expect(decodeBox(renderPage(file, 2), first)?.text).toBe('SLP-001');
    expect(decodeBox(renderPage(file, 3), first)?.text).toBe('SLP-011');
    expect(pdfText(file, 3)).toContain('SLP-013');
    expect(pdfText(file, 3)).not.toContain('SLP-014');
    // Someone else's slip is not found.
    expect((await blob('subscribe/take/pdf', { id: r.data.id }, demo2)).status).toBe(404);
  });
});

describe('messages and the storage link', () => {
  it('tells the customer of booked, changed, cancelled and picked up, and only its own', async () => {
    const r = await book(demo, { date: '2026-11-28', slot: '10-12', boxNo: 'LINKBOX', markerPrefix: 'LNK' });
    // The warehouse stores a marker of its boxes (origin pickup): the booking is picked up.
    const so = await aes(
      h,
      'storageOrder/create',
      { origin: 'pickup', customerId: demoId, waybillNos: ['LNK-002'] },
      operator,
    );
    expect(so.status).toBe(200);
    const info = (await plain(h, 'subscribe/take/piece/info', { id: r.data.id }, demo)).data;
    expect(info).toMatchObject({
      status: 'pickedUp',
      storageOrderId: so.data.storageOrder.id,
      storageNo: so.data.storageOrder.storageNo,
    });
    // A counter storage order of a box number does not link.
    const r2 = await book(demo, { date: '2026-11-28', slot: '10-12', boxNo: 'COUNTERBOX', markerPrefix: 'CNT' });
    await aes(
      h,
      'storageOrder/create',
      { origin: 'counter', customerId: demoId, waybillNos: ['COUNTERBOX'] },
      operator,
    );
    expect((await plain(h, 'subscribe/take/piece/info', { id: r2.data.id }, demo)).data.status).toBe('booked');
    // ... a pickup one by box number does.
    await aes(h, 'storageOrder/create', { origin: 'pickup', customerId: demoId, waybillNos: ['counterbox'] }, operator);
    expect((await plain(h, 'subscribe/take/piece/info', { id: r2.data.id }, demo)).data.status).toBe('pickedUp');
    // Picked up: no cancel.
    expect((await plain(h, 'subscribe/take/piece/cancel', { id: r.data.id, reason: 'x' }, demo)).status).toBe(409);

    const mine = await plain(h, 'subscribe/message', { pickupId: r.data.id, order: 'asc' }, demo);
    expect(mine.data.list.map((m: any) => m.kind)).toEqual(['booked', 'pickedUp']);
    expect(mine.data.list[0].text).toBe(`Pickup ${r.data.pickupNo} booked: Tokyo, 2026-11-28 10-12.`);
    expect(mine.data.list[1].text).toContain(so.data.storageOrder.storageNo);
    const zh = await plain(h, 'subscribe/message', { pickupId: r.data.id, order: 'asc' }, demo, 'zh-CN');
    expect(zh.data.list[0].text).toContain('东京');
    const all = (await plain(h, 'subscribe/message', { limit: 500 }, demo)).data;
    expect(all.list.map((m: any) => m.kind)).toEqual(
      expect.arrayContaining(['booked', 'changed', 'cancelled', 'pickedUp']),
    );
    const theirs = (await plain(h, 'subscribe/message', { limit: 500 }, demo2)).data.list;
    expect(theirs.every((m: any) => m.customerCode === 'DEMO2')).toBe(true);
    expect((await plain(h, 'subscribe/message', { pickupId: r.data.id }, demo2)).data.total).toBe(0);
  });
});

describe('tenant matrix', () => {
  it('keeps demo2 out of every call on demo’s booking; agents see their customers’; operators all', async () => {
    const r = await book(demo, { date: '2026-11-30', slot: '16-18', boxNo: 'TENANT' });
    const id = r.data.id;
    expect((await plain(h, 'subscribe/take/piece/info', { id }, demo2)).status).toBe(404);
    expect((await plain(h, 'subscribe/take/piece/cancel', { id, reason: 'x' }, demo2)).status).toBe(404);
    expect(
      (
        await plain(
          h,
          'subscribe/take/piece/update',
          {
            id,
            region: 'tokyo',
            date: '2026-11-30',
            slot: '10-12',
            boxNo: 'X',
            shopAbbr: 'A',
            bigCartons: 1,
            smallParcels: 0,
            markerPrefix: 'A',
          },
          demo2,
        )
      ).status,
    ).toBe(404);
    expect((await blob('subscribe/take/pdf', { id }, demo2)).status).toBe(404);
    const list2 = (await plain(h, 'subscribe/take/piece/list', { limit: 500 }, demo2)).data;
    expect(list2.list.every((p: any) => p.customerId === demo2Id)).toBe(true);
    expect((await plain(h, 'subscribe/take/piece/list', { boxNo: 'tenant' }, demo2)).data.total).toBe(0);
    // A customer books for itself only.
    expect((await book(demo2, { customerId: demoId })).status).toBe(422);
    for (const t of [demo, agent, operator]) {
      const l = (await plain(h, 'subscribe/take/piece/list', { boxNo: 'TENANT' }, t)).data;
      expect(l.total).toBe(1);
      expect((await plain(h, 'subscribe/take/piece/info', { id }, t)).status).toBe(200);
    }
    // Agents and operators name the customer.
    expect((await book(agent, { date: '2026-11-30', slot: '16-18' })).status).toBe(422);
    const forDemo2 = await book(operator, { customerId: demo2Id, date: '2026-11-30', slot: '16-18' });
    expect(forDemo2.data.customerId).toBe(demo2Id);
    expect((await book(operator, { customerId: 999999, date: '2026-11-30' })).status).toBe(422);
    // Unauthenticated: 401.
    expect((await h.post('subscribe/take/piece/list', {})).status).toBe(401);
  });

  it('lists with filters, sort and paging', async () => {
    const l = await plain(
      h,
      'subscribe/take/piece/list',
      { region: 'tokyo', status: 'booked', sort: 'pickupDate', order: 'asc', limit: 2 },
      demo,
    );
    expect(l.status).toBe(200);
    expect(l.data.list.length).toBeLessThanOrEqual(2);
    expect(l.data.total).toBeGreaterThan(2);
    const dates = l.data.list.map((p: any) => p.pickupDate);
    expect([...dates].sort()).toEqual(dates);
    expect(l.data.list.every((p: any) => p.region === 'tokyo' && p.status === 'booked')).toBe(true);
  });
});

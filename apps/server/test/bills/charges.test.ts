import type { bills as C } from '@console/contract';
import { describe, expect, it } from 'vitest';
import {
  chinaMonthOf,
  freightMinor,
  fromMinor,
  nextMonth,
  storageMinor,
  storageMonths,
  toCnyFen,
  toMinor,
} from '../../src/domain/pricing/charge-amounts.ts';
import { cardInForce } from '../../src/domain/pricing/rate-cards.ts';

/** Charges as pure rules (issue 17): brackets, minimums, storage, card choice, exact currency conversion. */
const rules = (over: Partial<C.RateRules> = {}): C.RateRules => ({
  firstWeightG: 500,
  firstPrice: 1200,
  brackets: [
    { upToG: 2000, stepG: 500, price: 300 },
    { upToG: null, stepG: 1000, price: 500 },
  ],
  minimum: 0,
  remoteProvinces: [],
  remoteFee: 0,
  interceptionFee: 0,
  relabelFee: 0,
  storageFreeDays: 7,
  storagePerDay: 50,
  ...over,
});

describe('freight by gross weight', () => {
  it.each([
    ['no weight: the first weight', null, rules(), 1200],
    ['below the first weight', 120, rules(), 1200],
    ['exactly the first weight', 500, rules(), 1200],
    ['one gram over: one started step', 501, rules(), 1500],
    ['two steps', 1000, rules(), 1500],
    ['1001 g: two started steps (501–1000, 1001)', 1001, rules(), 1800],
    ['end of the first bracket', 2000, rules(), 1200 + 3 * 300],
    ['into the open bracket', 2001, rules(), 1200 + 3 * 300 + 500],
    ['3 kg', 3000, rules(), 1200 + 3 * 300 + 500],
    ['3.5 kg', 3500, rules(), 1200 + 3 * 300 + 2 * 500],
    ['minimum lifts a light parcel', 100, rules({ minimum: 2000 }), 2000],
    ['minimum below the price changes nothing', 3000, rules({ minimum: 2000 }), 2600],
    ['no brackets: first price only', 9000, rules({ brackets: [] }), 1200],
    ['a closed last bracket stops there', 9000, rules({ brackets: [{ upToG: 1500, stepG: 500, price: 100 }] }), 1400],
  ])('%s', (_name, weight, r, expected) => {
    expect(freightMinor(r, weight)).toBe(expected);
  });
});

describe('storage beyond the free days', () => {
  const shipped = '2026-11-20T00:00:00.000Z';
  it.each([
    ['never received', null, 0],
    ['within the free days', '2026-11-14T00:00:00.000Z', 0],
    ['exactly the free days', '2026-11-13T00:00:00.000Z', 0],
    ['one day beyond', '2026-11-12T00:00:00.000Z', 50],
    ['ten days beyond, part days dropped', '2026-11-02T12:00:00.000Z', 10 * 50],
  ])('%s', (_name, received, expected) => {
    expect(storageMinor(rules(), received, shipped)).toBe(expected);
  });
});

describe('storage by China month', () => {
  const months = (received: string | null, until: string, r: C.RateRules | ((day: string) => C.RateRules | null)) =>
    storageMonths(received, until, typeof r === 'function' ? r : () => r).map((m) => [m.period, m.days, m.amount]);
  it.each([
    // received China 12:00 Nov 2, shipped China 12:00 Nov 20: 18 days, 7 free
    [
      'received and shipped in one month',
      '2026-11-02T04:00:00.000Z',
      '2026-11-20T04:00:00.000Z',
      rules(),
      [['2026-11', 11, 550]],
    ],
    // 6 days completed in October, all free; the other 4 free days and 16 billable in November
    [
      'free days spanning a month end',
      '2026-10-25T04:00:00.000Z',
      '2026-11-20T04:00:00.000Z',
      rules({ storageFreeDays: 10 }),
      [
        ['2026-10', 0, 0],
        ['2026-11', 16, 800],
      ],
    ],
    // day 31 completes at China 12:00 Nov 1; shipped at 14:00
    [
      'shipped on the 1st',
      '2026-10-01T04:00:00.000Z',
      '2026-11-01T06:00:00.000Z',
      rules(),
      [
        ['2026-10', 23, 1150],
        ['2026-11', 1, 50],
      ],
    ],
    // shipped China 10:00 Nov 1, before day 31 completes: November has nothing
    [
      'shipped on the 1st before a day completes',
      '2026-10-01T04:00:00.000Z',
      '2026-11-01T02:00:00.000Z',
      rules(),
      [
        ['2026-10', 23, 1150],
        ['2026-11', 0, 0],
      ],
    ],
    // received China midnight Feb 1 2028: 28 days complete in February (the 29th at midnight Mar 1)
    [
      'leap February',
      '2028-01-31T16:00:00.000Z',
      '2028-03-10T16:00:00.000Z',
      rules(),
      [
        ['2028-02', 21, 1050],
        ['2028-03', 11, 550],
      ],
    ],
    [
      'non-leap February',
      '2026-01-31T16:00:00.000Z',
      '2026-03-10T16:00:00.000Z',
      rules(),
      [
        ['2026-02', 20, 1000],
        ['2026-03', 11, 550],
      ],
    ],
    // a millisecond before China midnight is still October; each day then completes at 23:59:59.999
    [
      'received at the last China moment of a month',
      '2026-10-31T15:59:59.999Z',
      '2026-11-30T16:00:00.000Z',
      rules({ storageFreeDays: 0 }),
      [
        ['2026-10', 0, 0],
        ['2026-11', 30, 1500],
        ['2026-12', 0, 0],
      ],
    ],
    [
      'received at China midnight: that month',
      '2026-10-31T16:00:00.000Z',
      '2026-11-30T15:59:59.999Z',
      rules({ storageFreeDays: 0 }),
      [['2026-11', 29, 1450]],
    ],
    [
      'across a year end',
      '2026-12-20T04:00:00.000Z',
      '2027-01-10T04:00:00.000Z',
      rules(),
      [
        ['2026-12', 4, 200],
        ['2027-01', 10, 500],
      ],
    ],
    ['never received', null, '2026-11-20T04:00:00.000Z', rules(), []],
    ['until before receipt', '2026-11-20T04:00:00.000Z', '2026-11-19T04:00:00.000Z', rules(), []],
    [
      'no card in October: only November is charged, by its card',
      '2026-10-01T04:00:00.000Z',
      '2026-11-10T04:00:00.000Z',
      (day: string) => (day >= '2026-11-01' ? rules() : null),
      [
        ['2026-10', 0, 0],
        ['2026-11', 10, 500],
      ],
    ],
  ] as const)('%s', (_name, received, until, r, expected) => {
    expect(months(received, until, r as never)).toEqual(expected);
  });

  it('a closed month is dated at its last China moment, the last month at the shipping time', () => {
    const m = storageMonths('2026-10-01T04:00:00.000Z', '2026-11-10T04:00:00.000Z', () => rules());
    expect(m.map((x) => [x.at, x.day])).toEqual([
      ['2026-10-31T15:59:59.999Z', '2026-10-31'],
      ['2026-11-10T04:00:00.000Z', '2026-11-10'],
    ]);
  });

  it('the months add up to the whole stay (storageMinor) for any receipt and shipping time', () => {
    let seed = 17;
    const rnd = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 500; i++) {
      const r = Date.parse('2026-01-01T00:00:00Z') + Math.floor(rnd() * 400 * 86_400_000);
      const u = r + Math.floor(rnd() * 120 * 86_400_000);
      const card = rules({ storageFreeDays: Math.floor(rnd() * 20), storagePerDay: 1 + Math.floor(rnd() * 99) });
      const [ri, ui] = [new Date(r).toISOString(), new Date(u).toISOString()];
      const parts = storageMonths(ri, ui, () => card);
      expect(parts.reduce((a, m) => a + m.amount, 0)).toBe(storageMinor(card, ri, ui));
      expect(parts.every((m) => m.days >= 0)).toBe(true);
    }
  });
});

describe('the card in force', () => {
  const card = (id: number, customer_id: number | null, effective_from: string, channel_code = 'JP') => ({
    id,
    channel_code,
    customer_id,
    effective_from,
    currency: 'JPY',
    rules: rules(),
  });
  const cards = [
    card(1, null, '2026-01-01'),
    card(2, null, '2026-06-01'),
    card(3, 7, '2026-09-01'),
    card(4, 8, '2026-03-01'),
    card(5, null, '2026-01-01', 'USA'),
    card(6, null, '2026-06-01'), // same day as 2, saved later: wins
  ];
  it.each([
    ['before any card', 'JP', 7, '2025-12-31', null],
    ['the channel card of its day', 'JP', 7, '2026-03-15', 1],
    ['a newer channel card (the later saved of one day)', 'JP', 7, '2026-06-01', 6],
    ["the customer's card overrides the channel's from its day", 'JP', 7, '2026-09-01', 3],
    ["not before the customer's card's day", 'JP', 7, '2026-08-31', 6],
    ["another customer's card is not used", 'JP', 9, '2026-12-01', 6],
    ["a customer's older own card still beats a newer channel card", 'JP', 8, '2026-12-01', 4],
    ['another channel', 'USA', 7, '2026-12-01', 5],
    ['a channel with no card', 'EMS', 7, '2026-12-01', null],
  ])('%s', (_name, channel, customer, day, expected) => {
    expect(cardInForce(cards, channel, customer, day)?.id ?? null).toBe(expected);
  });
});

describe('exact decimals and conversion to CNY', () => {
  it.each([
    ['12.34', 2, 1234n],
    ['12.3', 2, 1230n],
    ['-0.05', 2, -5n],
    ['1500', 0, 1500n],
    ['1500.00', 0, 1500n],
  ])('toMinor(%s, %i)', (s, d, v) => expect(toMinor(s, d)).toBe(v));
  it('refuses more places than the currency has', () => {
    expect(() => toMinor('1.5', 0)).toThrow();
    expect(() => toMinor('1.234', 2)).toThrow();
  });
  it.each([
    [1234n, 2, '12.34'],
    [5n, 2, '0.05'],
    [-5n, 2, '-0.05'],
    [1500n, 0, '1500'],
    [0n, 2, '0.00'],
  ])('fromMinor(%s, %i)', (v, d, s) => expect(fromMinor(v, d)).toBe(s));
  it.each([
    ['JPY 1,234 at 0.0480', 1234n, 0, '0.0480', 5923n], // 59.232 → 59.23
    ['JPY 1,235 at 0.0480', 1235n, 0, '0.0480', 5928n], // 59.28
    ['half a fen rounds up', 1n, 0, '0.005', 1n], // 0.005 → 0.01
    ['negative halves round away from zero', -1n, 0, '0.005', -1n],
    ['USD 10.01 at 7.1', 1001n, 2, '7.1', 7107n], // 71.071 → 71.07
    ['CNY at 1', 1999n, 2, '1', 1999n],
    ['a large total stays exact', 123_456_789_012n, 0, '0.0480', 592_592_587_258n], // 5,925,925,872.576 → .58
  ])('%s', (_name, total, dec, rate, fen) => expect(toCnyFen(total, dec, rate)).toBe(fen));
  it('floats would not: 0.1 + 0.2 style sums stay exact', () => {
    const fen = [1n, 2n].reduce((a, b) => a + toCnyFen(b * 10n, 2, '0.1'), 0n);
    expect(fromMinor(fen, 2)).toBe('0.03');
  });
});

describe('months in China time', () => {
  it.each([
    ['2026-11-30T15:59:59.999Z', '2026-11'],
    ['2026-11-30T16:00:00.000Z', '2026-12'],
    ['2026-12-31T16:00:00.000Z', '2027-01'],
  ])('%s is in %s', (at, p) => expect(chinaMonthOf(at)).toBe(p));
  it('next month wraps the year', () => {
    expect(nextMonth('2026-12')).toBe('2027-01');
    expect(nextMonth('2026-09')).toBe('2026-10');
  });
});

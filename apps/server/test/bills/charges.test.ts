import type { bills as C } from '@console/contract';
import { describe, expect, it } from 'vitest';
import {
  cardInForce,
  chinaMonthOf,
  freightMinor,
  fromMinor,
  nextMonth,
  storageMinor,
  toCnyFen,
  toMinor,
} from '../../src/domain/charges.ts';

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

import type { bills as C } from '@console/contract';

/**
 * The amounts of charges (charges.ts), pure: freight and storage by a rate card's rules, the China
 * day and month a charge falls in, and exact decimal arithmetic in minor units (bigint, never floats).
 */

const DAY_MS = 86_400_000;
/** The China (UTC+8) calendar day / month of a UTC time: the console's day, the statement's month. */
export const chinaDayOf = (at: string) => new Date(Date.parse(at) + 8 * 3_600_000).toISOString().slice(0, 10);
export const chinaMonthOf = (at: string) => chinaDayOf(at).slice(0, 7);
export const nextMonth = (p: string) => {
  const [y, m] = p.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
};

/**
 * The freight of a gross weight under a card: first weight, then each bracket's started steps; at
 * least the minimum. An order never weighed (no scan weight, `null`) is charged the first weight
 * (and the minimum): the line shows no weight (`charges.weight_g` null), so an operator sees it
 * and corrects it with an adjustment once the parcel is weighed.
 */
export function freightMinor(rules: C.RateRules, weightG: number | null): number {
  const w = weightG ?? 0;
  let total = rules.firstPrice;
  let lower = rules.firstWeightG;
  for (const b of rules.brackets) {
    if (w <= lower) break;
    const upper = b.upToG ?? Number.POSITIVE_INFINITY;
    const portion = Math.min(w, upper) - lower;
    if (portion > 0) total += Math.ceil(portion / b.stepG) * b.price;
    if (b.upToG === null) break;
    lower = b.upToG;
  }
  return Math.max(total, rules.minimum);
}

/** Storage fee: whole days between receipt and shipping beyond the free period. */
export function storageMinor(rules: C.RateRules, receivedAt: string | null, shippedAt: string): number {
  if (!receivedAt || !rules.storagePerDay) return 0;
  const days = Math.floor((Date.parse(shippedAt) - Date.parse(receivedAt)) / DAY_MS);
  return Math.max(0, days - rules.storageFreeDays) * rules.storagePerDay;
}

/** The first instant (UTC ms) of China month `p` (YYYY-MM). */
export const chinaMonthStart = (p: string) => Date.parse(`${p}-01T00:00:00.000+08:00`);

/** One China month's part of an order's storage. */
export interface StorageMonth {
  /** YYYY-MM, China time: the charge's key and statement month. */
  period: string;
  /** Billable days (beyond the free period) that completed in this month. */
  days: number;
  amount: number;
  /** The line's time: the month's last moment, or `until` in the month that holds it. */
  at: string;
  /** The China day whose card priced the part (the `at` day). */
  day: string;
}

/**
 * Storage split by China month (UTC+8), from receipt until `until` (the shipping time, or now).
 * Days are the same whole days `storageMinor` counts (the n-th day completes n × 24 h after
 * receipt) and each belongs to the month in which it completes, so the months of a shipped order
 * add up to its whole stay: day n is billable when n > the free days, and a month's part is the
 * billable days completed from its first instant to its end (or to `until`). `rulesOf(day)`
 * gives the card in force on the part's last day (null: no card, no charge that month); a
 * month's free days and price are that card's. Months with no billable day are listed with 0.
 */
export function storageMonths(
  receivedAt: string | null,
  until: string,
  rulesOf: (day: string) => C.RateRules | null,
): StorageMonth[] {
  if (!receivedAt) return [];
  const r = Date.parse(receivedAt);
  const u = Date.parse(until);
  if (!(u >= r)) return [];
  // Billable days completed by instant t (ms) under free days `free`.
  const billable = (t: number, free: number) => Math.max(0, Math.floor((t - r) / DAY_MS) - free);
  const out: StorageMonth[] = [];
  const last = chinaMonthOf(until);
  for (let p = chinaMonthOf(receivedAt); ; p = nextMonth(p)) {
    const start = chinaMonthStart(p);
    const end = Math.min(chinaMonthStart(nextMonth(p)) - 1, u);
    const at = new Date(end).toISOString();
    const day = chinaDayOf(at);
    const rules = rulesOf(day);
    const days = rules ? billable(end, rules.storageFreeDays) - billable(start - 1, rules.storageFreeDays) : 0;
    out.push({ period: p, days, amount: rules ? days * rules.storagePerDay : 0, at, day });
    if (p === last) return out;
  }
}

/** "12.34" (decimals places of the currency) → 1234n; refuses more places than the currency has. */
export function toMinor(amount: string, decimals: number): bigint {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (!m) throw new RangeError(`not a decimal: ${amount}`);
  const frac = (m[3] ?? '').replace(/0+$/, '');
  if (frac.length > decimals) throw new RangeError(`too many decimals: ${amount}`);
  const v = BigInt(m[2]! + frac.padEnd(decimals, '0'));
  return m[1] ? -v : v;
}

/**
 * Integer minor units → decimal string: 1234n, 2 → "12.34"; 5n, 0 → "5"; never through a float.
 * Takes a count as the database returns it too (a number, or a string for a bigint column).
 */
export function fromMinor(minor: bigint | number | string, decimals: number): string {
  const v = BigInt(minor);
  const neg = v < 0n;
  const s = (neg ? -v : v).toString().padStart(decimals + 1, '0');
  const out = decimals ? `${s.slice(0, -decimals)}.${s.slice(-decimals)}` : s;
  return neg ? `-${out}` : out;
}

/** A total in minor units of a currency → CNY fen at a decimal rate, rounded half away from zero. */
export function toCnyFen(total: bigint, decimals: number, rate: string): bigint {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(rate);
  if (!m) throw new RangeError(`not a rate: ${rate}`);
  const places = (m[2] ?? '').length;
  const rateInt = BigInt(m[1]! + (m[2] ?? ''));
  const num = total * rateInt * 100n;
  const den = 10n ** BigInt(decimals + places);
  const neg = num < 0n;
  const a = neg ? -num : num;
  const q = (a * 2n + den) / (den * 2n);
  return neg ? -q : q;
}

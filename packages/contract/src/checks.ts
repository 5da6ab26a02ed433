/**
 * Check digits and identity rules of the domain (ARCHITECTURE.md "Domain facts"), shared by
 * the server's validation and the console's forms so they never disagree.
 */

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = '10X98765432';

/** GB 11643 check character of the first 17 digits (ISO 7064 MOD 11-2). */
export function idCardCheckChar(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += (first17.charCodeAt(i) - 48) * ID_WEIGHTS[i]!;
  return ID_CHECK[sum % 11]!;
}

export type IdCardProblem = 'format' | 'checkDigit' | 'birthDate';

/** Birth date (YYYY-MM-DD) of a resident ID, or the problem with it. Unknown area codes are accepted. */
export function checkIdCard(
  raw: string,
  today: Date,
): { ok: true; birth: string } | { ok: false; problem: IdCardProblem } {
  const id = raw.trim().toUpperCase();
  if (!/^\d{17}[\dX]$/.test(id)) return { ok: false, problem: 'format' };
  if (idCardCheckChar(id.slice(0, 17)) !== id[17]) return { ok: false, problem: 'checkDigit' };
  const y = Number(id.slice(6, 10));
  const m = Number(id.slice(10, 12));
  const d = Number(id.slice(12, 14));
  const date = new Date(Date.UTC(y, m - 1, d));
  const real = date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
  const birth = `${id.slice(6, 10)}-${id.slice(10, 12)}-${id.slice(12, 14)}`;
  if (!real || y < 1900 || birth > chinaDate(today)) return { ok: false, problem: 'birthDate' };
  return { ok: true, birth };
}

let lastDay = { at: NaN, day: '' };
/** Today's date (YYYY-MM-DD) in Asia/Shanghai (UTC+8, no daylight saving). */
export function chinaDate(now: Date): string {
  // An import checks every row's ID against one `now`: the last answer is kept.
  const at = now.getTime();
  if (at !== lastDay.at) lastDay = { at, day: new Date(at + 8 * 3_600_000).toISOString().slice(0, 10) };
  return lastDay.day;
}

let lastCutoff = { day: '', cutoff: '' };
/**
 * Under 18 on today's date in Asia/Shanghai: born after the same day 18 years ago. Both are
 * YYYY-MM-DD, so the string order is the date order (an import asks once per row: no splitting).
 */
export function isMinor(birth: string, today: Date): boolean {
  const day = chinaDate(today);
  if (day !== lastCutoff.day)
    lastCutoff = { day, cutoff: `${String(Number(day.slice(0, 4)) - 18).padStart(4, '0')}${day.slice(4)}` };
  return birth > lastCutoff.cutoff;
}

/** EAN-13 / EAN-8 check digit over the data digits (weights 3,1,3,1… from the right). */
export function eanCheckDigit(data: string): number {
  let sum = 0;
  for (let i = 0; i < data.length; i++) {
    const fromRight = data.length - 1 - i;
    sum += Number(data[i]) * (fromRight % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

/** A JAN: EAN-13 or EAN-8 with a correct check digit. */
export function isValidJan(raw: string): boolean {
  const s = raw.trim();
  if (!/^(\d{8}|\d{13})$/.test(s)) return false;
  return eanCheckDigit(s.slice(0, -1)) === Number(s.at(-1));
}

const S10_WEIGHTS = [8, 6, 4, 2, 3, 5, 9, 7];

/** UPU S10 check digit of an 8-digit serial. */
export function s10CheckDigit(serial8: string): number {
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += Number(serial8[i]) * S10_WEIGHTS[i]!;
  const c = 11 - (sum % 11);
  return c === 10 ? 0 : c === 11 ? 5 : c;
}

/** EE12345678?JP style numbers. */
export function s10Number(prefix: string, serial: number, suffix: string): string {
  const s = String(serial).padStart(8, '0');
  return `${prefix}${s}${s10CheckDigit(s)}${suffix}`;
}

export function isValidS10(raw: string): boolean {
  const m = /^([A-Z]{2})(\d{8})(\d)([A-Z]{2})$/.exec(raw.trim().toUpperCase());
  return !!m && s10CheckDigit(m[2]!) === Number(m[3]);
}

/**
 * Check digit of a Japanese corporate number (法人番号) over its 12-digit base: weights 1, 2
 * alternating from the rightmost base digit (which weighs 1), check = 9 − (sum mod 9).
 */
export function corporateNumberCheckDigit(base12: string): number {
  let sum = 0;
  for (let i = 0; i < 12; i++) {
    const fromRight = 11 - i;
    sum += Number(base12[i]) * (fromRight % 2 === 0 ? 1 : 2);
  }
  return 9 - (sum % 9);
}

export type CorporateNumberProblem = 'digits' | 'length' | 'checkDigit';

/** What is wrong with a corporate number (13 digits, check digit first), or null when it is valid. */
export function corporateNumberProblem(raw: string): CorporateNumberProblem | null {
  const s = raw.trim();
  if (!/^\d*$/.test(s)) return 'digits';
  if (s.length !== 13) return 'length';
  return corporateNumberCheckDigit(s.slice(1)) === Number(s[0]) ? null : 'checkDigit';
}

/** Japanese corporate number (法人番号): 13 digits, check digit first. */
export function isValidCorporateNumber(raw: string): boolean {
  return corporateNumberProblem(raw) === null;
}

/** Full-width digits and letters to ASCII, stray spaces trimmed (spreadsheets are full of them). */
const NEEDS_NORMALIZING = /[\uFF01-\uFF5E\u3000]/;
export function normalizeCell(raw: string): string {
  if (!NEEDS_NORMALIZING.test(raw)) return raw.trim();
  return raw
    .replace(/[\uFF01-\uFF5E]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
    .replace(/\u3000/g, ' ')
    .trim();
}

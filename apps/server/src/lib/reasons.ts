import type { ApiLanguage } from '@console/contract';
import { translate } from './messages.ts';

/**
 * A reason recorded on a row (why an order is an error or abnormal order): a message key
 * and its parameters, not a sentence, so it is shown in the language of whoever reads it
 * and a message can be reworded without touching the data.
 */
export interface Reason {
  code: string;
  params?: Record<string, string | number>;
}

/** Reasons as stored in a text column: a JSON array of `{ code, params? }`. */
export function storeReasons(reasons: readonly Reason[]): string | null {
  if (!reasons.length) return null;
  return JSON.stringify(reasons.map((r) => (r.params && Object.keys(r.params).length ? r : { code: r.code })));
}

/**
 * The reasons of a stored value, or null when it is not in the stored form: rows written
 * before reasons were codes hold a sentence, which the caller shows as it is.
 */
export function readReasons(stored: string | null): Reason[] | null {
  if (!stored?.startsWith('[')) return null;
  try {
    const v: unknown = JSON.parse(stored);
    if (!Array.isArray(v)) return null;
    const ok = v.every(
      (r) =>
        r &&
        typeof r === 'object' &&
        typeof (r as Reason).code === 'string' &&
        ((r as Reason).params === undefined || typeof (r as Reason).params === 'object'),
    );
    return ok ? (v as Reason[]) : null;
  } catch {
    return null;
  }
}

/** Several reasons read as one line, in the caller's language. */
export function reasonsText(lang: ApiLanguage, reasons: readonly Reason[]): string {
  return reasons.map((r) => translate(lang, r.code, r.params)).join(lang === 'en' ? '; ' : '；');
}

/** A stored reason column → the text for the caller: translated codes, or an older row's sentence as it is. */
export function storedReasonText(lang: ApiLanguage, stored: string | null): string | null {
  if (stored === null || stored === '') return null;
  const reasons = readReasons(stored);
  return reasons ? reasonsText(lang, reasons) : stored;
}

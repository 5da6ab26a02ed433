import { eanCheckDigit, isValidJan } from '@console/contract';
import { t } from '@/lib';

/**
 * What is wrong with a JAN as the user types it, by the contract's rule (EAN-13 / EAN-8 check
 * digit), so the form says "the last digit should be 7" before the server is asked; null when
 * it is valid or still empty. The server checks again (and uniqueness per customer).
 */
export function janProblem(raw: string | undefined | null): string | null {
  const s = (raw ?? '').trim();
  if (!s) return null;
  if (isValidJan(s)) return null;
  if (!/^\d+$/.test(s)) return t('items.janInvalid');
  if (s.length !== 8 && s.length !== 13) return t('items.janLength', { n: s.length });
  return t('items.janCheckDigit', { d: eanCheckDigit(s.slice(0, -1)) });
}

/** Decimal strings with at most two decimals ("12", "12.5", "12.50"): money never goes through a float. */
export const isDecimal = (s: string) => /^\d{1,12}(\.\d{1,2})?$/.test(s.trim());

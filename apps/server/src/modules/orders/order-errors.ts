import type { OrderInput } from '../../domain/order-input.ts';
import { readReasons, storeReasons } from '../../lib/reasons.ts';

/**
 * Errors found downstream (customs, the carrier) name the order fields they are about. Nothing
 * here can re-check them, so such an error stands until one of the fields it names changes, or
 * until an operator clears it by hand (recorded). Finding 7 of issue 10: re-checking cleared
 * every error with no change at all, even on received and shipped orders.
 */
const NAMED_FIELDS: Record<string, (o: OrderInput) => unknown[]> = {
  'errorReason.idCardNameMismatch': (o) => [o.recipient.name, o.recipient.idCard.toUpperCase()],
};

/**
 * The stored error reasons that still stand after `before` became `after`: a reason whose
 * named fields changed is dropped. A reason that names no field (an unknown code, or a row
 * from before reasons were codes, holding a sentence) stands. Null when none stands.
 */
export function standingErrors(stored: string | null, before: OrderInput, after: OrderInput): string | null {
  if (stored === null || stored === '') return null;
  const reasons = readReasons(stored);
  if (!reasons) return stored;
  const standing = reasons.filter((r) => {
    const fields = NAMED_FIELDS[r.code];
    return !fields || JSON.stringify(fields(before)) === JSON.stringify(fields(after));
  });
  return standing.length === reasons.length ? stored : storeReasons(standing);
}

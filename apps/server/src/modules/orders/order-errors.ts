import type { OrderInput } from '../../domain/order-input.ts';
import { readReasons, storeReasons } from '../../lib/reasons.ts';

type Recipient = OrderInput['recipient'];
const idOf = (o: OrderInput) => [o.recipient.name, o.recipient.idCard.toUpperCase()];
const phoneOf = (o: OrderInput) => [o.recipient.phone];
const addressOf = (o: OrderInput) => {
  const r = o.recipient;
  return [r.province, r.city, r.district, r.street ?? null, r.address, r.postcode ?? null];
};

/**
 * What a shipped order's error fix may change (order/error/update on a shipped error order): a
 * clearance refusal is about the recipient's identity, phone or address, which the clearance
 * company can take again; the goods, the sender and the order's numbers left with the parcel
 * and stay locked, as does the e-mail (not on the declaration).
 */
export const SHIPPED_FIX_FIELDS: readonly (keyof Recipient)[] = [
  'name',
  'idCard',
  'phone',
  'province',
  'city',
  'district',
  'street',
  'address',
  'postcode',
];

/**
 * A clearance company's refusal codes (the reason code column of its result sheet, or of its
 * webhook), each stored on the order as `errorReason.clearance.<code>` and clearing when a field
 * it names changes. Other codes are refused with the row (the company's code list is this one).
 * Their words are in the contract's catalogue (`@console/contract/errors`, order-errors.ts).
 */
export const CLEARANCE_REFUSALS = {
  C01: { fields: idOf },
  C02: { fields: phoneOf },
  C03: { fields: addressOf },
  C04: { fields: idOf },
  C99: { fields: (o: OrderInput) => [...idOf(o), ...phoneOf(o), ...addressOf(o)] },
} as const;
export type ClearanceRefusal = keyof typeof CLEARANCE_REFUSALS;
export const clearanceReasonKey = (code: ClearanceRefusal) => `errorReason.clearance.${code}`;
export const isClearanceRefusal = (code: string): code is ClearanceRefusal => Object.hasOwn(CLEARANCE_REFUSALS, code);

/**
 * Errors found downstream (customs, the carrier) name the order fields they are about. Nothing
 * here can re-check them, so such an error stands until one of the fields it names changes, or
 * until an operator clears it by hand (recorded). Finding 7 of issue 10: re-checking cleared
 * every error with no change at all, even on received and shipped orders.
 */
const NAMED_FIELDS: Record<string, (o: OrderInput) => unknown[]> = {
  'errorReason.idCardNameMismatch': idOf,
  ...Object.fromEntries(
    Object.entries(CLEARANCE_REFUSALS).map(([code, r]) => [clearanceReasonKey(code as ClearanceRefusal), r.fields]),
  ),
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

/**
 * The stored reasons a box-C fix (order/error/boxcUpdate: box and split waybill numbers) leaves
 * standing: those naming recipient fields (an ID number that does not match the name, a customs
 * refusal) are about the recipient, which a box fix does not touch, so they stand as they would
 * after any change that leaves those fields alone. Any other reason (a carrier's note, an older
 * row's sentence) is what the box fix answers. Null when none stands.
 */
export function standingAfterBoxFix(stored: string | null): string | null {
  const reasons = readReasons(stored);
  if (!reasons) return null;
  return storeReasons(reasons.filter((r) => Object.hasOwn(NAMED_FIELDS, r.code)));
}

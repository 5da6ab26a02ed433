// Pure and loaded by the batch parse workers: the contract's parts only, no database (see order-input.ts).
import { checkIdCard, isMinor } from '@console/contract/checks';

/**
 * Who may receive a parcel (issue 40): the rules on the recipient, in one place, behind one entry
 * point, `mayReceive` — "may this recipient receive this order". Every way an order is made asks
 * it: the single create, the edit, the v1 API and the batch import, through `validateOrder`
 * (order-input.ts: the ID number, the per-order limit), the abnormal rules (order-checks.ts: the
 * per-order limit, the same recipient too often) and the tax estimate (pricing/order-price.ts,
 * the import's parse.notes.ts, the order review: the yearly limit). The caller looks the facts
 * up (the counts and sums per ID number are SQL, order-checks.repository.ts) and hands them in;
 * a fact not given is not judged.
 */

/** Cross-border e-commerce retail import limit per transaction, CNY fen (ARCHITECTURE.md "Domain facts"). */
export const CNY_LIMIT_PER_ORDER_MINOR = 5_000_00;

/** How many orders for one ID number within SAME_RECIPIENT_DAYS make the recipient "too often". */
export const SAME_RECIPIENT_MAX = 5;
export const SAME_RECIPIENT_DAYS = 7;

/** Start of the same-recipient window before `now` (ISO): orders created since then are counted. */
export const sameRecipientSince = (now: Date) =>
  new Date(now.getTime() - SAME_RECIPIENT_DAYS * 86_400_000).toISOString();

export interface RecipientFacts {
  /** The recipient's ID number, to check (the caller checks first that one was given). */
  idCard?: string;
  /** The day the ID number is judged on (a minor's birthday). */
  now?: Date;
  /** The order's value in CNY fen at reference rates (order-input.ts orderValueCny); null: not known. */
  valueFen?: number | null;
  /** Orders of the same ID number created in the SAME_RECIPIENT_DAYS before this one. */
  recentOrders?: number;
  /**
   * The yearly limit of the channel's regime (decimal CNY text, as tax_regimes holds it; null: none),
   * the recipient's cross-border total this year before this order and this order's value, fen.
   */
  yearly?: { limit: string | null; earlierFen: number; orderFen: number };
}

export interface RecipientVerdict {
  /** The ID number's problem, as an `idCard_<problem>` message key; null when valid or not asked. */
  idCardProblem: string | null;
  /** The recipient's birth date when the ID number is a minor's: the order asks for a confirmation. */
  minorBirth: string | null;
  /** The order is over the per-order limit (confirmation on import, abnormal rule `valueOverLimit`). */
  overOrderLimit: boolean;
  /** This order makes SAME_RECIPIENT_MAX or more for the ID number (abnormal rule `sameRecipientTooOften`). */
  tooOften: boolean;
  /** This order takes the recipient past the regime's yearly limit. */
  overYearlyLimit: boolean;
}

/** May this recipient receive this order? Each rule is judged on the facts given. */
export function mayReceive(f: RecipientFacts): RecipientVerdict {
  let idCardProblem: string | null = null;
  let minorBirth: string | null = null;
  if (f.idCard !== undefined && f.now) {
    const id = checkIdCard(f.idCard, f.now);
    if (!id.ok) idCardProblem = `idCard_${id.problem}`;
    else if (isMinor(id.birth, f.now)) minorBirth = id.birth;
  }
  const valueFen = f.valueFen ?? null;
  return {
    idCardProblem,
    minorBirth,
    overOrderLimit: valueFen !== null && valueFen > CNY_LIMIT_PER_ORDER_MINOR,
    tooOften: f.recentOrders !== undefined && f.recentOrders + 1 >= SAME_RECIPIENT_MAX,
    overYearlyLimit: !!f.yearly?.limit && f.yearly.earlierFen + f.yearly.orderFen > limitFen(f.yearly.limit),
  };
}

/** '26000.00' → 2600000: the limit's decimal text in fen, exact (as pricing/tax-estimate.ts reads money). */
function limitFen(text: string): number {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!m) throw new Error(`not a decimal: ${text}`);
  const frac = (m[2] ?? '').padEnd(2, '0');
  if (frac.length > 2 && /[1-9]/.test(frac.slice(2))) throw new Error(`too many decimals: ${text}`);
  return Number(m[1]) * 100 + Number(frac.slice(0, 2) || '0');
}

import type { Database } from '../db/database.ts';
import { type OrderInput, orderValueCny } from './order-input.ts';
import {
  CNY_LIMIT_PER_ORDER_MINOR,
  mayReceive,
  SAME_RECIPIENT_MAX,
  sameRecipientSince,
} from './recipient-eligibility.ts';
import { type Reason, storeReasons } from '../lib/reasons.ts';
import { createOrderChecksRepository } from './order-checks.repository.ts';
import { fromMinor } from './pricing/charge-amounts.ts';

/**
 * The checks every order goes through, whoever makes it (single create, edit, batch import, order
 * review, v1): the reference data validation reads, and the abnormal rules (issue 40: moved out of
 * modules/orders, which the import needed). SQL in order-checks.repository.ts.
 */

/** Reference data the validation needs (small tables, read per call so edits apply at once). */
export async function loadValidationContext(db: Database, now: Date) {
  const [cur, types, companies, channels] = await createOrderChecksRepository(db).referenceTables();
  return {
    now,
    currencies: new Map(cur.map((c) => [c.code, c.decimals])),
    orderTypes: new Set(types.map((t) => t.code)),
    clearanceCompanies: new Set(companies.map((c) => c.code)),
    channels: new Map(channels.map((c) => [c.code, c])),
  };
}
export type ValidationContext = Awaited<ReturnType<typeof loadValidationContext>>;

/** The same-recipient rule's threshold (recipient-eligibility.ts). */
export { SAME_RECIPIENT_MAX };

/** Every abnormal rule, in the order they are listed (abnormal_rules holds whether each is on). */
export const ABNORMAL_RULES = [
  'unresolvableAddress',
  'invalidPhone',
  'valueOverLimit',
  'sameRecipientTooOften',
] as const;

/** The rules switched on (operators switch them, validateAbnormalRule/updateRule). */
export async function enabledAbnormalRules(db: Database): Promise<ReadonlySet<string>> {
  const rows = await createOrderChecksRepository(db).abnormalRuleSwitches();
  const off = new Set(rows.filter((r) => Number(r.enabled) === 0).map((r) => r.code));
  return new Set(ABNORMAL_RULES.filter((r) => !off.has(r)));
}

/** Switches one rule (the row is made at the first switch); `db` is the caller's transaction. */
export async function saveAbnormalRule(db: Database, code: string, enabled: boolean, by: number, at: string) {
  await createOrderChecksRepository(db).saveAbnormalRule(code, enabled, by, at);
}

/**
 * The abnormal rules of one order, without a query: `recent` is how many orders the same ID
 * number had in the 7 days before (the caller counts them, one query for a whole chunk on
 * import). Only the rules in `enabled` apply.
 */
export function abnormalOf(
  input: OrderInput,
  currencies: ValidationContext['currencies'],
  recent: number,
  enabled: ReadonlySet<string>,
  now: Date,
) {
  const hits: string[] = [];
  const reasons: Reason[] = [];
  const hit = (rule: string, params?: Reason['params']) => {
    if (!enabled.has(rule)) return;
    hits.push(rule);
    reasons.push({ code: `abnormalReason.${rule}`, params });
  };
  if (input.recipient.address.replace(/\s/g, '').length < 4) hit('unresolvableAddress');
  if (!/^1[3-9]\d{9}$/.test(input.recipient.phone.replace(/[\s-]/g, '').replace(/^\+?86/, ''))) hit('invalidPhone');
  const fen = orderValueCny(input, currencies);
  const recipient = mayReceive({ valueFen: fen, recentOrders: recent });
  if (fen !== null && recipient.overOrderLimit)
    hit('valueOverLimit', { value: fromMinor(BigInt(fen), 2), limit: fromMinor(BigInt(CNY_LIMIT_PER_ORDER_MINOR), 2) });
  if (recipient.tooOften) hit('sameRecipientTooOften', { count: recent + 1, max: SAME_RECIPIENT_MAX });
  if (!hits.length) return { abnormal_rule: null, abnormal_reason: null, abnormal_at: null };
  return { abnormal_rule: hits.join(','), abnormal_reason: storeReasons(reasons), abnormal_at: now.toISOString() };
}

/** Orders per ID number (upper-cased) created since `since`: one query for many numbers. */
export async function recentOrdersByIdCard(db: Database, idCards: readonly string[], since: string) {
  const repo = createOrderChecksRepository(db);
  const out = new Map<string, number>();
  const ids = [...new Set(idCards.map((s) => s.toUpperCase()))];
  for (let i = 0; i < ids.length; i += 1000) {
    const rows = await repo.recentByIdCards(ids.slice(i, i + 1000), since);
    for (const r of rows) out.set(r.recipient_id_card, Number(r.n));
  }
  return out;
}

/**
 * The abnormal rules of one order (none = clean); evaluated on single create and update, and on
 * the recipient changes of an updates sheet (batch import counts per chunk, see abnormalOf). The
 * rule codes and the reasons (codes with parameters, lib/reasons.ts) are stored, never a
 * sentence: the lists show them in the language of whoever reads them.
 */
export async function evaluateAbnormal(
  db: Database,
  now: Date,
  input: OrderInput,
  ctx: Pick<ValidationContext, 'currencies'>,
  excludeOrderId?: number,
) {
  const enabled = await enabledAbnormalRules(db);
  let recent = 0;
  if (enabled.has('sameRecipientTooOften')) {
    const since = sameRecipientSince(now);
    recent = await createOrderChecksRepository(db).recentByIdCard(
      input.recipient.idCard.toUpperCase(),
      since,
      excludeOrderId,
    );
  }
  return abnormalOf(input, ctx.currencies, recent, enabled, now);
}

import type { bills as C } from '@console/contract';
import type { Transaction } from 'kysely';
import type { DB } from '../db/schema.ts';

/**
 * Charges (issue 17): what an order's life costs its customer, priced by the rate card in force
 * on the charge's day (a customer's card overrides its channel's). Every charge has a unique key
 * (`<kind>:<order>`), inserted with "on conflict do nothing": shipping twice, or two parallel
 * ship requests, charge once, and the database (not a read-then-write) decides. A correction is
 * a new line (an adjustment), never an edit. All amounts are integers in minor units.
 */

type Trx = Transaction<DB>;

const DAY_MS = 86_400_000;
/** The China (UTC+8) calendar day / month of a UTC time: the console's day, the statement's month. */
export const chinaDayOf = (at: string) => new Date(Date.parse(at) + 8 * 3_600_000).toISOString().slice(0, 10);
export const chinaMonthOf = (at: string) => chinaDayOf(at).slice(0, 7);
export const nextMonth = (p: string) => {
  const [y, m] = p.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
};

/** The freight of a gross weight under a card: first weight, then each bracket's started steps; at least the minimum. */
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

// ---- exact decimals (bigint), never floats ----

/** "12.34" (decimals places of the currency) → 1234n; refuses more places than the currency has. */
export function toMinor(amount: string, decimals: number): bigint {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (!m) throw new RangeError(`not a decimal: ${amount}`);
  const frac = (m[3] ?? '').replace(/0+$/, '');
  if (frac.length > decimals) throw new RangeError(`too many decimals: ${amount}`);
  const v = BigInt(m[2]! + frac.padEnd(decimals, '0'));
  return m[1] ? -v : v;
}

/** 1234n, 2 → "12.34"; 5n, 0 → "5". */
export function fromMinor(v: bigint, decimals: number): string {
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

// ---- cards, bills, inserts ----

interface Card {
  id: number;
  channel_code: string;
  customer_id: number | null;
  effective_from: string;
  currency: string;
  rules: C.RateRules;
}

/** Every card of the channels (and customers) asked, for picking the one in force per order. */
async function cardsFor(trx: Trx, channels: string[]): Promise<Card[]> {
  if (!channels.length) return [];
  const rows = await trx
    .selectFrom('rate_cards')
    .select(['id', 'channel_code', 'customer_id', 'effective_from', 'currency', 'rules'])
    .where('channel_code', 'in', channels)
    .execute();
  return rows.map((r) => ({ ...r, rules: JSON.parse(r.rules) as C.RateRules }));
}

/** The card in force on `day`: the customer's latest card from on or before it, else the channel's. */
export function cardInForce(cards: readonly Card[], channel: string, customerId: number, day: string): Card | null {
  let own: Card | null = null;
  let shared: Card | null = null;
  for (const c of cards) {
    if (c.channel_code !== channel || c.effective_from > day) continue;
    if (c.customer_id === customerId) {
      if (!own || c.effective_from > own.effective_from || (c.effective_from === own.effective_from && c.id > own.id))
        own = c;
    } else if (c.customer_id === null) {
      if (
        !shared ||
        c.effective_from > shared.effective_from ||
        (c.effective_from === shared.effective_from && c.id > shared.id)
      )
        shared = c;
    }
  }
  return own ?? shared;
}

/**
 * The open statement a charge of `customerId` at `at` goes to: its month's, or, once that one is
 * issued, the next open month's. Created when missing (unique per customer and month, so two
 * parallel writers share one).
 */
export async function openBillFor(trx: Trx, customerId: number, at: string): Promise<number> {
  let p = chinaMonthOf(at);
  for (let i = 0; i < 240; i++, p = nextMonth(p)) {
    await trx
      .insertInto('bills')
      .values({ customer_id: customerId, period: p, status: 'open', created_at: at, updated_at: at })
      .onConflict((oc) => oc.columns(['customer_id', 'period']).doNothing())
      .execute();
    const b = await trx
      .selectFrom('bills')
      .select(['id', 'status'])
      .where('customer_id', '=', customerId)
      .where('period', '=', p)
      .executeTakeFirstOrThrow();
    if (b.status === 'open') return b.id;
  }
  throw new Error('no open bill within 20 years');
}

export interface NewCharge {
  customer_id: number;
  order_id: number | null;
  kind: C.ChargeKind;
  charge_key: string;
  amount_minor: number | bigint;
  currency: string;
  weight_g?: number | null;
  rate_card_id?: number | null;
  reason?: string | null;
  corrects_id?: number | null;
}

/** Inserts charges into their open statements; a key already charged is skipped. Returns the ids written. */
export async function writeCharges(trx: Trx, charges: NewCharge[], at: string, by: number | null): Promise<number[]> {
  const written: number[] = [];
  const bills = new Map<number, number>();
  for (const c of charges) {
    let billId = bills.get(c.customer_id);
    if (billId === undefined) {
      billId = await openBillFor(trx, c.customer_id, at);
      bills.set(c.customer_id, billId);
    }
    const r = await trx
      .insertInto('charges')
      .values({
        bill_id: billId,
        customer_id: c.customer_id,
        order_id: c.order_id,
        kind: c.kind,
        charge_key: c.charge_key,
        amount_minor: c.amount_minor.toString(),
        currency: c.currency,
        weight_g: c.weight_g ?? null,
        rate_card_id: c.rate_card_id ?? null,
        reason: c.reason ?? null,
        corrects_id: c.corrects_id ?? null,
        at,
        created_by: by,
      })
      .onConflict((oc) => oc.column('charge_key').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (r) written.push(r.id);
  }
  return written;
}

async function ordersOf(trx: Trx, ids: readonly number[]) {
  const out = [];
  for (let i = 0; i < ids.length; i += 5000) {
    out.push(
      ...(await trx
        .selectFrom('orders')
        .select([
          'id',
          'customer_id',
          'channel_code',
          'gross_weight_g',
          'recipient_province',
          'tax_estimate',
          'received_at',
        ])
        .where('id', 'in', ids.slice(i, i + 5000))
        .execute()),
    );
  }
  return out;
}

/** CNY fen of a tax estimate (CNY decimal text, up to 4 places), rounded half up; 0 when there is none. */
function taxFen(t: string | null): bigint {
  if (!t || !/^\d+(\.\d{1,4})?$/.test(t)) return 0n;
  return (toMinor(t, 4) + 50n) / 100n;
}

/**
 * Charges of shipped orders (called by order-life's ship move, in its transaction): freight by
 * gross weight, the remote-area surcharge, storage beyond the free days, and the tax estimate as
 * a pass-through line in CNY. An order without a card in force is not charged (logged by the
 * missing line; an operator adjusts).
 */
export async function chargeShipment(trx: Trx, orderIds: readonly number[], at: string, by: number | null) {
  const orders = await ordersOf(trx, orderIds);
  const cards = await cardsFor(trx, [...new Set(orders.map((o) => o.channel_code))]);
  const day = chinaDayOf(at);
  const out: NewCharge[] = [];
  for (const o of orders) {
    const card = cardInForce(cards, o.channel_code, o.customer_id, day);
    const base = { customer_id: o.customer_id, order_id: o.id, rate_card_id: card?.id ?? null };
    if (card) {
      const r = card.rules;
      out.push({
        ...base,
        kind: 'freight',
        charge_key: `freight:${o.id}`,
        amount_minor: freightMinor(r, o.gross_weight_g),
        currency: card.currency,
        weight_g: o.gross_weight_g,
      });
      if (r.remoteFee && r.remoteProvinces.includes(o.recipient_province)) {
        out.push({
          ...base,
          kind: 'remote',
          charge_key: `remote:${o.id}`,
          amount_minor: r.remoteFee,
          currency: card.currency,
        });
      }
      const storage = storageMinor(r, o.received_at ? new Date(o.received_at).toISOString() : null, at);
      if (storage) {
        out.push({
          ...base,
          kind: 'storage',
          charge_key: `storage:${o.id}`,
          amount_minor: storage,
          currency: card.currency,
        });
      }
    }
    const tax = taxFen(o.tax_estimate);
    if (tax > 0n) {
      out.push({
        ...base,
        rate_card_id: null,
        kind: 'tax',
        charge_key: `tax:${o.id}`,
        amount_minor: tax,
        currency: 'CNY',
      });
    }
  }
  return writeCharges(trx, out, at, by);
}

async function feeCharge(
  trx: Trx,
  kind: 'interception' | 'relabel',
  fee: (r: C.RateRules) => number,
  orderIds: readonly number[],
  at: string,
  by: number | null,
) {
  const orders = await ordersOf(trx, orderIds);
  const cards = await cardsFor(trx, [...new Set(orders.map((o) => o.channel_code))]);
  const day = chinaDayOf(at);
  const out: NewCharge[] = [];
  for (const o of orders) {
    const card = cardInForce(cards, o.channel_code, o.customer_id, day);
    if (!card || !fee(card.rules)) continue;
    out.push({
      customer_id: o.customer_id,
      order_id: o.id,
      rate_card_id: card.id,
      kind,
      charge_key: `${kind}:${o.id}`,
      amount_minor: fee(card.rules),
      currency: card.currency,
    });
  }
  return writeCharges(trx, out, at, by);
}

/** The interception fee (order-life's intercept move): once per order, however often it is intercepted. */
export const chargeInterception = (trx: Trx, orderIds: readonly number[], at: string, by: number | null) =>
  feeCharge(trx, 'interception', (r) => r.interceptionFee, orderIds, at, by);

/**
 * The relabel fee of a label B (address change): modules/label-b calls it (wired in app.ts) in
 * the transaction that marks the printed orders for a label B. Once per order.
 */
export const chargeRelabel = (trx: Trx, orderIds: readonly number[], at: string, by: number | null) =>
  feeCharge(trx, 'relabel', (r) => r.relabelFee, orderIds, at, by);

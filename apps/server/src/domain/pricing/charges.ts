import type { bills as C } from '@console/contract';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { chinaDayOf, chinaMonthOf, freightMinor, nextMonth, storageMonths, toMinor } from './charge-amounts.ts';
import { type Card, cardInForce, cardsFor } from './rate-cards.ts';

/**
 * Charges (issue 17): what an order's life costs its customer, priced by the rate card in force
 * on the charge's day (a customer's card overrides its channel's). Every charge has a unique key
 * (`<kind>:<order>`; storage `storage:<order>:<YYYY-MM>`, one per China month), inserted with "on conflict do nothing": shipping twice, or two parallel
 * ship requests, charge once, and the database (not a read-then-write) decides. A correction is
 * a new line (an adjustment), never an edit. All amounts are integers in minor units
 * (charge-amounts.ts); the card in force is rate-cards.ts's.
 */

type Trx = Transaction<DB>;

/**
 * The open statement a charge of `customerId` at `at` goes to: its month's, or, once that one is
 * issued, the next open month's. Created when missing (unique per customer and month, so two
 * parallel writers share one), stamped `now` (a past month's charge is written today).
 */
export async function openBillFor(trx: Trx, customerId: number, at: string, now = at): Promise<number> {
  let p = chinaMonthOf(at);
  for (let i = 0; i < 240; i++, p = nextMonth(p)) {
    await trx
      .insertInto('bills')
      .values({ customer_id: customerId, period: p, status: 'open', created_at: now, updated_at: now })
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
  /** The line's own time when it belongs to another month than the write (a closed month's storage). */
  at?: string;
}

/**
 * Inserts charges into their open statements; a key already charged is skipped. Returns the ids
 * written. A charge with its own `at` goes to the statement of that time's month while it is open
 * (else the next open one, as every charge); the others to `at`'s.
 */
export async function writeCharges(trx: Trx, charges: NewCharge[], at: string, by: number | null): Promise<number[]> {
  const written: number[] = [];
  // Every writer takes its locks in one order, so two never wait on each other (on PostgreSQL the
  // storage job and a ship deadlocked, each holding the statement or the line the other inserts
  // next): first the statements, by customer and month; then the lines, by order (each order's in
  // the order its caller made them, which is how the statement lists them).
  const monthOf = new Map<string, { customerId: number; month: string; lineAt: string }>();
  for (const c of charges) {
    const lineAt = c.at ?? at;
    const month = chinaMonthOf(lineAt);
    const key = `${c.customer_id}:${month}`;
    if (!monthOf.has(key)) monthOf.set(key, { customerId: c.customer_id, month, lineAt });
  }
  const bills = new Map<string, number>();
  const byCustomerAndMonth = [...monthOf.entries()].sort(
    ([, a], [, b]) => a.customerId - b.customerId || (a.month < b.month ? -1 : a.month > b.month ? 1 : 0),
  );
  for (const [key, m] of byCustomerAndMonth) bills.set(key, await openBillFor(trx, m.customerId, m.lineAt, at));
  const ordered = charges
    .map((c, i) => ({ c, i }))
    .sort((a, b) => (a.c.order_id ?? 0) - (b.c.order_id ?? 0) || a.i - b.i)
    .map((x) => x.c);
  for (const c of ordered) {
    const lineAt = c.at ?? at;
    const billId = bills.get(`${c.customer_id}:${chinaMonthOf(lineAt)}`)!;
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
        at: lineAt,
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
 * gross weight, the remote-area surcharge, storage beyond the free days (every month's part the
 * accrual job has not written yet, each in its month), and the tax estimate as
 * a pass-through line in CNY. An order without a card in force is not charged (logged by the
 * missing line; an operator adjusts).
 */
export async function chargeShipment(trx: Trx, orderIds: readonly number[], at: string, by: number | null) {
  const orders = await ordersOf(trx, orderIds);
  const cards = await cardsFor(trx, [...new Set(orders.map((o) => o.channel_code))]);
  const oldStorage = await withOldStorage(trx, orderIds);
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
    }
    // Storage is priced month by month (each month's card), so it does not need today's card.
    if (!oldStorage.has(o.id)) out.push(...storageCharges(cards, o, at, null));
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

type StoredOrder = Pick<
  Awaited<ReturnType<typeof ordersOf>>[number],
  'id' | 'customer_id' | 'channel_code' | 'received_at'
>;

/**
 * The storage lines of an order from receipt until `until`, one per China month with a billable
 * day; `closedBefore` (a YYYY-MM) keeps only the months before it (the accrual job charges closed
 * months only). Each line is dated in its month, so it goes to that month's statement while open.
 */
function storageCharges(cards: readonly Card[], o: StoredOrder, until: string, closedBefore: string | null) {
  if (o.received_at === null) return [];
  const receivedAt = new Date(o.received_at).toISOString();
  const cardOf = (day: string) => cardInForce(cards, o.channel_code, o.customer_id, day);
  const out: NewCharge[] = [];
  for (const m of storageMonths(receivedAt, until, (day) => cardOf(day)?.rules ?? null)) {
    if (closedBefore !== null && m.period >= closedBefore) continue;
    if (m.amount <= 0) continue;
    const card = cardOf(m.day)!;
    out.push({
      customer_id: o.customer_id,
      order_id: o.id,
      rate_card_id: card.id,
      kind: 'storage',
      charge_key: `storage:${o.id}:${m.period}`,
      amount_minor: m.amount,
      currency: card.currency,
      at: m.at,
    });
  }
  return out;
}

/**
 * Orders charged storage before it was monthly (one `storage:<order>` line at shipping): they
 * keep that line and are not charged storage again.
 */
async function withOldStorage(trx: Trx, orderIds: readonly number[]) {
  const out = new Set<number>();
  for (let i = 0; i < orderIds.length; i += 5000) {
    const keys = orderIds.slice(i, i + 5000).map((id) => `storage:${id}`);
    const rows = await trx.selectFrom('charges').select('order_id').where('charge_key', 'in', keys).execute();
    for (const r of rows) if (r.order_id !== null) out.add(r.order_id);
  }
  return out;
}

/**
 * The closed months' storage of orders still in the warehouse (received, not shipped; an
 * intercepted order included, which may never ship): the accrual job (modules/bills) calls it
 * per chunk of orders, each chunk in a transaction. Months already charged are skipped (read
 * first, and the unique key decides under parallel runs), so running it again writes nothing.
 */
export async function chargeStorageAccrued(trx: Trx, orderIds: readonly number[], at: string) {
  const orders = await ordersOf(trx, orderIds);
  const cards = await cardsFor(trx, [...new Set(orders.map((o) => o.channel_code))]);
  const charged = new Set<string>();
  for (let i = 0; i < orderIds.length; i += 5000) {
    const rows = await trx
      .selectFrom('charges')
      .select('charge_key')
      .where('order_id', 'in', orderIds.slice(i, i + 5000))
      .where('kind', '=', 'storage')
      .execute();
    for (const r of rows) charged.add(r.charge_key);
  }
  const current = chinaMonthOf(at);
  const out: NewCharge[] = [];
  for (const o of orders) {
    if (o.received_at === null || charged.has(`storage:${o.id}`)) continue;
    out.push(...storageCharges(cards, o, at, current).filter((c) => !charged.has(c.charge_key)));
  }
  return writeCharges(trx, out, at, null);
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

/**
 * A re-weigh of order `orderId` (issue 26): its freight, when charged, re-priced by the weight
 * now measured under the card that priced it. The freight line is never edited (it may be on a
 * statement already issued): the difference from what its freight costs now (the line and the
 * re-weighs' adjustments before) is a new adjustment line correcting it, on the customer's open
 * statement. Null: no freight charged yet (shipping prices the new weight) or no difference. The
 * caller holds the order's row, so two re-weighs of one order take turns.
 */
export async function repriceFreight(
  trx: Trx,
  orderId: number,
  weightG: number,
  reason: string,
  at: string,
  by: number | null,
): Promise<{ id: number; amountMinor: bigint; currency: string } | null> {
  const freight = await trx
    .selectFrom('charges')
    .select(['id', 'customer_id', 'amount_minor', 'currency', 'rate_card_id'])
    .where('charge_key', '=', `freight:${orderId}`)
    .executeTakeFirst();
  if (!freight || freight.rate_card_id === null) return null;
  const card = await trx
    .selectFrom('rate_cards')
    .select('rules')
    .where('id', '=', freight.rate_card_id)
    .executeTakeFirstOrThrow();
  const before = await trx
    .selectFrom('charges')
    .select('amount_minor')
    .where('corrects_id', '=', freight.id)
    .where('charge_key', 'like', `reweigh:${freight.id}:%`)
    .execute();
  const charged = before.reduce((n, c) => n + BigInt(c.amount_minor), BigInt(freight.amount_minor));
  const delta = BigInt(freightMinor(JSON.parse(card.rules) as C.RateRules, weightG)) - charged;
  if (delta === 0n) return null;
  const [id] = await writeCharges(
    trx,
    [
      {
        customer_id: freight.customer_id,
        order_id: orderId,
        kind: 'adjustment',
        charge_key: `reweigh:${freight.id}:${crypto.randomUUID()}`,
        amount_minor: delta,
        currency: freight.currency,
        weight_g: weightG,
        rate_card_id: freight.rate_card_id,
        reason,
        corrects_id: freight.id,
      },
    ],
    at,
    by,
  );
  return { id: id!, amountMinor: delta, currency: freight.currency };
}

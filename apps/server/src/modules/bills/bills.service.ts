import { type ApiLanguage, type bills as C, ErrorCode } from '@console/contract';
import type { Database } from '../../db/database.ts';
import { chinaMonthOf, fromMinor, toCnyFen, toMinor, writeCharges } from '../../domain/pricing/index.ts';
import { recordBillEvent } from '../../domain/order-events.ts';
import { Download } from '../../http/call-context.ts';
import { audit, type AuditWho } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import type { Actor, Scope } from '../../lib/scope.ts';
import { buildWorkbookStream } from '../../lib/workbook-job.ts';
import { statementJob } from './bills.export.ts';
import { type BillRecord, createBillsRepository } from './bills.repository.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** The caller of a change, for its audit row. */
type Caller = AuditWho & { actor: Actor };
const isoOf = (t: string | Date | null) => (t === null ? null : new Date(t).toISOString());

/**
 * Bills: statements per customer and month in the caller's scope (another tenant's id is not
 * found), their lines, the chart's monthly totals, the workbook; operators issue, mark paid,
 * adjust (a new line with a reason) and keep rate cards (new versions, never edits).
 */
export function createBillsService(deps: { db: Database; clock: () => Date }) {
  const { db, clock } = deps;
  const repo = createBillsRepository(db);
  const now = () => clock().toISOString();

  /** Decimals per currency and the CNY rate of a currency in a month (the latest row from on or before it). */
  async function money(r = repo) {
    const [currencies, rates] = await Promise.all([r.currencies(), r.rates()]);
    const decimals = Object.fromEntries(currencies.map((c) => [c.code, c.decimals]));
    const rateOf = (currency: string, period: string) => {
      let best: { month: string; rate_cny: string } | null = null;
      for (const r of rates)
        if (r.currency === currency && r.month <= period && (!best || r.month > best.month)) best = r;
      return best?.rate_cny ?? null;
    };
    return { decimals, rateOf };
  }
  type Money = Awaited<ReturnType<typeof money>>;

  /** Totals per currency and in CNY of bills, from the sums of their lines. */
  async function totalsOf(bills: { id: number; period: string }[], m: Money, r = repo) {
    const sums = await r.sums(bills.map((b) => b.id));
    const out = new Map<number, { lines: number; totals: C.CurrencyTotal[]; cnyFen: bigint }>();
    for (const b of bills) out.set(b.id, { lines: 0, totals: [], cnyFen: 0n });
    const periodOf = new Map(bills.map((b) => [b.id, b.period]));
    for (const s of sums) {
      const t = out.get(s.bill_id)!;
      const total = BigInt(s.total);
      const dec = m.decimals[s.currency] ?? 2;
      t.lines += Number(s.n);
      t.totals.push({ currency: s.currency, amount: fromMinor(total, dec) });
      const rate = m.rateOf(s.currency, periodOf.get(s.bill_id)!);
      if (rate) t.cnyFen += toCnyFen(total, dec, rate);
    }
    for (const t of out.values()) t.totals.sort((a, b) => a.currency.localeCompare(b.currency));
    return out;
  }

  /** `r`: a repository on a transaction, to read what it wrote (a bill's event). */
  async function present(rows: BillRecord[], r = repo): Promise<C.BillRow[]> {
    const totals = await totalsOf(rows, await money(r), r);
    return rows.map((r) => {
      const t = totals.get(r.id)!;
      return {
        id: r.id,
        customerId: r.customer_id,
        customerCode: r.customer_code,
        period: r.period,
        status: r.status as C.BillStatus,
        lines: t.lines,
        totals: t.totals,
        totalCny: fromMinor(t.cnyFen, 2),
        issuedAt: isoOf(r.issued_at),
        paidAt: isoOf(r.paid_at),
      };
    });
  }

  async function load(scope: Scope, id: number) {
    const r = await repo.find(scope, id);
    if (!r) throw new AppError(ErrorCode.NOT_FOUND, 'billNotFound');
    return r;
  }

  const presentCard = (r: Awaited<ReturnType<typeof repo.card>>): C.RateCardRow => ({
    id: r.id,
    channelCode: r.channel_code,
    customerId: r.customer_id,
    customerCode: r.customer_code,
    effectiveFrom: r.effective_from,
    currency: r.currency,
    rules: JSON.parse(r.rules),
    createdAt: new Date(r.created_at).toISOString(),
  });

  /** A statement's step (issue, paid), audited in the same transaction as the guarded UPDATE. */
  async function setStatus(
    who: Caller,
    scope: Scope,
    id: number,
    from: C.BillStatus,
    to: C.BillStatus,
    notKey: string,
  ) {
    const b = await load(scope, id);
    await db.transaction().execute(async (trx) => {
      const inTrx = createBillsRepository(trx);
      const at = now();
      if (!(await inTrx.setStatus(id, from, to, at))) throw AppError.conflict(notKey);
      if (to === 'issued' || to === 'paid') {
        // The customer's systems hear of it (a webhook event), in this transaction: the bill as it left it.
        const [bill] = await present([(await inTrx.find({ all: true }, id))!], inTrx);
        const { totalCny: _, ...shown } = bill!;
        await recordBillEvent(trx, shown, at, to === 'paid' ? 'bill.paid' : 'bill.issued');
      }
      await audit(
        trx,
        who,
        {
          action: to === 'paid' ? 'bill.markPaid' : 'bill.issue',
          target: `bill:${id}`,
          detail: { customer: b.customer_code, period: b.period },
        },
        clock(),
      );
    });
    return (await present([await load(scope, id)]))[0]!;
  }

  return {
    async page(scope: Scope, f: C.BillListRequest) {
      const { total, rows } = await repo.page(scope, f);
      return { total, list: await present(rows) };
    },

    async lines(scope: Scope, input: { id: number; offset: number; limit: number; order: 'asc' | 'desc' }) {
      await load(scope, input.id);
      const { decimals } = await money();
      const { total, rows } = await repo.lines(input.id, input);
      return {
        total,
        list: rows.map((r): C.ChargeRow => ({
          id: r.id,
          kind: r.kind as C.ChargeKind,
          orderId: r.order_id,
          orderNo: r.order_no,
          amount: fromMinor(BigInt(r.amount_minor), decimals[r.currency] ?? 2),
          currency: r.currency,
          weightG: r.weight_g,
          reason: r.reason,
          correctsId: r.corrects_id,
          at: new Date(r.at).toISOString(),
        })),
      };
    },

    /** CNY totals of the last 12 months (the current China month and 11 before), empty months as 0. */
    async months(scope: Scope, customerId?: number) {
      const end = chinaMonthOf(now());
      const periods: string[] = [];
      let [y, mo] = end.split('-').map(Number) as [number, number];
      for (let i = 0; i < 12; i++) {
        periods.unshift(`${y}-${String(mo).padStart(2, '0')}`);
        mo -= 1;
        if (mo === 0) [y, mo] = [y - 1, 12];
      }
      const bills = await repo.monthBills(scope, periods[0]!, customerId);
      const totals = await totalsOf(bills, await money());
      const byPeriod = new Map<string, bigint>(periods.map((p) => [p, 0n]));
      for (const b of bills)
        if (byPeriod.has(b.period)) byPeriod.set(b.period, byPeriod.get(b.period)! + totals.get(b.id)!.cnyFen);
      return periods.map((period) => ({ period, totalCny: fromMinor(byPeriod.get(period)!, 2) }));
    },

    async download(scope: Scope, id: number, lang: ApiLanguage) {
      const b = await load(scope, id);
      const [row] = await present([b]);
      const { decimals } = await money();
      const job = statementJob(repo.forDownload(id), lang, { decimals, totalCny: row!.totalCny }, b.period);
      const name = `${lang === 'en' ? 'bill' : '账单'}-${b.customer_code}-${b.period}.xlsx`;
      return new Download(name, XLSX, await buildWorkbookStream(db, job));
    },

    async issue(who: Caller, scope: Scope, id: number) {
      return setStatus(who, scope, id, 'open', 'issued', 'billNotOpen');
    },

    async markPaid(who: Caller, scope: Scope, id: number) {
      return setStatus(who, scope, id, 'issued', 'paid', 'billNotIssued');
    },

    /** A manual adjustment: a new signed line on the customer's open statement, never an edit. */
    async adjust(
      who: Caller,
      input: {
        customerId: number;
        orderId?: number;
        correctsId?: number;
        currency: string;
        amount: string;
        reason: string;
      },
    ) {
      const { decimals } = await money();
      const dec = decimals[input.currency];
      if (dec === undefined) throw AppError.field('currency', 'billCurrencyUnknown');
      let minor: bigint;
      try {
        minor = toMinor(input.amount, dec);
      } catch {
        throw AppError.field('amount', 'billAmountDecimals', { decimals: dec });
      }
      if (minor === 0n) throw AppError.field('amount', 'billAmountZero');
      if (!(await repo.customer(input.customerId))) throw AppError.field('customerId', 'rateCardCustomerUnknown');
      if (input.orderId) {
        const o = await repo.orderCustomer(input.orderId);
        if (!o || o.customer_id !== input.customerId) throw AppError.field('orderId', 'billOrderNotCustomers');
      }
      if (input.correctsId) {
        const c = await repo.charge(input.correctsId);
        if (!c || c.customer_id !== input.customerId) throw AppError.field('correctsId', 'billChargeNotCustomers');
      }
      const at = now();
      const [id] = await db.transaction().execute(async (trx) => {
        const ids = await writeCharges(
          trx,
          [
            {
              customer_id: input.customerId,
              order_id: input.orderId ?? null,
              kind: 'adjustment',
              charge_key: `adjustment:${crypto.randomUUID()}`,
              amount_minor: minor,
              currency: input.currency,
              reason: input.reason,
              corrects_id: input.correctsId ?? null,
            },
          ],
          at,
          who.actor.userId,
        );
        await audit(
          trx,
          who,
          {
            action: 'bill.adjust',
            target: `customer:${input.customerId}`,
            detail: {
              charge: ids[0],
              amount: input.amount,
              currency: input.currency,
              orderId: input.orderId,
              correctsId: input.correctsId,
              reason: input.reason,
            },
          },
          clock(),
        );
        return ids;
      });
      return {
        id: id!,
        kind: 'adjustment' as const,
        orderId: input.orderId ?? null,
        orderNo: null,
        amount: fromMinor(minor, dec),
        currency: input.currency,
        weightG: null,
        reason: input.reason,
        correctsId: input.correctsId ?? null,
        at,
      };
    },

    async cards(f: {
      channelCode?: string;
      customerId?: number;
      offset: number;
      limit: number;
      order: 'asc' | 'desc';
    }) {
      const { total, rows } = await repo.cards(f);
      return { total, list: rows.map(presentCard) };
    },

    /** A new card version in the channel's currency; brackets must rise above the first weight. */
    async saveCard(
      who: Caller,
      input: { channelCode: string; customerId: number | null; effectiveFrom: string; rules: C.RateRules },
    ) {
      const ch = await repo.channel(input.channelCode);
      if (!ch) throw AppError.field('channelCode', 'rateCardChannelUnknown');
      if (input.customerId !== null && !(await repo.customer(input.customerId)))
        throw AppError.field('customerId', 'rateCardCustomerUnknown');
      let lower = input.rules.firstWeightG;
      input.rules.brackets.forEach((b, i) => {
        const last = i === input.rules.brackets.length - 1;
        if ((b.upToG === null && !last) || (b.upToG !== null && b.upToG <= lower))
          throw AppError.field('rules.brackets', 'rateCardBrackets');
        if (b.upToG !== null) lower = b.upToG;
      });
      const id = await db.transaction().execute(async (trx) => {
        const card = await createBillsRepository(trx).insertCard({
          channel_code: ch.code,
          customer_id: input.customerId,
          effective_from: input.effectiveFrom,
          currency: ch.currency,
          rules: JSON.stringify(input.rules),
          created_by: who.actor.userId,
          created_at: now(),
        });
        await audit(
          trx,
          who,
          {
            action: 'rateCard.save',
            target: `rateCard:${card.id}`,
            detail: { channel: ch.code, customerId: input.customerId, from: input.effectiveFrom, rules: input.rules },
          },
          clock(),
        );
        return card.id;
      });
      return presentCard(await repo.card(id));
    },
  };
}
export type BillsService = ReturnType<typeof createBillsService>;

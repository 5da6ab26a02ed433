import type { Database } from '../../db/database.ts';
import { CNY_REFERENCE_RATES, type OrderInput, type OrderItemInput, validateOrder } from '../../domain/order-input.ts';
import { readReasons } from '../../lib/reasons.ts';
import { evaluateAbnormal, type ValidationContext } from '../../domain/order-checks.ts';
import { fromMinor } from '../orders/index.ts';
import {
  type CatalogueEntry as TaxCatalogueEntry,
  type ChannelTax,
  cnyWhole,
  estimateTax,
} from '../../domain/pricing/tax-estimate.ts';
import { mayReceive } from '../../domain/recipient-eligibility.ts';

/**
 * The checks an order review runs, as a list: each looks at one order (and its items) and
 * records findings. A new check (a tax check) is one more entry in `REVIEW_CHECKS`. The rules
 * themselves are not written here: the order's rules are the domain's (`validateOrder`) and
 * the abnormal rules of order creation (`evaluateAbnormal`); the catalogue is the item
 * catalogue's own status and declared price.
 */
export interface StoredFinding {
  check: string;
  code: string;
  severity: 'error' | 'warning';
  /** Message key: `review_<check>_<code>`, or the rule's own key (abnormal rules). */
  key: string;
  params?: Record<string, string | number>;
}

/** The catalogue entry of a JAN for this customer. */
export interface CatalogueEntry {
  id: number;
  status: 'approved' | 'pending' | 'failed';
  clearancePrice: string;
  reason: string | null;
}

export interface CheckContext {
  db: Database;
  now: Date;
  validation: ValidationContext;
  catalogue: ReadonlyMap<string, CatalogueEntry>;
  /**
   * The tax check's data: each channel's regime, the catalogue's tax data of the JANs, and each
   * recipient's cross-border total this year in fen (every customer's orders; this review's
   * earlier orders are added as they are checked). Never shown: only "would pass the limit".
   */
  tax?: {
    channelTax: ReadonlyMap<string, ChannelTax>;
    entries: ReadonlyMap<string, TaxCatalogueEntry>;
    yearly: Map<string, number>;
  };
}

export interface CheckOutput {
  order(f: Omit<StoredFinding, 'check'>): void;
  item(index: number, f: Omit<StoredFinding, 'check'>): void;
}

export interface ReviewCheck {
  name: string;
  run(order: OrderInput, ctx: CheckContext, out: CheckOutput): void | Promise<void>;
}

const finding = (
  check: string,
  code: string,
  severity: StoredFinding['severity'],
  params?: StoredFinding['params'],
) => ({
  code,
  severity,
  key: `review_${check}_${code}`,
  ...(params ? { params } : {}),
});

/** Is every item's JAN declared, and how does its item review stand? */
export const catalogueCheck: ReviewCheck = {
  name: 'catalogue',
  run(order, ctx, out) {
    order.items.forEach((it, i) => {
      if (!it.jan) return out.item(i, finding('catalogue', 'noJan', 'error'));
      const entry = ctx.catalogue.get(it.jan);
      if (!entry) out.item(i, finding('catalogue', 'unknown', 'error', { jan: it.jan }));
      else if (entry.status === 'pending') out.item(i, finding('catalogue', 'pending', 'warning', { jan: it.jan }));
      else if (entry.status === 'failed')
        out.item(i, finding('catalogue', 'failed', 'error', { jan: it.jan, reason: entry.reason ?? '' }));
    });
  },
};

/**
 * Tolerance of the price check for prices not in CNY: they are converted by the reference
 * rates (domain/order-input.ts), which are not the customs rate of the day.
 */
export const CONVERTED_PRICE_TOLERANCE = 0.05;

/** The order item's unit price in CNY fen: exact for CNY, by the reference rate otherwise; null if no rate. */
export function unitPriceFen(it: OrderItemInput, decimals: ReadonlyMap<string, number>): number | null {
  const rate = CNY_REFERENCE_RATES[it.currency];
  const d = decimals.get(it.currency);
  if (rate === undefined || d === undefined) return null;
  if (it.currency === 'CNY') return Math.round(it.unitPrice * 10 ** (2 - d));
  return Math.round((it.unitPrice / 10 ** d) * rate * 100);
}

/** Decimal string "12.5" → fen, without a float. */
function decimalFen(s: string): number {
  const [whole, frac = ''] = s.split('.');
  return Number(whole) * 100 + Number((frac + '00').slice(0, 2));
}

/** Does the unit price agree with the catalogue's declared clearance price (CNY)? */
export const priceCheck: ReviewCheck = {
  name: 'price',
  run(order, ctx, out) {
    order.items.forEach((it, i) => {
      const entry = it.jan ? ctx.catalogue.get(it.jan) : undefined;
      if (!entry) return;
      const actual = unitPriceFen(it, ctx.validation.currencies);
      if (actual === null) return;
      const declared = decimalFen(entry.clearancePrice);
      const off =
        it.currency === 'CNY'
          ? actual !== declared
          : Math.abs(actual - declared) > declared * CONVERTED_PRICE_TOLERANCE;
      if (off)
        out.item(
          i,
          finding('price', 'mismatch', 'error', { actual: fromMinor(actual, 2), declared: fromMinor(declared, 2) }),
        );
    });
  },
};

/**
 * The order rules of creation that ask the user to confirm (a minor's ID, several prices of
 * one JAN). The per-order value limit is the abnormal check's `valueOverLimit`, not repeated.
 */
export const orderRulesCheck: ReviewCheck = {
  name: 'orderRules',
  run(order, ctx, out) {
    for (const c of validateOrder(order, ctx.validation).confirmations) {
      if (c.kind === 'crossBorderLimit') continue;
      out.order(finding('orderRules', c.kind, 'warning', c.params));
    }
  },
};

/** The abnormal rules of order creation (address, phone, value limit, same recipient too often). */
export const abnormalCheck: ReviewCheck = {
  name: 'abnormal',
  async run(order, ctx, out) {
    const r = await evaluateAbnormal(ctx.db, ctx.now, order, ctx.validation);
    const rules = r.abnormal_rule?.split(',') ?? [];
    const reasons = readReasons(r.abnormal_reason) ?? [];
    rules.forEach((rule, i) =>
      out.order({
        code: rule,
        severity: rule === 'valueOverLimit' ? 'error' : 'warning',
        key: reasons[i]?.code ?? `abnormalReason.${rule}`,
        ...(reasons[i]?.params ? { params: reasons[i]!.params } : {}),
      }),
    );
  },
};

/**
 * The tax rules: an order that would take its recipient past the regime's yearly cross-border
 * limit (CNY 26,000 a calendar year, by ID number over every customer's orders) fails at customs:
 * found here first, with the same estimate the order import makes (domain/pricing/tax-estimate.ts).
 */
export const taxCheck: ReviewCheck = {
  name: 'tax',
  run(order, ctx, out) {
    if (!ctx.tax) return;
    const regime = ctx.tax.channelTax.get(order.channel)?.regime ?? null;
    const tax = estimateTax(order, regime, ctx.tax.entries, ctx.validation.currencies);
    if (!tax || !regime?.yearlyLimit) return;
    const id = order.recipient.idCard.toUpperCase();
    const earlier = ctx.tax.yearly.get(id) ?? 0;
    ctx.tax.yearly.set(id, earlier + tax.valueFen);
    if (
      mayReceive({ yearly: { limit: regime.yearlyLimit, earlierFen: earlier, orderFen: tax.valueFen } }).overYearlyLimit
    )
      out.order(finding('tax', 'yearlyLimit', 'error', { limit: cnyWhole(regime.yearlyLimit) }));
  },
};

export const REVIEW_CHECKS: readonly ReviewCheck[] = [
  catalogueCheck,
  priceCheck,
  orderRulesCheck,
  abnormalCheck,
  taxCheck,
];

/** Every check on one order: its own findings and each item's. */
export async function reviewOrder(order: OrderInput, ctx: CheckContext, checks = REVIEW_CHECKS) {
  const orderFindings: StoredFinding[] = [];
  const itemFindings: StoredFinding[][] = order.items.map(() => []);
  for (const check of checks) {
    await check.run(order, ctx, {
      order: (f) => orderFindings.push({ check: check.name, ...f }),
      item: (i, f) => itemFindings[i]!.push({ check: check.name, ...f }),
    });
  }
  return { orderFindings, itemFindings };
}

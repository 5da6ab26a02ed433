import { CNY_REFERENCE_RATES, type OrderItemInput } from '../order-input.ts';

/**
 * Catalogue status of order items and the tax estimate of an order (issue 12). Pure, so the
 * parse worker runs it beside the server: the data it needs (the customer's catalogue entries,
 * the channel's regime, the recipient's yearly total) is looked up in bulk and handed in.
 *
 * Money is integer fen; rates and limits come from the database as decimal strings
 * (migration 2026-11-24T0420-catorders-tax) and are read as integers (parts per 10,000, fen),
 * so no float ever holds an amount.
 */
export type CatalogueMark = 'unknown' | 'pending' | 'failed' | 'approved';

/** What of an order item the catalogue and the tax need. */
export type TaxItem = Pick<OrderItemInput, 'jan' | 'unitPrice' | 'quantity' | 'currency'>;
interface TaxOrder {
  items: readonly TaxItem[];
}

/** A JAN as the customer's catalogue has it; tax data only from an approved entry. */
export interface CatalogueEntry {
  status: Exclude<CatalogueMark, 'unknown'>;
  /** Postal articles rate of the item's tax code ('0.13'), null when it has none. */
  postalRate: string | null;
  /** Consumption tax rate of the item's category or its nearest parent ('0.15'), null = none. */
  consumptionRate: string | null;
}

export type RegimeCode = 'cbec' | 'postal';
export interface TaxRegime {
  code: RegimeCode;
  dutyRate: string;
  vatRate: string;
  levyShare: string;
  orderLimit: string | null;
  yearlyLimit: string | null;
  waiver: string | null;
}
export interface ChannelTax {
  regime: TaxRegime | null;
  requiresRegisteredItems: boolean;
}

export interface TaxEstimate {
  regime: RegimeCode;
  /** Dutiable value: the items' prices in CNY by the reference rates. */
  valueFen: number;
  dutyFen: number;
  vatFen: number;
  consumptionFen: number;
  /** Postal articles tax (postal regime only). */
  postalFen: number;
  /** What would be collected: the sum, 0 when waived. */
  totalFen: number;
  /** Postal: the tax is at or below the waiver and not collected. */
  waived: boolean;
  /** Cross-border: the order is over the per-order limit, taxed at full rates (general trade). */
  overOrderLimit: boolean;
  /** Some item had no tax data (not approved in the catalogue): the estimate leaves it out or assumes none. */
  incomplete: boolean;
}

/** '0.13' → 1300 (parts per 10,000); '5000.00' at scale 2 → 500000. Exact on decimal text. */
export function scaledDecimal(text: string, scale: number): number {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!m) throw new Error(`not a decimal: ${text}`);
  const frac = (m[2] ?? '').padEnd(scale, '0');
  if (frac.length > scale && /[1-9]/.test(frac.slice(scale))) throw new Error(`too many decimals: ${text}`);
  return Number(m[1]) * 10 ** scale + Number(frac.slice(0, scale) || '0');
}
/** Parsed once per distinct text: a 100,000-order preview reads the same few rates again and again. */
const parsed = new Map<string, number>();
function cached(text: string, scale: number) {
  const key = `${scale}:${text}`;
  let v = parsed.get(key);
  if (v === undefined) parsed.set(key, (v = scaledDecimal(text, scale)));
  return v;
}
const bp = (rate: string) => cached(rate, 4);
export const fenOf = (cny: string) => cached(cny, 2);

/** round(a × b / c), half up, exact: Numbers while the product is safe, BigInt beyond. */
export function mulDiv(a: number, b: number, c: number): number {
  const p = a * b;
  if (Number.isSafeInteger(p)) return Math.floor((2 * p + c) / (2 * c));
  const r = (2n * BigInt(a) * BigInt(b) + BigInt(c)) / (2n * BigInt(c));
  return Number(r);
}

/** CNY per major unit as millionths (integers), from the reference rates. */
const MICRO_RATES = new Map(Object.entries(CNY_REFERENCE_RATES).map(([k, v]) => [k, Math.round(v * 1e6)]));

/** An item's value in fen (unit price in minor units × quantity), or null if its currency has no rate. */
export function itemValueFen(
  it: Pick<TaxItem, 'unitPrice' | 'quantity' | 'currency'>,
  currencies: ReadonlyMap<string, number>,
): number | null {
  const micro = MICRO_RATES.get(it.currency);
  const decimals = currencies.get(it.currency);
  if (micro === undefined || decimals === undefined) return null;
  // minor / 10^dec major units × micro / 10^6 CNY × 100 fen = minor × micro / (10^dec × 10^4).
  return mulDiv(it.unitPrice * it.quantity, micro, 10 ** decimals * 10_000);
}

/** Each item's catalogue status: its entry's, 'unknown' when not declared, null without a JAN. */
export function catalogueMarks(
  order: TaxOrder,
  entries: ReadonlyMap<string, CatalogueEntry>,
): (CatalogueMark | null)[] {
  return order.items.map((it) => (it.jan ? (entries.get(it.jan)?.status ?? 'unknown') : null));
}

/**
 * The order's tax under its channel's regime; null when the channel has none or a currency
 * has no rate.
 *  - cbec: duty at the regime's rate (0); consumption tax = value × c / (1 − c) where the
 *    category has one; import VAT = (value + consumption tax) × 13 %; both levied at 70 % —
 *    at full rates when the order is over the per-order limit (no longer a cross-border retail
 *    import).
 *  - postal: value × the item's tax-code rate (13 / 20 / 50 %); not collected at or below the waiver.
 */
export function estimateTax(
  order: TaxOrder,
  regime: TaxRegime | null,
  entries: ReadonlyMap<string, CatalogueEntry>,
  currencies: ReadonlyMap<string, number>,
): TaxEstimate | null {
  if (!regime) return null;
  const n = order.items.length;
  const values = new Array<number>(n);
  const approved = new Array<CatalogueEntry | undefined>(n);
  let valueFen = 0;
  let incomplete = false;
  for (let i = 0; i < n; i++) {
    const it = order.items[i]!;
    const v = itemValueFen(it, currencies);
    if (v === null) return null;
    values[i] = v;
    valueFen += v;
    const e = it.jan ? entries.get(it.jan) : undefined;
    if (e?.status === 'approved') approved[i] = e;
    else incomplete = true;
  }
  const out: TaxEstimate = {
    regime: regime.code,
    valueFen,
    dutyFen: 0,
    vatFen: 0,
    consumptionFen: 0,
    postalFen: 0,
    totalFen: 0,
    waived: false,
    overOrderLimit: false,
    incomplete,
  };
  if (regime.code === 'postal') {
    for (let i = 0; i < n; i++) {
      const rate = approved[i]?.postalRate;
      if (rate) out.postalFen += mulDiv(values[i]!, bp(rate), 10_000);
    }
    out.waived = regime.waiver !== null && out.postalFen <= fenOf(regime.waiver);
    out.totalFen = out.waived ? 0 : out.postalFen;
    return out;
  }
  out.overOrderLimit = regime.orderLimit !== null && valueFen > fenOf(regime.orderLimit);
  const share = out.overOrderLimit ? 10_000 : bp(regime.levyShare);
  const vat = bp(regime.vatRate);
  const duty = bp(regime.dutyRate);
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    const rate = approved[i]?.consumptionRate;
    const c = rate ? bp(rate) : 0;
    const ct = c > 0 ? mulDiv(v, c, 10_000 - c) : 0;
    if (duty) out.dutyFen += mulDiv(v, duty, 10_000);
    if (ct) out.consumptionFen += mulDiv(ct, share, 10_000);
    out.vatFen += mulDiv(mulDiv(v + ct, vat, 10_000), share, 10_000);
  }
  out.totalFen = out.dutyFen + out.consumptionFen + out.vatFen;
  return out;
}

/** '12.34' from 1234 fen. */
export function fenText(fen: number): string {
  const sign = fen < 0 ? '-' : '';
  const a = Math.abs(fen);
  return `${sign}${Math.floor(a / 100)}.${String(a % 100).padStart(2, '0')}`;
}

/** Start and end (exclusive) of the calendar year in China (UTC+8) that holds `now`, as UTC ISO times. */
export function chinaYear(now: Date): { from: string; to: string } {
  const y = new Date(now.getTime() + 8 * 3_600_000).getUTCFullYear();
  return {
    from: new Date(Date.UTC(y, 0, 1) - 8 * 3_600_000).toISOString(),
    to: new Date(Date.UTC(y + 1, 0, 1) - 8 * 3_600_000).toISOString(),
  };
}

/** '26,000' from '26000.00', for messages. */
export const cnyWhole = (cny: string) => Number(cny.split('.')[0]).toLocaleString('en-US');

/** An order's issues from the catalogue: warnings, or refusals on a channel that needs registered items. */
export interface CatalogueIssue {
  /** Index of the item in the order. */
  item: number;
  mark: Exclude<CatalogueMark, 'approved'> | 'noJan';
  refused: boolean;
  messageKey: string;
  params: Record<string, string>;
}

export function catalogueIssues(
  order: TaxOrder,
  marks: readonly (CatalogueMark | null)[],
  channel: ChannelTax | undefined,
): CatalogueIssue[] {
  const out: CatalogueIssue[] = [];
  const refused = !!channel?.requiresRegisteredItems;
  order.items.forEach((it, i) => {
    const mark = marks[i];
    if (mark === 'approved') return;
    if (mark === null || mark === undefined) {
      // An item without a JAN cannot be found in a catalogue: only a channel that needs one says so.
      if (refused) out.push({ item: i, mark: 'noJan', refused, messageKey: 'itemRegisteredJanRequired', params: {} });
      return;
    }
    out.push({
      item: i,
      mark,
      refused,
      messageKey: `${refused ? 'itemMustBeRegistered' : 'itemNotRegistered'}_${mark}`,
      params: { jan: it.jan ?? '' },
    });
  });
  return out;
}

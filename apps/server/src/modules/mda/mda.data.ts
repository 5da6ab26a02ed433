import type { MdaItemRow, MdaOrderRow } from './mda.repository.ts';

/**
 * The MDA data of an order, built from plain rows (no database, no I/O), so the workbooks, the
 * PD PDF and the tests all read one shape.
 *
 * Value in JPY (docs/decisions.md "MDA"):
 * - The order has a declaration row: its amount is the declared value; it is spread over the
 *   lines in proportion to their own value (below), whole yen, the remainder on the last line,
 *   so the lines add up to the declared amount exactly; its product name is the description.
 * - Otherwise each line's value is the catalogue's declaration price (JPY) × quantity, or the
 *   order's own unit price × quantity when the order is priced in JPY. There is no exchange
 *   rate in the product: a line priced in another currency without a catalogue price has no
 *   value (blank) rather than a guessed one, and the order is marked incomplete.
 */

/** NACCS unit code for pieces (UN/ECE Rec. 20), the unit every line is counted in. */
export const PIECES = 'PCE';
/** Procedure MDA is required above this value (JPY). */
export const MDA_THRESHOLD_JPY = 200_000;

export interface MdaLine {
  lineNo: number;
  jan: string | null;
  /** English description (catalogue, else the order's item name). */
  description: string;
  /** Japanese description (catalogue), else the order's item name. */
  descriptionJa: string;
  exportCategory: string | null;
  exportCategoryName: string | null;
  quantity: number;
  unit: string;
  /** Whole yen, null when unknown. */
  valueJpy: number | null;
  origin: string;
  /** Net weight of the line in grams (catalogue weight × quantity), null when unknown. */
  weightG: number | null;
}

export interface MdaOrder {
  orderId: number;
  batchNo: string | null;
  orderNo: string;
  waybillNo: string | null;
  exporter: {
    nameJa: string | null;
    nameEn: string | null;
    address: string | null;
    corporateNumber: string | null;
    tel: string | null;
  };
  consignee: { name: string; address: string; country: string; phone: string };
  /** The declaration's product name, else the lines' descriptions. */
  description: string;
  /** From the declaration row (true) or the fallback (false). */
  declared: boolean;
  lines: MdaLine[];
  quantity: number;
  /** Whole yen; null when a line's value is unknown and there is no declaration. */
  valueJpy: number | null;
  weightG: number | null;
  /** The export category of the line of highest value (the declaration's main category). */
  mainCategory: string | null;
}

/** Whole yen of a minor-unit amount in a currency of `digits` decimals (JPY: 0). */
function lineOwnValue(i: MdaItemRow, decimals: Record<string, number>): number | null {
  if (i.declaration_price != null && i.declaration_price !== '') {
    const unit = Number(i.declaration_price);
    if (Number.isFinite(unit)) return Math.round(unit * i.quantity);
  }
  if (i.currency === 'JPY') {
    const digits = decimals.JPY ?? 0;
    return Math.round((Number(i.unit_price) * i.quantity) / 10 ** digits);
  }
  return null;
}

/** Spreads `total` over `weights` in whole units, the remainder on the last one. */
function spread(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (!weights.length) return [];
  const parts = weights.map((w) => (sum > 0 ? Math.floor((total * w) / sum) : 0));
  if (sum <= 0) parts[parts.length - 1] = total;
  else parts[parts.length - 1]! += total - parts.reduce((a, b) => a + b, 0);
  return parts;
}

const address = (o: MdaOrderRow) =>
  [o.recipient_province, o.recipient_city, o.recipient_district, o.recipient_address]
    .filter((p, i, all) => p && p !== all[i - 1])
    .join('');

export function buildMdaOrder(o: MdaOrderRow, items: MdaItemRow[], decimals: Record<string, number>): MdaOrder {
  const own = items.map((i) => lineOwnValue(i, decimals));
  const declared = o.declaration_amount_jpy != null;
  const values: (number | null)[] = declared
    ? spread(
        Number(o.declaration_amount_jpy),
        // Lines without a value of their own weigh by quantity alone.
        own.every((v) => v != null && v > 0) ? (own as number[]) : items.map((i) => i.quantity),
      )
    : own;
  const lines: MdaLine[] = items.map((i, at) => ({
    lineNo: at + 1,
    jan: i.jan,
    description: i.catalogue_name_en || i.name,
    descriptionJa: i.catalogue_name_ja || i.name,
    exportCategory: i.export_category ?? null,
    exportCategoryName: i.export_category_en ?? null,
    quantity: i.quantity,
    unit: PIECES,
    valueJpy: values[at] ?? null,
    origin: i.origin || i.catalogue_origin || 'JP',
    weightG: i.net_weight_g == null ? null : i.net_weight_g * i.quantity,
  }));
  const sum = (f: (l: MdaLine) => number | null) =>
    lines.some((l) => f(l) == null) ? null : lines.reduce((a, l) => a + f(l)!, 0);
  const main = [...lines].sort((a, b) => (b.valueJpy ?? -1) - (a.valueJpy ?? -1))[0];
  return {
    orderId: o.id,
    batchNo: o.batch_no ?? null,
    orderNo: o.order_no,
    waybillNo: o.waybill_no,
    exporter: {
      nameJa: o.exporter_name_ja ?? null,
      nameEn: o.exporter_name_en ?? null,
      address: o.exporter_address ?? null,
      corporateNumber: o.exporter_corporate_number ?? null,
      tel: o.exporter_tel ?? null,
    },
    consignee: { name: o.recipient_name, address: address(o), country: o.recipient_country, phone: o.recipient_phone },
    description: o.declaration_name ?? [...new Set(lines.map((l) => l.description))].join(', '),
    declared,
    lines,
    quantity: lines.reduce((a, l) => a + l.quantity, 0),
    valueJpy: declared ? Number(o.declaration_amount_jpy) : sum((l) => l.valueJpy),
    weightG: sum((l) => l.weightG),
    mainCategory: main?.exportCategory ?? null,
  };
}

/** Layout 2: an order's lines summarised per export category (uncategorised lines per JAN). */
export function linesByCategory(o: MdaOrder): MdaLine[] {
  const groups = new Map<string, MdaLine[]>();
  for (const l of o.lines) {
    const key = l.exportCategory ?? `jan:${l.jan ?? l.lineNo}`;
    groups.set(key, [...(groups.get(key) ?? []), l]);
  }
  return [...groups.values()].map((g, at) => {
    const add = (f: (l: MdaLine) => number | null) =>
      g.some((l) => f(l) == null) ? null : g.reduce((a, l) => a + f(l)!, 0);
    const first = g[0]!;
    return {
      ...first,
      lineNo: at + 1,
      jan: g.length === 1 ? first.jan : null,
      description: first.exportCategory ? (first.exportCategoryName ?? first.description) : first.description,
      quantity: g.reduce((a, l) => a + l.quantity, 0),
      valueJpy: add((l) => l.valueJpy),
      weightG: add((l) => l.weightG),
      origin: [...new Set(g.map((l) => l.origin))].join('/'),
    };
  });
}

/** Grams as kilograms with three decimals, a string (no float arithmetic on the value). */
export const kg = (g: number | null) =>
  g == null ? null : `${Math.trunc(g / 1000)}.${String(Math.abs(g) % 1000).padStart(3, '0')}`;

import { COLUMNS, type ColumnDef, type ColumnKey } from './template-columns.ts';
import { TEMPLATES, type TemplateDef } from './templates.ts';

/** A sheet's header read against the templates: a column by its header text, a kind by its columns. */

/**
 * Bilingual header text of a column: "订单号 / Order No." (with a * when required). A template of
 * a fixed channel names its currency in the price header ("单价（JPY）/ Unit Price (JPY)"): the
 * uploader reads what the prices are in, and the parser recognises the template by it.
 */
export const headerText = (col: ColumnDef, currency?: string) =>
  col.key === 'unitPrice' && currency
    ? `${col.required ? '*' : ''}${col.zh}（${currency}） / ${col.en} (${currency})`
    : `${col.required ? '*' : ''}${col.zh} / ${col.en}`;

/** The example row's order number: a row carrying it is skipped on import. */
export const EXAMPLE_ORDER_NO = 'EXAMPLE-0001';

/** A currency named in a header ("单价（JPY）/ Unit Price (JPY)" → JPY), undefined when none. */
const CURRENCY_IN_HEADER = /[（(]\s*([A-Za-z]{3})\s*[)）]/g;
export function headerCurrency(raw: string): string | undefined {
  const found = [...raw.matchAll(CURRENCY_IN_HEADER)].map((m) => m[1]!.toUpperCase());
  return found[0];
}

/** Normalised header → column key, accepting "订单号 / Order No.", either language alone or the key. */
export function headerKey(raw: string): string {
  return raw.replace(/^\*/, '').replace(CURRENCY_IN_HEADER, '').replace(/\s+/g, '').toLowerCase();
}
export function matchHeader(raw: string): ColumnKey | undefined {
  const h = headerKey(raw);
  for (const [key, col] of Object.entries(COLUMNS) as [ColumnKey, ColumnDef][]) {
    if (
      h === headerKey(headerText(col)) ||
      h === headerKey(col.zh) ||
      h === headerKey(col.en) ||
      h === key.toLowerCase()
    )
      return key;
  }
  return undefined;
}

/**
 * What a sheet's header row says about its template: the columns found (any template's) and the
 * currency its price header names. Several kinds share one shape (Japan parcel and Japan box-C):
 * those are the same sheet, and either upload takes it.
 */
export interface HeaderShape {
  keys: ReadonlySet<ColumnKey>;
  priceCurrency?: string;
}

/** The kinds whose template has this header's shape: the channel column, the box column, the price currency. */
export function kindsLike(shape: HeaderShape, currencyOf: (channel: string) => string | undefined) {
  return (Object.values(TEMPLATES) as TemplateDef[]).filter((def) => {
    if (!def.importable) return false;
    if (def.columns.includes('channel') !== shape.keys.has('channel')) return false;
    if (def.columns.includes('boxNo') !== shape.keys.has('boxNo')) return false;
    // A header without a currency (written by hand, or before templates named it) does not tell.
    return !shape.priceCurrency || !def.channel || currencyOf(def.channel) === shape.priceCurrency;
  });
}

/**
 * Whether a sheet is not the template chosen: the kinds it looks like (a Japan-parcel sheet
 * uploaded as Singapore has a box column and prices in JPY), or, when only the price header's
 * currency differs from every template of its columns, that currency. Null when it may be the
 * template chosen, or when its columns are no template's (the missing-column check speaks then).
 */
export function templateMismatch(
  def: TemplateDef,
  shape: HeaderShape,
  currencyOf: (channel: string) => string | undefined,
): { like: TemplateDef[] } | { currency: string } | null {
  const like = kindsLike(shape, currencyOf);
  if (like.includes(def)) return null;
  if (like.length) return { like };
  const sameColumns = kindsLike({ keys: shape.keys }, currencyOf);
  if (sameColumns.includes(def)) return { currency: shape.priceCurrency! };
  if (sameColumns.length) return { like: sameColumns };
  return null;
}

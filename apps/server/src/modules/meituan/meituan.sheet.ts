import { type ApiLanguage, isValidJan, meituan as C, textProblem } from '@console/contract';
import { translate } from '../../lib/messages.ts';

/**
 * Reading a Meituan upload: one row per item, rows with the same system number are one order
 * (their order fields must agree). Pure: the service adds what needs the database (a system
 * number uploaded before) and decides all or nothing.
 */
type Key = C.MeituanColumn;
const PHONE = /^\+?[\d\- ()]{6,20}$/;
const PRICE = /^\d{1,7}(\.\d{1,2})?$/;
const ORDER_KEYS = ['meituanNo', 'expressNo', 'orderRef', 'receiverName', 'receiverAddress', 'receiverPhone'] as const;
const MAX: Record<Key, number> = {
  systemNo: 64,
  meituanNo: 64,
  expressNo: 64,
  orderRef: 64,
  barcode: 14,
  itemName: 200,
  specs: 100,
  price: 12,
  count: 6,
  receiverName: 64,
  receiverAddress: 300,
  receiverPhone: 32,
};

export interface SheetRow {
  row: number;
  cells: Record<Key, string>;
}
export interface ParsedOrder {
  systemNo: string;
  meituanNo: string;
  expressNo: string;
  orderRef: string;
  receiverName: string;
  receiverAddress: string;
  receiverPhone: string;
  totalFen: number;
  items: { barcode: string; name: string; specs: string | null; priceFen: number; count: number }[];
  rows: number[];
}
export interface RowError {
  row: number;
  field: Key | 'file';
  message: string;
}

export const columnTitle = (lang: ApiLanguage, key: Key) => {
  const c = C.MEITUAN_COLUMNS.find((x) => x.key === key)!;
  return lang === 'en' ? c.en : c.zh;
};

/** Sheet rows → keyed rows; the first row is the header when its first cell holds no digit. */
export function rowsOfSheet(rows: { row: number; cells: string[] }[]): SheetRow[] {
  const out: SheetRow[] = [];
  rows.forEach((r, i) => {
    if (i === 0 && !/\d/.test(r.cells[0] ?? '')) return;
    if (r.cells.every((c) => !c?.trim())) return;
    const cells = {} as Record<Key, string>;
    C.MEITUAN_COLUMNS.forEach((c, k) => {
      cells[c.key] = (r.cells[k] ?? '').trim();
    });
    out.push({ row: r.row, cells });
  });
  return out;
}

export const priceFen = (s: string) => {
  const [whole, frac = ''] = s.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
};
export const fenText = (fen: number) => `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;

/** Checks every row and groups them into orders; errors name the row and the column. */
export function readOrders(rows: SheetRow[], lang: ApiLanguage): { orders: ParsedOrder[]; errors: RowError[] } {
  const errors: RowError[] = [];
  const err = (row: number, field: RowError['field'], key: string, params: Record<string, string | number> = {}) =>
    errors.push({
      row,
      field,
      message: translate(lang, key, { ...params, column: field === 'file' ? '' : columnTitle(lang, field) }),
    });
  const byNo = new Map<string, ParsedOrder>();
  for (const { row, cells } of rows) {
    let ok = true;
    for (const c of C.MEITUAN_COLUMNS) {
      const v = cells[c.key];
      if (!v && c.key !== 'specs') {
        err(row, c.key, 'meituanRequired');
        ok = false;
      } else if (v.length > MAX[c.key]) {
        err(row, c.key, 'meituanTooLong', { max: MAX[c.key] });
        ok = false;
      } else if (textProblem(v, c.key === 'receiverAddress')) {
        err(row, c.key, 'meituanText');
        ok = false;
      }
    }
    if (cells.barcode && !isValidJan(cells.barcode)) {
      err(row, 'barcode', 'meituanBarcode', { value: cells.barcode });
      ok = false;
    }
    if (cells.price && (!PRICE.test(cells.price) || priceFen(cells.price) <= 0)) {
      err(row, 'price', 'meituanPrice');
      ok = false;
    }
    const count = Number(cells.count);
    if (cells.count && (!/^\d+$/.test(cells.count) || count < 1 || count > 99_999)) {
      err(row, 'count', 'meituanCount');
      ok = false;
    }
    if (cells.receiverPhone && !PHONE.test(cells.receiverPhone)) {
      err(row, 'receiverPhone', 'meituanPhone');
      ok = false;
    }
    if (!ok) continue;
    const item = {
      barcode: cells.barcode,
      name: cells.itemName,
      specs: cells.specs || null,
      priceFen: priceFen(cells.price),
      count,
    };
    const known = byNo.get(cells.systemNo);
    if (known) {
      const differs = ORDER_KEYS.find((k) => known[k] !== cells[k]);
      if (differs) {
        err(row, differs, 'meituanMismatch', { systemNo: cells.systemNo, first: known.rows[0]! });
        continue;
      }
      known.items.push(item);
      known.rows.push(row);
      known.totalFen += item.priceFen * item.count;
    } else {
      byNo.set(cells.systemNo, {
        systemNo: cells.systemNo,
        meituanNo: cells.meituanNo,
        expressNo: cells.expressNo,
        orderRef: cells.orderRef,
        receiverName: cells.receiverName,
        receiverAddress: cells.receiverAddress,
        receiverPhone: cells.receiverPhone,
        totalFen: item.priceFen * item.count,
        items: [item],
        rows: [row],
      });
    }
  }
  return { orders: [...byNo.values()], errors };
}

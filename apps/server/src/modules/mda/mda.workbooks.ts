import type { WorkbookRow, WorkbookSheet } from '../../lib/workbook-writer.ts';
import { kg, linesByCategory, MDA_THRESHOLD_JPY, type MdaLine, type MdaOrder } from './mda.data.ts';

/**
 * The three MDA workbooks. Their reader is a Japanese customs broker keying NACCS, whatever the
 * console's language: headers are the NACCS item in Japanese with the English beside it, the
 * same in every download (docs/decisions.md "MDA").
 */
type Column = [header: string, width: number];

export const ORDER_COLUMNS: Column[] = [
  ['バッチ番号 Batch no.', 18],
  ['注文番号 Order no.', 18],
  ['運送状番号 Waybill no.', 18],
  ['輸出者名 Exporter (ja)', 24],
  ['輸出者名 Exporter (en)', 24],
  ['法人番号 Corporate no.', 16],
  ['輸出者住所 Exporter address', 32],
  ['輸出者電話 Exporter tel', 14],
  ['仕向人 Consignee', 14],
  ['仕向人住所 Consignee address', 32],
  ['仕向国 Destination', 8],
  ['品名 Description', 30],
  ['輸出統計品目 Export category', 12],
  ['数量 Quantity', 10],
  ['単位 Unit', 6],
  ['申告価格 Value (JPY)', 14],
  ['原産地 Origin', 8],
  ['総重量 Gross weight (kg)', 12],
  ['明細数 Lines', 8],
  ['MDA対象 Over JPY 200,000', 10],
];

export const LINE_COLUMNS: Column[] = [
  ['注文番号 Order no.', 18],
  ['欄番号 Line no.', 8],
  ['バッチ番号 Batch no.', 18],
  ['運送状番号 Waybill no.', 18],
  ['輸出者名 Exporter (en)', 24],
  ['法人番号 Corporate no.', 16],
  ['仕向人 Consignee', 14],
  ['仕向国 Destination', 8],
  ['JAN', 15],
  ['品名 Description', 30],
  ['品名（和文） Description (ja)', 30],
  ['輸出統計品目 Export category', 12],
  ['品目名 Category name', 24],
  ['数量 Quantity', 10],
  ['単位 Unit', 6],
  ['申告価格 Value (JPY)', 14],
  ['原産地 Origin', 8],
  ['重量 Weight (kg)', 12],
];

export const CATEGORY_COLUMNS: Column[] = [
  ['注文番号 Order no.', 18],
  ['欄番号 Line no.', 8],
  ['法人番号 Corporate no.', 16],
  ['輸出者名 Exporter (en)', 24],
  ['仕向人 Consignee', 14],
  ['仕向国 Destination', 8],
  ['輸出統計品目 Export category', 12],
  ['品名 Description', 30],
  ['数量 Quantity', 10],
  ['単位 Unit', 6],
  ['申告価格 Value (JPY)', 14],
  ['原産地 Origin', 8],
  ['重量 Weight (kg)', 12],
];

export type MdaLayout = 'order' | 'lines' | 'category';

const sheetOf = (name: string, columns: Column[]): WorkbookSheet => ({
  name,
  boldHeader: true,
  frozenHeader: true,
  columns: columns.map(([header, width]) => ({ header, width })),
});

export function orderRow(o: MdaOrder): WorkbookRow {
  return [
    o.batchNo,
    o.orderNo,
    o.waybillNo,
    o.exporter.nameJa,
    o.exporter.nameEn,
    o.exporter.corporateNumber,
    o.exporter.address,
    o.exporter.tel,
    o.consignee.name,
    o.consignee.address,
    o.consignee.country,
    o.description,
    o.mainCategory,
    o.quantity,
    'PCE',
    o.valueJpy,
    [...new Set(o.lines.map((l) => l.origin))].join('/'),
    kg(o.weightG),
    o.lines.length,
    o.valueJpy == null ? null : o.valueJpy > MDA_THRESHOLD_JPY ? 'Y' : 'N',
  ];
}

const lineRow = (o: MdaOrder, l: MdaLine): WorkbookRow => [
  o.orderNo,
  l.lineNo,
  o.batchNo,
  o.waybillNo,
  o.exporter.nameEn,
  o.exporter.corporateNumber,
  o.consignee.name,
  o.consignee.country,
  l.jan,
  l.description,
  l.descriptionJa,
  l.exportCategory,
  l.exportCategoryName,
  l.quantity,
  l.unit,
  l.valueJpy,
  l.origin,
  kg(l.weightG),
];

const categoryRow = (o: MdaOrder, l: MdaLine): WorkbookRow => [
  o.orderNo,
  l.lineNo,
  o.exporter.corporateNumber,
  o.exporter.nameEn,
  o.consignee.name,
  o.consignee.country,
  l.exportCategory,
  l.description,
  l.quantity,
  l.unit,
  l.valueJpy,
  l.origin,
  kg(l.weightG),
];

/** The sheet and its rows of one layout. */
export function mdaWorkbook(layout: MdaLayout, orders: MdaOrder[]): { sheet: WorkbookSheet; rows: WorkbookRow[] } {
  if (layout === 'order') return { sheet: sheetOf('MDA', ORDER_COLUMNS), rows: orders.map(orderRow) };
  if (layout === 'lines')
    return { sheet: sheetOf('MDA', LINE_COLUMNS), rows: orders.flatMap((o) => o.lines.map((l) => lineRow(o, l))) };
  return {
    sheet: sheetOf('MDA2', CATEGORY_COLUMNS),
    rows: orders.flatMap((o) => linesByCategory(o).map((l) => categoryRow(o, l))),
  };
}

import { excel } from '../../lib/exceljs.ts';
import { COLUMNS, type ColumnDef, type ListName } from '../../domain/order-templates/template-columns.ts';
import { EXAMPLE_ORDER_NO, headerText } from '../../domain/order-templates/template-headers.ts';
import type { TemplateDef } from '../../domain/order-templates/templates.ts';

/** Reference lists for the drop-downs (codes first, so the parser reads the code). */
export type TemplateLists = Record<ListName, string[]>;

const colLetter = (n: number) => {
  let s = '';
  for (let x = n; x > 0; x = Math.floor((x - 1) / 26)) s = String.fromCharCode(65 + ((x - 1) % 26)) + s;
  return s;
};
export { colLetter };

const DATA_ROWS = 2000;

/**
 * A template workbook from its definition: the bilingual header, one example row,
 * drop-downs for coded columns (from a hidden `lists` sheet, so long lists such as
 * provinces fit), and a notes sheet explaining every column.
 */
export async function buildTemplate(def: TemplateDef, lists: TemplateLists, channelCurrency?: string): Promise<Buffer> {
  const wb = new (await excel()).Workbook();
  wb.creator = 'console';
  const sheet = wb.addWorksheet('orders', { views: [{ state: 'frozen', ySplit: 1 }] });
  const notes = wb.addWorksheet('notes');
  const listSheet = wb.addWorksheet('lists', { state: 'hidden' });

  const cols = def.columns.map((k) => COLUMNS[k] as ColumnDef);
  // A fixed channel's price header names its currency: the template is recognised by it on upload.
  const priceCurrency = def.channel ? channelCurrency : undefined;
  sheet.columns = cols.map((col) => ({
    header: headerText(col, priceCurrency),
    key: col.key,
    width: col.width ?? 14,
  }));
  const header = sheet.getRow(1);
  header.font = { bold: true };
  header.height = 30;
  cols.forEach((col, i) => {
    const cell = header.getCell(i + 1);
    cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: col.required ? 'FFFCE4D6' : 'FFEDEDED' } };
    cell.alignment = { wrapText: true, vertical: 'middle' };
    cell.note = `${col.help.zh}\n${col.help.en}`;
  });
  const example = cols.map((col) => {
    if (col.key === 'orderNo') return EXAMPLE_ORDER_NO;
    if (col.key === 'channel') return def.channel ?? 'JP';
    if (col.key === 'currency') return channelCurrency ?? col.example;
    return col.example;
  });
  const exRow = sheet.addRow(example);
  exRow.font = { italic: true, color: { argb: 'FF808080' } };
  // Text format so long digit strings (ID cards, phones, JANs) are not turned into numbers.
  cols.forEach((col, i) => {
    if (col.type === 'text' || col.type === 'code') sheet.getColumn(i + 1).numFmt = '@';
  });

  const listNames = Object.keys(lists) as ListName[];
  listNames.forEach((name, i) => {
    listSheet.getCell(1, i + 1).value = name;
    lists[name].forEach((v, r) => (listSheet.getCell(r + 2, i + 1).value = v));
  });
  cols.forEach((col, i) => {
    if (!col.list) return;
    const li = listNames.indexOf(col.list);
    const n = lists[col.list].length;
    const letter = colLetter(li + 1);
    const range = `${colLetter(i + 1)}2:${colLetter(i + 1)}${DATA_ROWS + 1}`;
    (sheet as unknown as { dataValidations: { add(r: string, v: object): void } }).dataValidations.add(range, {
      type: 'list',
      allowBlank: !col.required,
      formulae: [`lists!$${letter}$2:$${letter}$${n + 1}`],
      showErrorMessage: col.list !== 'province',
      errorTitle: '无效值 / Invalid value',
      error: '请从下拉列表选择 / Choose from the list',
    });
  });

  notes.columns = [
    { header: '列 / Column', width: 30 },
    { header: '必填 / Required', width: 14 },
    { header: '类型 / Type', width: 12 },
    { header: '可选值 / Allowed values', width: 30 },
    { header: '说明', width: 60 },
    { header: 'Help', width: 60 },
  ];
  notes.getRow(1).font = { bold: true };
  notes.addRow([`${def.title.zh} / ${def.title.en}`]);
  notes.addRow([
    '第 2 行为示例，导入时会被忽略（订单号 EXAMPLE-0001）。',
    '',
    '',
    '',
    '从第 2 行起每行一件商品；多件商品的订单使用连续多行、相同订单号。',
    'Row 2 is an example and is ignored on import. One item per row; a multi-item order is several consecutive rows with the same order number.',
  ]);
  for (const col of cols) {
    const allowed = col.list
      ? col.list === 'province'
        ? '见下拉列表 / see drop-down'
        : lists[col.list].join(', ')
      : '';
    notes.addRow([
      headerText(col, priceCurrency),
      col.required ? '是 / yes' : '否 / no',
      col.type,
      allowed,
      col.help.zh,
      col.help.en,
    ]);
  }
  notes.getColumn(5).alignment = { wrapText: true };
  notes.getColumn(6).alignment = { wrapText: true };
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/**
 * The waybill / order-number template of Batch Orders Search (download/waybillNumber): order
 * numbers in column A, waybill numbers in B, one order per row, either column or both; what the
 * search reads (orders/batch-search.numbers.ts). Neither column is required, so no header has a
 * "*"; the example row is left out by the search as by the imports.
 */
export async function buildNumbersTemplate(def: TemplateDef): Promise<Buffer> {
  const wb = new (await excel()).Workbook();
  wb.creator = 'console';
  const sheet = wb.addWorksheet('numbers', { views: [{ state: 'frozen', ySplit: 1 }] });
  const cols = def.columns.map((k) => ({ ...(COLUMNS[k] as ColumnDef), required: false }));
  sheet.columns = cols.map((col) => ({ header: headerText(col), key: col.key, width: 22 }));
  sheet.getRow(1).font = { bold: true };
  cols.forEach((_, i) => (sheet.getColumn(i + 1).numFmt = '@'));
  const example = sheet.addRow(cols.map((col) => (col.key === 'orderNo' ? EXAMPLE_ORDER_NO : col.example)));
  example.font = { italic: true, color: { argb: 'FF808080' } };

  const notes = wb.addWorksheet('notes');
  notes.columns = [
    { header: '说明', width: 70 },
    { header: 'Help', width: 70 },
  ];
  notes.getRow(1).font = { bold: true };
  notes.addRow([`${def.title.zh}`, `${def.title.en}`]);
  notes.addRow([
    '批量查询订单用：每行一个订单，订单号填 A 列、运单号填 B 列，填其中一列即可，两列都填时都会查找。',
    'For Batch Orders Search: one order per row, its order number in column A, its waybill number in column B; either column is enough, and both are looked for when both are filled.',
  ]);
  notes.addRow([
    '第 2 行为示例（订单号 EXAMPLE-0001），查询时会被忽略。请保留第 1 行表头：没有表头的表格只读取 A 列。',
    'Row 2 is an example (order number EXAMPLE-0001) and is ignored. Keep the header in row 1: a sheet without it is read in column A only.',
  ]);
  notes.getColumn(1).alignment = { wrapText: true };
  notes.getColumn(2).alignment = { wrapText: true };
  return Buffer.from(await wb.xlsx.writeBuffer());
}

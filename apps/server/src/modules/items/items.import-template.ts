import { excel } from '../../lib/exceljs.ts';
import type { items as C } from '@console/contract';
import { columnLetter } from '../../lib/workbook-writer.ts';

/**
 * The item import template, read by both its generator and the row reader so they cannot
 * disagree: every item field a customer declares (spec §3 Item) but the image, which is a file
 * (added on the item's page after import), and the status and reason, which review sets. Tax
 * name, unit, amount and rate come from the tax code. A column is found by its header (the
 * bilingual header, or either language alone), not by its place, so the error workbook (row
 * number first, reason last) can be fixed and uploaded again as it is.
 */
export type ImportField = Exclude<keyof C.ItemInput, 'imageId'>;
export type RefList = 'part' | 'brand' | 'category' | 'exportCategory' | 'tax';

export interface ImportColumn {
  key: ImportField;
  zh: string;
  en: string;
  required: boolean;
  /** Drop-down of "code name" entries; the reader takes the code, or a name typed alone. */
  list?: RefList;
  /** Read as a whole number, else as text. */
  int?: boolean;
  help: { zh: string; en: string };
  example: string;
  width?: number;
}

const col = (
  key: ImportField,
  zh: string,
  en: string,
  required: boolean,
  help: [string, string],
  example: string,
  extra: Partial<ImportColumn> = {},
): ImportColumn => ({ key, zh, en, required, help: { zh: help[0], en: help[1] }, example, ...extra });

export const IMPORT_COLUMNS: readonly ImportColumn[] = [
  col(
    'jan',
    'JAN码',
    'JAN',
    true,
    [
      '8 或 13 位数字，校验位须正确；同一客户不可重复。',
      '8 or 13 digits with a valid check digit; unique per customer.',
    ],
    '4901234567894',
    { width: 16 },
  ),
  col(
    'nameZh',
    '中文名称',
    'Chinese name',
    true,
    ['必填，最多 200 字。', 'Required, up to 200 characters.'],
    '洗面奶',
    { width: 20 },
  ),
  col('nameEn', '英文名称', 'English name', false, ['最多 200 字。', 'Up to 200 characters.'], 'Facial cleanser', {
    width: 20,
  }),
  col('nameJa', '日文名称', 'Japanese name', false, ['最多 200 字。', 'Up to 200 characters.'], '洗顔料', {
    width: 20,
  }),
  col('specs', '规格', 'Specs', false, ['如 120g、50ml。', 'Such as 120g or 50ml.'], '120g'),
  col(
    'essentials',
    '申报要素',
    'Clearance essentials',
    false,
    ['品牌、型号、材质等，最多 1000 字。', 'Brand, model, material… up to 1000 characters.'],
    '品牌：示例；型号：A1',
    { width: 24 },
  ),
  col('partId', '部件', 'Part', false, ['从下拉列表选择。', 'Choose from the drop-down.'], '', { list: 'part' }),
  col(
    'brandId',
    '品牌',
    'Brand',
    false,
    ['从下拉列表选择，或填写品牌名称。', 'Choose from the drop-down, or type the brand name.'],
    '',
    { list: 'brand', width: 20 },
  ),
  col(
    'categoryId',
    '类别',
    'Category',
    false,
    [
      '从下拉列表选择；没有合适的类别时填写“新类别”。',
      'Choose from the drop-down; when none fits, fill in "New category".',
    ],
    '',
    { list: 'category', width: 22 },
  ),
  col(
    'newCategory',
    '新类别',
    'New category',
    false,
    ['没有合适的类别时填写，审核时由运营归类。', 'When no category fits: your words; the operator files it on review.'],
    '',
  ),
  col(
    'exportCategory',
    '出口类别',
    'Export category',
    false,
    ['日本出口类别代码，从下拉列表选择。', 'Japanese export category code, from the drop-down.'],
    '',
    { list: 'exportCategory', width: 20 },
  ),
  col(
    'group',
    '分组',
    'Group',
    false,
    ['您自己的分组标签，最多 64 字。', 'Your own grouping label, up to 64 characters.'],
    '',
  ),
  col(
    'tariff',
    '税号',
    'Tariff',
    false,
    ['HS 编码，6 至 13 位数字（点和空格会被去掉）。', 'HS code, 6 to 13 digits (dots and spaces are removed).'],
    '3304990099',
    { width: 16 },
  ),
  col(
    'netWeightG',
    '净重(g)',
    'Net weight (g)',
    true,
    ['整数克，1 至 1000000。', 'Whole grams, 1 to 1,000,000.'],
    '120',
    { int: true },
  ),
  col(
    'clearancePrice',
    '清关价格(CNY)',
    'Clearance price (CNY)',
    true,
    ['人民币，最多 2 位小数。', 'In CNY, up to 2 decimals.'],
    '45.50',
  ),
  col(
    'declarationPrice',
    '申报价格(JPY)',
    'Declaration price (JPY)',
    true,
    ['日元，最多 2 位小数。', 'In JPY, up to 2 decimals.'],
    '800',
  ),
  col(
    'origin',
    '原产地',
    'Origin',
    true,
    ['ISO 两位国家代码，如 JP、CN、US。', 'ISO two-letter country code: JP, CN, US…'],
    'JP',
  ),
  col(
    'taxCode',
    '税码',
    'Tax code',
    false,
    [
      '行邮税号，从下拉列表选择；名称、单位、完税价格和税率由它带出。',
      'Tax code, from the drop-down; its name, unit, amount and rate come with it.',
    ],
    '',
    { list: 'tax', width: 22 },
  ),
];

export const headerOf = (c: { zh: string; en: string }) => `${c.zh} / ${c.en}`;
const norm = (s: string) => s.replace(/\s+/g, '').toLowerCase();
const BY_HEADER = new Map<string, ImportColumn>();
for (const c of IMPORT_COLUMNS) for (const h of [headerOf(c), c.zh, c.en, c.key]) BY_HEADER.set(norm(h), c);

/** The template column a header cell names, if any (extra columns, such as the error workbook's, are ignored). */
export const columnOfHeader = (text: string) => BY_HEADER.get(norm(text));

/** The extra columns of the error workbook: the sheet row first, the reasons last. */
export const ROW_COLUMN = { zh: '行号', en: 'Row' };
export const REASON_COLUMN = { zh: '错误原因', en: 'Reason' };

export interface RefEntry {
  /** What the cell holds (the id or code). */
  code: string;
  zh: string;
  en: string;
}
export type RefLists = Record<RefList, RefEntry[]>;

/** "12 洗面奶 / Cleanser": the code first, so the reader takes it, the names so a person can choose. */
export const listEntry = (e: RefEntry) => `${e.code} ${e.zh} / ${e.en}`;

const DATA_ROWS = 5000;

/** The template workbook: bilingual headers (required ones shaded), drop-downs from a hidden sheet, a notes sheet. */
export async function buildItemTemplate(lists: RefLists): Promise<Buffer> {
  const wb = new (await excel()).Workbook();
  wb.creator = 'console';
  const sheet = wb.addWorksheet('items', { views: [{ state: 'frozen', ySplit: 1 }] });
  const notes = wb.addWorksheet('notes');
  const listSheet = wb.addWorksheet('lists', { state: 'hidden' });

  sheet.columns = IMPORT_COLUMNS.map((c) => ({ header: headerOf(c), key: c.key, width: c.width ?? 14 }));
  const header = sheet.getRow(1);
  header.font = { bold: true };
  header.height = 30;
  IMPORT_COLUMNS.forEach((c, i) => {
    const cell = header.getCell(i + 1);
    cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: c.required ? 'FFFCE4D6' : 'FFEDEDED' } };
    cell.alignment = { wrapText: true, vertical: 'middle' };
    cell.note = `${c.help.zh}\n${c.help.en}`;
    // Text, so JANs, tariffs and prices stay as typed (no 4.90123E+12, no lost trailing zeros).
    if (!c.int) sheet.getColumn(i + 1).numFmt = '@';
  });

  const names = Object.keys(lists) as RefList[];
  names.forEach((name, i) => {
    listSheet.getCell(1, i + 1).value = name;
    lists[name].forEach((e, r) => (listSheet.getCell(r + 2, i + 1).value = listEntry(e)));
  });
  IMPORT_COLUMNS.forEach((c, i) => {
    if (!c.list || !lists[c.list].length) return;
    const letter = columnLetter(names.indexOf(c.list) + 1);
    (sheet as unknown as { dataValidations: { add(r: string, v: object): void } }).dataValidations.add(
      `${columnLetter(i + 1)}2:${columnLetter(i + 1)}${DATA_ROWS + 1}`,
      {
        type: 'list',
        allowBlank: true,
        formulae: [`lists!$${letter}$2:$${letter}$${lists[c.list].length + 1}`],
        // A brand may be typed by name: the reader matches it.
        showErrorMessage: c.list !== 'brand',
        errorTitle: '无效值 / Invalid value',
        error: '请从下拉列表选择 / Choose from the list',
      },
    );
  });

  notes.columns = [
    { header: '列 / Column', width: 30 },
    { header: '必填 / Required', width: 14 },
    { header: '示例 / Example', width: 20 },
    { header: '说明', width: 60 },
    { header: 'Help', width: 60 },
  ];
  notes.getRow(1).font = { bold: true };
  notes.addRow([
    '商品导入模板 / Item import template',
    '',
    '',
    '从第 2 行起每行一件商品。全部有效行一次导入（要么全部成功，要么都不导入），导入后为待审核。类别与新类别至少填一项。图片请在导入后到商品页面上传。',
    'One item per row from row 2. The valid rows are imported together (all or none) and wait for review. Fill in Category or New category. Add images on the item page after import.',
  ]);
  for (const c of IMPORT_COLUMNS)
    notes.addRow([headerOf(c), c.required ? '是 / yes' : '否 / no', c.example, c.help.zh, c.help.en]);
  notes.getColumn(4).alignment = { wrapText: true };
  notes.getColumn(5).alignment = { wrapText: true };
  return Buffer.from(await wb.xlsx.writeBuffer());
}

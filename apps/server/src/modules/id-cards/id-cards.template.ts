import type { ApiLanguage, orders } from '@console/contract';
import { excel } from '../../lib/exceljs.ts';

/** The ID-card import's template: its columns (read by the parser too) and the workbook a customer fills in. */

export type Column = orders.IdCardImportColumn;
export interface ColumnDef {
  key: Column;
  zh: string;
  en: string;
  required: boolean;
  help: [string, string];
  example: string;
  width: number;
}

/** One definition read by the template and the parser, so they cannot disagree. */
export const COLUMNS: ColumnDef[] = [
  {
    key: 'orderNo',
    zh: '订单号',
    en: 'Order No.',
    required: false,
    help: [
      '可选。填写时身份证关联到该订单，须与订单收件人一致。',
      "Optional. Maps the ID card to this order; must match the order's recipient.",
    ],
    example: 'EXAMPLE-0001',
    width: 20,
  },
  {
    key: 'waybillNo',
    zh: '运单号',
    en: 'Waybill No.',
    required: false,
    help: [
      '可选。可代替订单号；两者都填时须为同一订单。',
      'Optional. Instead of the order number; when both are given they must be the same order.',
    ],
    example: 'CBL10000000001',
    width: 20,
  },
  {
    key: 'name',
    zh: '收件人姓名',
    en: 'Recipient name',
    required: true,
    help: ['必填。', 'Required.'],
    example: '张三',
    width: 14,
  },
  {
    key: 'idCard',
    zh: '身份证号',
    en: 'ID number',
    required: true,
    help: [
      '必填。18 位居民身份证号，校验位按 GB 11643 检查。',
      'Required. 18-character resident ID number; the check digit is verified (GB 11643).',
    ],
    example: '11010519491231002X',
    width: 22,
  },
  {
    key: 'front',
    zh: '正面图片文件名',
    en: 'Front image file',
    required: false,
    help: [
      '可选。与模板一起打包在 .zip 中的 jpg/png 文件名。',
      'Optional. File name of a jpg/png packed in the .zip with this template.',
    ],
    example: '11010519491231002X-front.jpg',
    width: 28,
  },
  {
    key: 'back',
    zh: '背面图片文件名',
    en: 'Back image file',
    required: false,
    help: ['可选。同上，背面。', 'Optional. The same, for the back.'],
    example: '11010519491231002X-back.jpg',
    width: 28,
  },
];
export const headerText = (c: ColumnDef) => `${c.required ? '*' : ''}${c.zh} / ${c.en}`;
const norm = (s: string) => s.replace(/^\*/, '').replace(/\s+/g, '').toLowerCase();
export function matchHeader(raw: string): Column | undefined {
  const h = norm(raw);
  return COLUMNS.find((c) => [headerText(c), c.zh, c.en, c.key].some((x) => norm(x) === h))?.key;
}
/** A row carrying the example's order number is the example: skipped on import. */
export const EXAMPLE_ORDER_NO = COLUMNS[0]!.example;

export const ID_IMPORT_MAX_ROWS = 2000;

/** The template workbook: the columns with their help as notes, an example row and a notes sheet. */
export async function idCardTemplate(lang: ApiLanguage) {
  const zh = lang !== 'en';
  const wb = new (await excel()).Workbook();
  wb.creator = 'console';
  const ws = wb.addWorksheet('id-cards', { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = COLUMNS.map((c) => ({ header: headerText(c), key: c.key, width: c.width }));
  const header = ws.getRow(1);
  header.font = { bold: true };
  COLUMNS.forEach((c, i) => {
    const cell = header.getCell(i + 1);
    cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: c.required ? 'FFFCE4D6' : 'FFEDEDED' } };
    cell.note = `${c.help[0]}\n${c.help[1]}`;
    // Text format: an 18-digit ID number typed into a General cell loses its last digits.
    ws.getColumn(i + 1).numFmt = '@';
  });
  const ex = ws.addRow(COLUMNS.map((c) => c.example));
  ex.font = { italic: true, color: { argb: 'FF808080' } };
  const notes = wb.addWorksheet('notes');
  notes.columns = [
    { header: '列 / Column', width: 30 },
    { header: '说明', width: 50 },
    { header: 'Help', width: 60 },
  ];
  notes.getRow(1).font = { bold: true };
  notes.addRow([
    '第 2 行为示例（订单号 EXAMPLE-0001），导入时忽略。',
    '只上传本表：登记收件人与身份证号。需要图片时，把本表和图片打包成一个 .zip 上传。任何一行有错时整批不导入。',
    'Row 2 is an example (order EXAMPLE-0001) and is ignored. Upload this sheet alone to register recipients and ID numbers; with images, pack this sheet and the images into one .zip. If any row has an error, nothing is imported.',
  ]);
  for (const c of COLUMNS) notes.addRow([headerText(c), c.help[0], c.help[1]]);
  notes.getColumn(2).alignment = { wrapText: true };
  notes.getColumn(3).alignment = { wrapText: true };
  return {
    filename: zh ? '身份证批量导入模板.xlsx' : 'id-card-import-template.xlsx',
    body: Buffer.from(await wb.xlsx.writeBuffer()),
  };
}

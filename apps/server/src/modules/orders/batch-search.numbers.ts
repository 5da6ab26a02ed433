import { type ApiLanguage, lastWins } from '@console/contract';
import { AppError } from '../../lib/errors.ts';
import { translate } from '../../lib/messages.ts';
import { readSheetRows } from '../../lib/sheet-rows.ts';
import { isCfb, readXlsFirstSheet, XlsError } from '../../lib/xls.ts';
import { EXAMPLE_ORDER_NO, matchHeader } from '../../domain/order-templates/template-headers.ts';
import { TEMPLATES } from '../../domain/order-templates/templates.ts';

/** Batch search: distinct numbers per file. */
export const MAX_SEARCH_NUMBERS = 5000;

/** The columns of the waybill / order-number template (download/waybillNumber): order numbers, waybill numbers. */
const TEMPLATE_COLUMNS: readonly string[] = TEMPLATES.waybillNumber.columns;

/**
 * The numbers of a Batch Orders Search upload, from its first sheet (an .xlsx or an old binary
 * .xls, told apart by content). The page's template (download/waybillNumber) has order numbers
 * in A and waybill numbers in B, a row filled in either or both: a sheet whose first row names
 * the template's columns (either language, as every template's headers) is read by those
 * columns, its example row left out. Any other sheet is a list of numbers in column A (its first
 * row skipped when it reads as a header): a customer's own export may hold names or notes in B.
 */
export async function readSearchNumbers(lang: ApiLanguage, data: Buffer): Promise<string[]> {
  const rows = await firstTwoColumns(lang, data);
  const header = rows.find((r) => r.row === 1)?.cells ?? [];
  const named = header.map((h, i) => (TEMPLATE_COLUMNS.includes(matchHeader(h) ?? '') ? i : -1)).filter((i) => i >= 0);
  const out: string[] = [];
  for (const { row, cells } of rows) {
    if (named.length) {
      if (row === 1 || cells[0]?.trim() === EXAMPLE_ORDER_NO) continue;
      for (const i of named) if (cells[i]?.trim()) out.push(cells[i]!.trim());
    } else {
      const v = cells[0]?.trim();
      if (!v || (row === 1 && /号|number|no\b/i.test(v))) continue;
      out.push(v);
    }
  }
  // Spec §5, as pasted numbers (contract lastWins): a repeated number is looked for where it last comes.
  const unique = lastWins(out, (n) => n);
  if (!unique.length) throw AppError.field('file', 'workbookEmpty');
  if (unique.length > MAX_SEARCH_NUMBERS)
    throw AppError.field('file', translate(lang, 'tooManyNumbers', { max: MAX_SEARCH_NUMBERS }));
  return unique;
}

/** Rows (numbered from 1) with the text of their columns A and B. */
async function firstTwoColumns(lang: ApiLanguage, data: Buffer): Promise<{ row: number; cells: string[] }[]> {
  if (isCfb(data)) {
    let cells: { row: number; col: number; value: string }[];
    try {
      cells = readXlsFirstSheet(data, (_row, col) => col <= 1);
    } catch (e) {
      const problem = e instanceof XlsError ? e.problem : 'corrupt';
      throw AppError.field(
        'file',
        problem === 'encrypted' ? 'xlsEncrypted' : problem === 'notBiff8' ? 'xlsTooOld' : 'xlsCorrupt',
      );
    }
    // BIFF rows are 0-based and may come in any order.
    const byRow = new Map<number, string[]>();
    for (const c of cells) {
      const r = byRow.get(c.row + 1) ?? ['', ''];
      r[c.col] = c.value;
      byRow.set(c.row + 1, r);
    }
    return [...byRow.entries()].sort(([a], [b]) => a - b).map(([row, cells]) => ({ row, cells }));
  }
  if (!data.subarray(0, 2).equals(Buffer.from('PK'))) throw AppError.field('file', 'workbookUnreadable');
  // By the streaming row reader in a worker (as every other upload): ExcelJS's whole-workbook
  // reader held the event loop seconds per file and gigabytes under 32 at once. Rows repeat
  // numbers at times: up to four times the numbers allowed are read, then deduplicated.
  const read = await readSheetRows(data, MAX_SEARCH_NUMBERS * 4, { columns: 2 });
  if (read.type === 'problem') {
    if (read.key === 'sheetTooManyRows')
      throw AppError.field('file', translate(lang, 'tooManyNumbers', { max: MAX_SEARCH_NUMBERS }));
    throw AppError.field('file', translate(lang, read.key, read.params));
  }
  return read.rows;
}

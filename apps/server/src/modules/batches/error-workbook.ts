import { PassThrough } from 'node:stream';
import type { ApiLanguage } from '@console/contract';
import { translate } from '../../lib/messages.ts';
// Not template-workbook.ts: it loads ExcelJS, 0.4-0.6 s of CPU for every worker started (one per
// parse), beside the commit that follows it; the workbook writer loads it only to write.
import { type CellStyle, columnNumber, type WorkbookRow, writeWorkbook } from '../../lib/workbook-writer.ts';
import { type SheetRow, SMALL_SHEET_MAX_COLUMNS } from '../../lib/xlsx-rows.ts';
import type { Issue } from './parse.protocol.ts';

/**
 * The error workbook of a batch (issue 28 #6): the header and the rows that failed only, each
 * row's reasons in the uploader's language and the other, the bad cells red with a note, and the
 * row it had in the upload (the preview's row numbers). Written in the parse worker, reading the
 * sheet again through `readRows`.
 */
export async function writeErrorWorkbook(
  readRows: (onRow: (row: SheetRow, rowNo: number) => void) => Promise<unknown>,
  headerRow: number,
  errors: Issue[],
  lang: ApiLanguage,
): Promise<Uint8Array> {
  const byRow = new Map<number, Issue[]>();
  for (const e of errors) (byRow.get(e.row) ?? byRow.set(e.row, []).get(e.row)!).push(e);
  // The uploader's language first, the other one beside it: whoever fixes the rows can read them.
  const other: ApiLanguage = lang === 'en' ? 'zh-CN' : 'en';
  const langs = [lang, other] as const;
  const red = 'FFFFC7CE';
  let width = 0;
  const pending: { values: unknown[]; rowNo: number }[] = [];
  await readRows((row, rowNo) => {
    if (rowNo !== headerRow && !byRow.has(rowNo)) return;
    // The rows are echoed up to column IV, where the header is looked for: past it a value on
    // every row would make each one 16,384 cells wide.
    const values: unknown[] = [];
    for (let k = 0; k < row.cols.length; k++) {
      const c = row.cols[k]!;
      if (c > SMALL_SHEET_MAX_COLUMNS) continue;
      values[c - 1] = row.values[k];
      if (c > width) width = c;
    }
    pending.push({ values, rowNo });
  });
  const errCol = width + 1;
  // The row each one had in the upload, after the reasons: the preview's row numbers are those.
  const srcCol = errCol + langs.length;
  const rows: WorkbookRow[] = pending.map(({ values, rowNo }, i) => {
    const at = i + 1;
    const cells = [...values];
    if (rowNo === headerRow) {
      langs.forEach((l, k) => (cells[errCol - 1 + k] = translate(l, 'errorColumnTitle')));
      cells[srcCol - 1] = langs.map((l) => translate(l, 'errorSourceRowTitle')).join(' / ');
      return { at, values: cells, bold: true };
    }
    const styles: Record<number, CellStyle> = {};
    const issues = byRow.get(rowNo)!;
    for (const e of issues) {
      if (!e.letter) continue;
      styles[columnNumber(e.letter)] = { fill: red, note: langs.map((l) => translate(l, e.key, e.params)).join('\n') };
    }
    langs.forEach((l, k) => {
      cells[errCol - 1 + k] = issues
        .map((e) => (e.letter ? `[${e.letter}] ` : '') + translate(l, e.key, e.params))
        .join('; ');
      styles[errCol + k] = { fill: red };
    });
    cells[srcCol - 1] = rowNo;
    return { at, values: cells, styles };
  });
  const columns = Array.from({ length: srcCol }, (_, i) =>
    i >= errCol - 1 && i < srcCol - 1 ? { width: 60 } : i === srcCol - 1 ? { width: 16 } : {},
  );
  // Values only (formulas give their results), written by the one workbook writer.
  const chunks: Buffer[] = [];
  const out = new PassThrough();
  out.on('data', (c: Buffer) => chunks.push(c));
  await writeWorkbook({ name: 'orders', columns, sharedStrings: true }, [rows], out);
  return new Uint8Array(Buffer.concat(chunks));
}

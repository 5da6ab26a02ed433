import type { Row } from 'exceljs';
import type { Database } from '../../db/database.ts';
import { buildWorkbookBuffer } from '../../lib/workbook-job.ts';
import { type CellStyle, columnLetter, type WorkbookRow } from '../../lib/workbook-writer.ts';
import type { Column } from './id-cards.template.ts';
import type { Sheet } from './id-cards.upload.ts';

const ERROR_FILL = 'FFFFC7CE';

/**
 * The error workbook of a refused import, as the batch import makes one: the customer's
 * header and failed rows as uploaded (their own columns, widths and text formats; values
 * only, so no link or formula of the upload reaches whoever opens it), an error column
 * naming each problem by column letter, the bad cells filled red with the problem as a
 * note, and the row's number in the upload. Fixed rows can be uploaded from it again:
 * columns the template does not know are ignored. Written by the workbook worker.
 */
export async function errorWorkbook(
  db: Database,
  sheet: Sheet,
  problems: Map<number, { column: Column; text: string }[]>,
  t: (key: string) => string,
): Promise<Buffer> {
  const { ws: src, at } = sheet;
  const header = src.getRow(1);
  let width = header.cellCount;
  for (const row of problems.keys()) width = Math.max(width, src.getRow(row).cellCount);
  const errCol = width + 1;
  const rowCol = width + 2;
  const copy = (from: Row) => {
    const values: unknown[] = [];
    const styles: Record<number, CellStyle> = {};
    for (let c = 1; c <= width; c++) {
      const cell = from.getCell(c);
      values.push(cell.value);
      // The text format keeps an 18-digit ID number whole when the fixed file is saved.
      if (cell.numFmt) styles[c] = { numFmt: cell.numFmt };
    }
    return { values, styles };
  };
  const top = copy(header);
  const rows: WorkbookRow[] = [
    {
      values: [...top.values, t('idCardImportErrorColumn'), t('idCardImportRowColumn')],
      styles: top.styles,
      bold: true,
    },
  ];
  for (const [row, list] of [...problems].sort(([a], [b]) => a - b)) {
    const { values, styles } = copy(src.getRow(row));
    const texts: string[] = [];
    const notes = new Map<number, string[]>();
    for (const p of list) {
      const col = at.get(p.column);
      if (col === undefined) {
        texts.push(p.text);
        continue;
      }
      texts.push(`[${columnLetter(col)}] ${p.text}`);
      notes.set(col, [...(notes.get(col) ?? []), p.text]);
    }
    for (const [col, list] of notes) styles[col] = { ...styles[col], fill: ERROR_FILL, note: list.join('\n') };
    styles[errCol] = { fill: ERROR_FILL };
    rows.push({ values: [...values, texts.join('; '), row], styles });
  }
  const columns = Array.from({ length: rowCol }, (_, i) => ({ width: src.getColumn(i + 1).width }));
  columns[errCol - 1] = { width: 60 };
  columns[rowCol - 1] = { width: 12 };
  return buildWorkbookBuffer(db, {
    sheet: { name: src.name || 'id-cards', columns, frozenHeader: true, creator: 'console', sharedStrings: true },
    rows,
  });
}

/** The error workbook's file name, after the upload's: `ids.zip` → `ids-errors.xlsx`. */
export function errorFileName(upload: string): string {
  const base = (upload.split(/[\\/]/).pop() ?? '').replace(/\.[^.]*$/, '');
  // No control characters or characters file systems refuse.
  const stem = [...base]
    .filter((ch) => ch >= ' ' && !'"<>|:*?'.includes(ch))
    .join('')
    .trim()
    .slice(0, 100);
  return `${stem || 'id-cards'}-errors.xlsx`;
}

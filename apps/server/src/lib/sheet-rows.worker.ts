import { parentPort } from 'node:worker_threads';
import { normalizeCell } from '@console/contract/checks';
import { guardXlsx } from './xlsx-container.ts';
import {
  type CellValue,
  listedRowsLimit,
  MAX_SHEET_COLUMNS,
  readFirstSheetRows,
  SMALL_SHEET_MAX_COLUMNS,
  XlsxLimitError,
  XlsxReadError,
} from './xlsx-rows.ts';
import { ZipBombError } from './zip.ts';

/**
 * Reads the first sheet of a small uploaded workbook (a list of orders to change) as text,
 * off the event loop: the batch import's reader (xlsx-rows.ts) behind the same container
 * guard, so a zip bomb or a crafted sheet costs this worker, not everyone's calls.
 */
export interface SheetRowsJob {
  file: Uint8Array;
  /** Rows past this (after the header) are refused. */
  maxRows: number;
  /** Only the first this many columns are read (a row blank in them is skipped); all when absent. */
  columns?: number;
}
export type SheetRowsReply =
  | { type: 'done'; rows: { row: number; cells: string[] }[] }
  | { type: 'problem'; key: string; params?: Record<string, string | number> };

/** A cell as trimmed text (full-width ASCII folded, as the import does); a formula gives its cached result. */
export function cellAsText(v: CellValue | undefined): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return normalizeCell(v);
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if ('formula' in v) return v.result === undefined || typeof v.result === 'object' ? '' : cellAsText(v.result);
  return '';
}

class TooMany extends Error {}
class TooWide extends Error {}

async function run(job: SheetRowsJob): Promise<SheetRowsReply> {
  const buf = Buffer.from(job.file.buffer, job.file.byteOffset, job.file.byteLength);
  const guard = guardXlsx(buf);
  if (!guard.ok)
    return { type: 'problem', key: guard.problem === 'zipBomb' ? 'workbookZipBomb' : 'workbookUnreadable' };
  const rows: { row: number; cells: string[] }[] = [];
  try {
    await readFirstSheetRows(buf, guard.entries, {
      maxListedRows: listedRowsLimit(job.maxRows),
      onRow: (row, rowNo) => {
        // Texts of the cells present only; the row is made dense up to its last non-blank one.
        let width = 0;
        const texts: string[] = [];
        const columns = job.columns ?? MAX_SHEET_COLUMNS;
        for (let k = 0; k < row.cols.length; k++) {
          if (row.cols[k]! > columns) {
            texts.push('');
            continue;
          }
          const t = cellAsText(row.values[k]);
          texts.push(t);
          if (t && row.cols[k]! > width) width = row.cols[k]!;
        }
        if (width === 0) return;
        if (width > SMALL_SHEET_MAX_COLUMNS) throw new TooWide();
        const cells: string[] = Array.from({ length: width }, () => '');
        for (let k = 0; k < row.cols.length; k++) if (row.cols[k]! <= width) cells[row.cols[k]! - 1] = texts[k]!;
        rows.push({ row: rowNo, cells });
        if (rows.length > job.maxRows + 1) throw new TooMany();
      },
    });
  } catch (e) {
    if (e instanceof TooMany) return { type: 'problem', key: 'sheetTooManyRows', params: { max: job.maxRows } };
    if (e instanceof TooWide) return { type: 'problem', key: 'sheetTooManyColumns', params: { max: 'IV' } };
    if (e instanceof XlsxLimitError && e.limit === 'listedRows')
      return { type: 'problem', key: 'sheetTooManyListedRows', params: { max: listedRowsLimit(job.maxRows) } };
    if (e instanceof ZipBombError) return { type: 'problem', key: 'workbookZipBomb' };
    if (e instanceof XlsxLimitError || e instanceof XlsxReadError)
      return { type: 'problem', key: 'workbookUnreadable' };
    throw e;
  }
  return { type: 'done', rows };
}

parentPort!.once('message', (job: SheetRowsJob) => {
  run(job).then(
    (reply) => parentPort!.postMessage(reply),
    () => parentPort!.postMessage({ type: 'problem', key: 'workbookUnreadable' } satisfies SheetRowsReply),
  );
});

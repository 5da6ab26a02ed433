import type { ApiLanguage } from '@console/contract';
import { normalizeCell } from '@console/contract/checks';
import { checkedCell } from '../../domain/order-input.ts';
import {
  listedRowsLimit,
  MAX_PENDING_CHARS,
  MAX_SHEET_ROWS,
  readFirstSheetRows,
  type SheetRow,
  SMALL_SHEET_MAX_COLUMNS,
  XlsxLimitError,
} from '../../lib/xlsx-rows.ts';
import { ZipBombError } from '../../lib/zip.ts';
import { columnLetter as colLetter } from '../../lib/workbook-writer.ts';
import { readZipDirectory } from '../../lib/xlsx-guard.ts';
import type { Issue, ParseJob } from './parse.protocol.ts';
import { COLUMNS, type ColumnDef, type ColumnKey } from '../../domain/order-templates/template-columns.ts';
import {
  EXAMPLE_ORDER_NO,
  headerCurrency,
  headerText,
  matchHeader,
  templateMismatch,
} from '../../domain/order-templates/template-headers.ts';
import { type TemplateDef, TEMPLATES } from '../../domain/order-templates/templates.ts';

/**
 * Reading an uploaded sheet in the parse worker: its header checked against the chosen template,
 * its rows as text cells by column. The rules of the orders they make come after (parse.orders.ts).
 */

/** The sheet cannot be parsed: the key the uploader reads. */
export class Fatal extends Error {
  readonly key: string;
  readonly params?: Record<string, string | number>;
  constructor(key: string, params?: Record<string, string | number>) {
    super(key);
    this.key = key;
    this.params = params;
  }
}

/** The parse was asked to stop: it unwinds (closing its inflater) and the worker exits. */
export class Stopped extends Error {}

/** Past Excel's sheet limits or the reader's buffer: the reason the uploader reads. */
export function limitFatal(e: XlsxLimitError, maxRows: number): Fatal {
  if (e.limit === 'listedRows') return new Fatal('fileTooManyListedRows', { max: listedRowsLimit(maxRows) });
  if (e.limit === 'rows') return new Fatal('fileRowsPastLimit', { max: MAX_SHEET_ROWS });
  if (e.limit === 'columns') return new Fatal('fileColumnsPastLimit', { max: 'XFD' });
  return new Fatal('fileRowTooLong', { mb: MAX_PENDING_CHARS / 1024 / 1024 });
}

/** The sheet is another template than the one chosen: say which it looks like, in the uploader's language. */
export function wrongTemplate(
  def: TemplateDef,
  wrong: NonNullable<ReturnType<typeof templateMismatch>>,
  found: ReadonlySet<ColumnKey>,
  lang: ApiLanguage,
) {
  const title = (d: TemplateDef) => (lang === 'en' ? d.title.en : d.title.zh);
  if ('currency' in wrong) return new Fatal('fileWrongCurrency', { expected: title(def), found: wrong.currency });
  // A kind is named only when the sheet has its required columns: a label-B or Meituan workbook
  // has the bare shape of seven order templates, and a list of seven tells the uploader less than
  // the one template the page expects (issue 28 #13).
  const complete = wrong.like.filter((d) =>
    d.columns.every((k) => !(COLUMNS[k] as ColumnDef).required || found.has(k)),
  );
  if (!complete.length) return new Fatal('fileNotTemplate', { expected: title(def) });
  return new Fatal('fileWrongTemplate', {
    expected: title(def),
    looksLike: complete.map(title).join(lang === 'en' ? ' / ' : '、'),
  });
}

/** A cell as trimmed text; a problem key when it cannot be read as text. */
export function cellText(v: unknown, col: ColumnDef): { text: string } | { problem: string } {
  if (v === null || v === undefined) return { text: '' };
  if (typeof v === 'string') return { text: normalizeCell(v) };
  if (typeof v === 'number') {
    if (col.type === 'text' && Number.isInteger(v) && Math.abs(v) > Number.MAX_SAFE_INTEGER)
      return { problem: 'cellNumberTooLong' };
    return { text: String(v) };
  }
  if (typeof v === 'boolean') return { text: v ? 'TRUE' : 'FALSE' };
  if (v instanceof Date) return { text: v.toISOString().slice(0, 10) };
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if ('formula' in o || 'sharedFormula' in o) {
      if (
        o.result === undefined ||
        o.result === null ||
        (typeof o.result === 'object' && 'error' in (o.result as object))
      )
        return { problem: 'cellFormulaNoValue' };
      return cellText(o.result, col);
    }
    if ('error' in o) return { problem: 'cellErrorValue' };
    if ('richText' in o) return { text: normalizeCell((o.richText as { text: string }[]).map((r) => r.text).join('')) };
    if ('text' in o) return cellText(o.text, col);
  }
  return { text: normalizeCell(String(v)) };
}

/** A row's non-empty cells by column (keys added in header order: one object shape per file). */
export type RowRec = { row: number; values: Partial<Record<ColumnKey, string>> };

/** Streams the first worksheet's rows; tells whether the sheet declares merged cells. */
export function streamRows(
  buf: Buffer,
  maxRows: number,
  checkStop: () => void,
  onRow: (row: SheetRow, rowNo: number) => void,
  onBytes?: (read: number, total: number) => void,
) {
  const entries = readZipDirectory(buf);
  if (!entries) throw new Fatal('fileCorrupt');
  return readFirstSheetRows(buf, entries, {
    onRow: (row, rowNo) => {
      checkStop();
      onRow(row, rowNo);
    },
    onBytes,
    maxListedRows: listedRowsLimit(maxRows),
  });
}

/**
 * The sheet's rows as records (the header found on the first non-empty row), the cells that could
 * not be read, the header's row and each column's letter.
 */
export async function readRecords(
  buf: Buffer,
  job: ParseJob,
  currencyOf: (channel: string) => string | undefined,
  checkStop: () => void,
  onProgress: (fraction: number, rows: number) => void,
) {
  const def = TEMPLATES[job.kind];
  let header: Map<number, ColumnKey> | null = null;
  let headerRow = 0;
  const records: RowRec[] = [];
  const cellProblems: Issue[] = [];
  let lastProgress = 0;
  const streaming = streamRows(
    buf,
    job.maxRows,
    checkStop,
    (row, rowNo) => {
      if (!header) {
        const h = new Map<number, ColumnKey>();
        // Every template's columns are looked for, not only this one's: a box column under a
        // template without boxes tells the sheet is another kind (it was ignored silently).
        const found = new Set<ColumnKey>();
        let priceCurrency: string | undefined;
        // The cells present only (a row's cost is its cells, not its last column), within IV.
        row.cols.forEach((i, k) => {
          if (i > SMALL_SHEET_MAX_COLUMNS) return;
          const t = cellText(row.values[k], COLUMNS.remark);
          if (!('text' in t)) return;
          const key = matchHeader(t.text);
          if (!key) return;
          found.add(key);
          if (key === 'unitPrice') priceCurrency = headerCurrency(t.text);
          if (def.columns.includes(key)) h.set(i, key);
        });
        if (h.size === 0) return; // leading blank or title rows
        const wrong = templateMismatch(def, { keys: found, priceCurrency }, currencyOf);
        if (wrong) throw wrongTemplate(def, wrong, found, job.lang);
        const missing = def.columns.filter((k) => (COLUMNS[k] as ColumnDef).required && ![...h.values()].includes(k));
        if (missing.length)
          throw new Fatal('fileMissingColumns', { columns: missing.map((k) => headerText(COLUMNS[k])).join(', ') });
        header = h;
        headerRow = rowNo;
        return;
      }
      const rec: RowRec = { row: rowNo, values: {} };
      let any = false;
      for (const [i, key] of header) {
        const t = checkedCell(key, cellText(row.get(i), COLUMNS[key]));
        if ('problem' in t) {
          cellProblems.push({ row: rowNo, col: key, letter: colLetter(i), key: t.problem });
          any = true;
        } else if (t.text) {
          rec.values[key] = t.text;
          any = true;
        }
      }
      if (!any) return; // blank rows are skipped
      if (rec.values['orderNo'] === EXAMPLE_ORDER_NO) return;
      records.push(rec);
      if (records.length > job.maxRows) throw new Fatal('fileTooManyRows', { max: job.maxRows });
    },
    (read, total) => {
      const fraction = read / total;
      if (fraction - lastProgress >= 0.02) {
        lastProgress = fraction;
        onProgress(fraction, records.length);
      }
    },
  );
  let read: { merged: boolean };
  try {
    read = await streaming;
  } catch (e) {
    // A bomb is a bomb, a stop a stop: neither is inflated again to look for merged cells.
    if (e instanceof ZipBombError || e instanceof Stopped) throw e;
    if (e instanceof XlsxLimitError) throw limitFatal(e, job.maxRows);
    // Merged cells explain most unreadable headers: say so first, as when they were checked up front.
    if (
      await streamRows(buf, job.maxRows, checkStop, () => {}).then(
        (r) => r.merged,
        () => false,
      )
    )
      throw new Fatal('fileMergedCells');
    throw e;
  }
  if (read.merged) throw new Fatal('fileMergedCells');
  if (!header) throw new Fatal('fileNoHeader');
  if (records.length === 0) throw new Fatal('fileNoRows');
  const letterOf = new Map<ColumnKey, string>(
    [...(header as Map<number, ColumnKey>)].map(([i, k]) => [k, colLetter(i)]),
  );
  return { records, cellProblems, headerRow, letterOf };
}

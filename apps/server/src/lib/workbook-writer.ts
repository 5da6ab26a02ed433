import type { Writable } from 'node:stream';
import type { CellValue } from 'exceljs';
import { excel } from './exceljs.ts';
import { nextTurn } from '../db/next-turn.ts';

/**
 * One way every workbook the server makes is written: ExcelJS's streaming writer, rows
 * committed as they come, so a workbook of any length holds only a page of rows in
 * memory. Used by the workbook worker (`workbook.worker.ts`) and by the parse worker,
 * which writes a batch's error workbook where the rows already are.
 */

export interface WorkbookColumn {
  /** Header text in row 1 (no header row when no column has one). */
  header?: string;
  width?: number;
  /** The database column this column shows, when the export has no row function. */
  key?: string;
}

export interface WorkbookSheet {
  name: string;
  columns: WorkbookColumn[];
  /** The header row in bold. */
  boldHeader?: boolean;
  /** The header row stays in view while scrolling. */
  frozenHeader?: boolean;
  creator?: string;
  /**
   * Strings in a shared table, as ExcelJS's in-memory writer keeps them (an empty string
   * stays a text cell). The table holds every distinct text until the end: only for
   * workbooks whose rows are in memory anyway (a copy of an upload's rows, a search result).
   */
  sharedStrings?: boolean;
}

export interface CellStyle {
  /** Solid fill colour, ARGB. */
  fill?: string;
  /** A comment on the cell. */
  note?: string;
  numFmt?: string;
}

/** A row's values from column A; or placed at a row number, bold, with styled cells (1-based columns). */
export type WorkbookRow =
  unknown[] | { at?: number; values: unknown[]; bold?: boolean; styles?: Record<number, CellStyle> };

type Plain = string | number | boolean | Date | { error: string } | null;

/**
 * A cell as a value only. Uploaded cells can carry hyperlinks (`{ text, hyperlink }`),
 * formulas (`HYPERLINK(…)`, anything that recalculates when the file is opened) and rich
 * text with its fonts: copied into a workbook that operators open, a link would be one
 * click away. A formula gives its cached result, a link its text, rich text its characters.
 */
export function plainValue(v: unknown): Plain {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if ('formula' in o || 'sharedFormula' in o) return plainValue(o.result);
    if ('richText' in o && Array.isArray(o.richText))
      return o.richText.map((r: { text?: unknown }) => String(r?.text ?? '')).join('');
    if ('hyperlink' in o || 'text' in o) return plainValue(o.text);
    if ('error' in o && typeof o.error === 'string') return { error: o.error };
  }
  return String(v);
}

/** A column's letters from its number: 1 → A, 27 → AA. */
export function columnLetter(n: number): string {
  let s = '';
  for (let c = n; c > 0; c = Math.floor((c - 1) / 26)) s = String.fromCharCode(65 + ((c - 1) % 26)) + s;
  return s;
}

/** A column's number from its letters: A → 1, AA → 27. */
export function columnNumber(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

const solid = (argb: string) => ({ type: 'pattern', pattern: 'solid', fgColor: { argb } }) as const;

/**
 * Writes one sheet to `out` as an .xlsx: the header row, then the rows of each page in
 * order (a row placed `at` a number leaves the rows before it empty). Ends `out`.
 */
export async function writeWorkbook(
  sheet: WorkbookSheet,
  pages: AsyncIterable<WorkbookRow[]> | Iterable<WorkbookRow[]>,
  out: Writable,
): Promise<void> {
  const Excel = await excel();
  const done = new Promise<void>((resolve, reject) => {
    out.once('finish', resolve);
    out.once('close', resolve);
    out.once('error', reject);
  });
  const wb = new Excel.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: sheet.sharedStrings ?? false,
  });
  if (sheet.creator) wb.creator = sheet.creator;
  const ws = wb.addWorksheet(sheet.name, sheet.frozenHeader ? { views: [{ state: 'frozen', ySplit: 1 }] } : {});
  ws.columns = sheet.columns.map((c) => (c.width ? { width: c.width } : {}));
  let next = 1;
  const put = (row: WorkbookRow) => {
    const r = Array.isArray(row) ? { values: row } : row;
    const n = r.at !== undefined && r.at >= next ? r.at : next;
    const out = ws.getRow(n);
    r.values.forEach((v, i) => {
      const value = plainValue(v);
      if (value !== null) out.getCell(i + 1).value = value as CellValue;
    });
    for (const [col, style] of Object.entries(r.styles ?? {})) {
      const cell = out.getCell(Number(col));
      if (style.numFmt) cell.numFmt = style.numFmt;
      if (style.fill) cell.fill = solid(style.fill);
      if (style.note) cell.note = style.note;
    }
    if (r.bold) out.font = { bold: true };
    out.commit();
    next = n + 1;
  };
  if (sheet.columns.some((c) => c.header !== undefined))
    put({ values: sheet.columns.map((c) => c.header ?? null), bold: sheet.boldHeader });
  for await (const page of pages) {
    for (const row of page) put(row);
    // One event-loop turn awaited inside the running render, so the stream takes in the page
    // (the writer's back-pressure) before the next is read.
    await nextTurn();
  }
  ws.commit();
  await wb.commit();
  await done;
}

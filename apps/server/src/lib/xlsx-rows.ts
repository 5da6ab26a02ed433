import { StringDecoder } from 'node:string_decoder';
import { inflateEntry, inflateEntryChunks, type ZipEntry } from './zip.ts';

/**
 * Reads the rows of an xlsx workbook's first sheet straight from its SpreadsheetML.
 *
 * Why not ExcelJS's streaming reader: an order import only needs cell values, and
 * ExcelJS builds a SAX event, a Cell and a Row object per cell; on 100,000-row sheets
 * that alone took longer than everything else in the import. Here each row is one
 * regular-expression walk over the inflated XML. Values follow ExcelJS's shapes so the
 * callers read either alike: strings (rich text joined, phonetic runs left out),
 * numbers, booleans, `{ error }`, `{ formula, result }` and Dates (cells typed `d`).
 *
 * The caller has checked the container first (`guardXlsx`: a ZIP, no declared bomb, no ZIP64);
 * every entry is inflated counted, so one that lies about its size throws `ZipBombError`.
 */
export type { ZipEntry };

export type CellValue =
  | string
  | number
  | boolean
  | Date
  | { error: string }
  | { formula: string; result?: string | number | boolean | { error: string } };

export class XlsxReadError extends Error {}

/** Excel's own sheet limits: no sheet it writes goes past them, so a file that does is refused on sight. */
export const MAX_SHEET_ROWS = 1_048_576;
export const MAX_SHEET_COLUMNS = 16_384; // XFD
/**
 * Text kept while waiting for a row to close. Rows come whole at most this long (a full row of
 * 16,384 cells is far shorter in practice); past it the sheet is refused rather than the buffer
 * growing and being re-scanned with every chunk (a 600 KB sheet bomb kept a worker busy for minutes).
 */
export const MAX_PENDING_CHARS = 16 * 1024 * 1024;

/**
 * Columns that uploads' rows are read or echoed in: every template fits in a few dozen, and rows
 * made dense for their callers (indexed by column) cost their last column's index, so a value at
 * XFD on every row made each row 16,384 cells. Excel 2003's limit (IV) leaves room for any sheet
 * a person fills in.
 */
export const SMALL_SHEET_MAX_COLUMNS = 256;

/** Rows a sheet may list beyond its data rows (blank or formatted ones, at least 1,000): `maxListedRows`. */
export const listedRowsLimit = (maxRows: number) => maxRows + 1 + Math.max(maxRows, 1000);

/**
 * A sheet past Excel's limits, the reader's buffer or the caller's `maxListedRows`: refused as
 * soon as it is seen.
 */
export class XlsxLimitError extends XlsxReadError {
  readonly limit: 'rows' | 'columns' | 'rowSize' | 'listedRows';
  constructor(limit: 'rows' | 'columns' | 'rowSize' | 'listedRows', detail: string) {
    super(`${limit}: ${detail}`);
    this.limit = limit;
  }
}

/**
 * The cells of one row that hold a value, in the order the sheet lists them. Not an array
 * indexed by column: a row whose only cell is at XFD made a 16,384-slot array, and every
 * caller walked it, blank or not (issue 26, finding 2: 20,000 such rows held a worker 30 s).
 * Here a row costs what its cells cost, whatever their columns.
 */
export class SheetRow {
  /** `cols[k]` (1-based, like ExcelJS) is the column of `values[k]`. */
  readonly cols: number[] = [];
  readonly values: CellValue[] = [];
  /** Positions by column, made only once a row lists a column out of order (rare, never quadratic). */
  private index: Map<number, number> | null = null;
  set(col: number, value: CellValue) {
    const n = this.cols.length;
    if (this.index === null && (n === 0 || col > this.cols[n - 1]!)) {
      this.cols.push(col);
      this.values.push(value);
      return;
    }
    this.index ??= new Map(this.cols.map((c, k) => [c, k]));
    // A column listed twice keeps its last value, as an array indexed by column did.
    const at = this.index.get(col);
    if (at !== undefined) this.values[at] = value;
    else {
      this.index.set(col, n);
      this.cols.push(col);
      this.values.push(value);
    }
  }
  get(col: number): CellValue | undefined {
    // In column order (as Excel writes) a narrow row has column c at c - 1.
    const guess = col - 1;
    if (guess < this.cols.length && this.cols[guess] === col) return this.values[guess];
    if (this.index) {
      const at = this.index.get(col);
      return at === undefined ? undefined : this.values[at];
    }
    // Ascending columns: a binary search.
    let lo = 0;
    let hi = this.cols.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const c = this.cols[mid]!;
      if (c === col) return this.values[mid];
      if (c < col) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }
  /** The last column that holds a value (0: none). */
  get width(): number {
    let w = 0;
    for (const c of this.cols) if (c > w) w = c;
    return w;
  }
  /** Values indexed by column, holes for the others: for rows the caller knows are narrow. */
  toArray(): CellValue[] {
    const out: CellValue[] = [];
    for (let k = 0; k < this.cols.length; k++) out[this.cols[k]!] = this.values[k]!;
    return out;
  }
}

/** Every entry is inflated counted: more than it declared is a `ZipBombError` (lib/zip.ts). */
function inflateText(buf: Buffer, e: ZipEntry): string {
  return inflateEntry(buf, e).toString('utf8');
}

const ENTITY = /&(?:#x([0-9a-fA-F]+)|#(\d+)|(amp|lt|gt|quot|apos));/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
/** OOXML writes characters XML cannot hold (CR, control characters) as `_xHHHH_`; `_x005F_` escapes an underscore. */
const OOXML_ESCAPE = /_x([0-9A-Fa-f]{4})_/g;

export function decodeXmlText(s: string): string {
  if (s.includes('&'))
    s = s.replace(ENTITY, (_, hex: string, dec: string, name: string) =>
      name ? NAMED[name]! : String.fromCodePoint(hex ? parseInt(hex, 16) : Number(dec)),
    );
  if (s.includes('_x')) s = s.replace(OOXML_ESCAPE, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return s;
}

const T_RUN = /<t(?:\s[^>]*)?>([^<]*)<\/t>|<t(?:\s[^>]*)?\/>/g;
const PHONETIC = /<rPh\b[\s\S]*?<\/rPh>/g;

/** The text of an `<si>` or `<is>` body: every `<t>` joined, phonetic (`<rPh>`) runs left out. */
function richText(body: string): string {
  if (body.startsWith('<t>') && body.endsWith('</t>') && body.indexOf('<', 3) === body.length - 4)
    return decodeXmlText(body.slice(3, -4));
  if (body.includes('<rPh')) body = body.replace(PHONETIC, '');
  let out = '';
  for (const m of body.matchAll(T_RUN)) out += m[1] ?? '';
  return decodeXmlText(out);
}

const SI = /<si>([\s\S]*?)<\/si>|<si\/>/g;

function sharedStrings(xml: string): string[] {
  const out: string[] = [];
  for (const m of xml.matchAll(SI)) out.push(m[1] === undefined ? '' : richText(m[1]));
  return out;
}

/** The value of an attribute in a tag's attribute text (` r="A1" t="s"`), if present. */
const OTHER_SPACE = /[\t\n\r]/;
function attr(attrs: string, name: string): string | undefined {
  let at = attrs.indexOf(` ${name}="`);
  if (at < 0) {
    // Excel separates attributes by single spaces; other writers may use line breaks or tabs.
    if (!OTHER_SPACE.test(attrs)) return undefined;
    const m = new RegExp(`\\s${name}="`).exec(attrs);
    if (!m) return undefined;
    at = m.index;
  }
  const from = at + name.length + 3;
  return attrs.slice(from, attrs.indexOf('"', from));
}

/** The path of the workbook's first sheet (by sheet order, not by zip order). */
function firstSheetPath(buf: Buffer, byName: Map<string, ZipEntry>): string {
  const fallback = 'xl/worksheets/sheet1.xml';
  const wb = byName.get('xl/workbook.xml');
  const rels = byName.get('xl/_rels/workbook.xml.rels');
  if (!wb || !rels) return fallback;
  const sheet = /<sheet\b[^>]*>/.exec(inflateText(buf, wb));
  const rid = sheet && attr(sheet[0], 'r:id');
  if (!rid) return fallback;
  for (const m of inflateText(buf, rels).matchAll(/<Relationship\b[^>]*>/g)) {
    if (attr(m[0], 'Id') !== rid) continue;
    const target = attr(m[0], 'Target');
    if (!target) break;
    return target.startsWith('/') ? target.slice(1) : `xl/${target}`.replace(/\/[^/]+\/\.\.\//g, '/');
  }
  return fallback;
}

/** Column number (1-based) of a cell reference such as `AB12`. */
function columnOf(ref: string): number {
  let n = 0;
  for (let i = 0; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (c < 65 || c > 90) break;
    n = n * 26 + (c - 64);
    // Stop counting past XFD: a reference such as column 2^31 is refused, not computed.
    if (n > MAX_SHEET_COLUMNS) throw new XlsxLimitError('columns', ref.slice(0, 20));
  }
  return n;
}

const V = /<v>([^<]*)<\/v>/;
const F = /<f\b[^>]*?(?:\/>|>([^<]*)<\/f>)/;
const IS = /<is>([\s\S]*?)<\/is>/;

function scalar(type: string | undefined, raw: string, strings: string[]): CellValue {
  switch (type) {
    case 's': {
      const s = strings[Number(raw)];
      if (s === undefined) throw new XlsxReadError(`shared string ${raw} missing`);
      return s;
    }
    case 'str':
    case 'inlineStr':
      return decodeXmlText(raw);
    case 'b':
      return raw === '1' || raw === 'true';
    case 'e':
      return { error: raw };
    case 'd':
      return new Date(raw);
    default:
      return Number(raw);
  }
}

function cellValue(attrs: string, body: string, strings: string[]): CellValue | undefined {
  const type = attr(attrs, 't');
  // The common case: `<v>…</v>` and nothing else.
  if (body.charCodeAt(1) === 118 /* v */ && body.startsWith('<v>') && body.indexOf('<', 3) === body.length - 4)
    return scalar(type, body.slice(3, -4), strings);
  if (type === 'inlineStr' && !body.includes('<f')) {
    const is = IS.exec(body);
    return is ? richText(is[1]!) : undefined;
  }
  const v = V.exec(body);
  const f = body.includes('<f') ? F.exec(body) : null;
  if (f) {
    const result = v ? scalar(type, v[1]!, strings) : undefined;
    return { formula: decodeXmlText(f[1] ?? ''), result: result as string | number | boolean | { error: string } };
  }
  if (!v) return undefined;
  return scalar(type, v[1]!, strings);
}

/** `<row` or `<c` followed by whitespace, `>` or `/`: the start of a row or a cell tag. */
const isTagEnd = (c: number) => c === 32 || c === 62 || c === 47 || c === 9 || c === 10 || c === 13;

export interface ReadRowsOptions {
  /** Called with each row that holds a value, its cells as the sheet lists them. */
  onRow: (row: SheetRow, rowNo: number) => void;
  /**
   * Rows the sheet may list, blank ones included (`listedRows` past it). Blank rows cost a walk
   * like any other and counted toward no limit: 40,000 of them passed every check.
   */
  maxListedRows?: number;
  /** Compressed bytes of the sheet read so far, and their total (progress bars). */
  onBytes?: (read: number, total: number) => void;
}

export interface ReadRowsResult {
  /** The sheet declares merged cells (`<mergeCell>`, after the rows). */
  merged: boolean;
}

/** Streams the first sheet's rows (inflating as it goes: a 100,000-row sheet is never whole in memory). */
export async function readFirstSheetRows(
  buf: Buffer,
  entries: ZipEntry[],
  { onRow, onBytes, maxListedRows = MAX_SHEET_ROWS }: ReadRowsOptions,
): Promise<ReadRowsResult> {
  const byName = new Map(entries.map((e) => [e.name, e]));
  const path = firstSheetPath(buf, byName);
  const sheet = byName.get(path);
  if (!sheet) throw new XlsxReadError(`sheet not found: ${path}`);
  const sst = byName.get('xl/sharedStrings.xml');
  const strings = sst ? sharedStrings(inflateText(buf, sst)) : [];

  let rowNo = 0;
  let col = 0;
  let listed = 0;
  let values: SheetRow | null = null;
  const flush = () => {
    if (values) onRow(values, rowNo);
    values = null;
  };
  // A hand-written walk: finding each tag with indexOf is 2-3 times faster than one regular expression.
  const scan = (text: string) => {
    let i = 0;
    for (let lt = text.indexOf('<', i); lt >= 0; lt = text.indexOf('<', i)) {
      const c1 = text.charCodeAt(lt + 1);
      if (c1 === 99 /* c */ && isTagEnd(text.charCodeAt(lt + 2))) {
        const gt = text.indexOf('>', lt);
        if (gt < 0) throw new XlsxReadError('unterminated cell');
        const empty = text.charCodeAt(gt - 1) === 47; /* / */
        const attrs = text.slice(lt + 2, empty ? gt - 1 : gt);
        const ref = attrs.startsWith(' r="') ? attrs.slice(4, attrs.indexOf('"', 4)) : attr(attrs, 'r');
        col = ref ? columnOf(ref) : col + 1;
        if (col > MAX_SHEET_COLUMNS) throw new XlsxLimitError('columns', String(col));
        if (empty) {
          i = gt + 1;
          continue;
        }
        const end = text.indexOf('</c>', gt);
        if (end < 0) throw new XlsxReadError('unterminated cell');
        i = end + 4;
        const v = cellValue(attrs, text.slice(gt + 1, end), strings);
        if (v !== undefined) (values ??= new SheetRow()).set(col, v);
      } else if (c1 === 114 /* r */ && text.startsWith('row', lt + 1) && isTagEnd(text.charCodeAt(lt + 4))) {
        flush();
        const gt = text.indexOf('>', lt);
        if (gt < 0) throw new XlsxReadError('unterminated row');
        const r = attr(text.slice(lt + 4, gt), 'r');
        rowNo = r !== undefined ? Number(r) : rowNo + 1;
        col = 0;
        if (!Number.isInteger(rowNo) || rowNo < 1) throw new XlsxReadError(`bad row number: ${r}`);
        if (rowNo > MAX_SHEET_ROWS) throw new XlsxLimitError('rows', String(r ?? rowNo).slice(0, 20));
        if (++listed > maxListedRows) throw new XlsxLimitError('listedRows', String(maxListedRows));
        i = gt + 1;
      } else i = lt + 1;
    }
  };

  const decoder = new StringDecoder('utf8');
  let carry = '';
  const feed = (chunk: Buffer) => {
    const text = carry + decoder.write(chunk);
    // Scan whole rows only: up to the last closed row; the rest waits for the next chunk.
    const cut = text.lastIndexOf('</row>');
    if (cut < 0) {
      if (text.length > MAX_PENDING_CHARS) throw new XlsxLimitError('rowSize', String(text.length));
      carry = text;
      return;
    }
    scan(text.slice(0, cut + 6));
    carry = text.slice(cut + 6);
    if (carry.length > MAX_PENDING_CHARS) throw new XlsxLimitError('rowSize', String(carry.length));
  };
  // Counted as it inflates: a sheet that gives more than it declared stops here (lib/zip.ts).
  for await (const chunk of inflateEntryChunks(buf, sheet, { onRead: onBytes })) feed(chunk);
  const tail = carry + decoder.end();
  scan(tail);
  flush();
  return { merged: tail.includes('<mergeCell ') || tail.includes('<mergeCell>') };
}

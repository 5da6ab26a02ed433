import type { Worksheet } from 'exceljs';
import { excel } from '../../lib/exceljs.ts';
import { inflateEntry, ZipBombError } from '../../lib/zip.ts';
import { guardWholeWorkbook, guardXlsx, readZipDirectory } from '../../lib/xlsx-guard.ts';
import {
  type Column,
  COLUMNS,
  EXAMPLE_ORDER_NO,
  headerText,
  ID_IMPORT_MAX_ROWS,
  matchHeader,
} from './id-cards.template.ts';

/**
 * Reading an ID-card import's upload: the template alone or a .zip bundle of it and its images,
 * every size and entry limited before anything is inflated or parsed.
 */

const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
const IMAGE_MIN_BYTES = 1024;
/** Images are already compressed, so a bundle that unpacks much larger than this is not a set of photos. */
const BUNDLE_MAX_UNPACKED = 200 * 1024 * 1024;
const BUNDLE_MAX_ENTRIES = 2 * ID_IMPORT_MAX_ROWS + 20;

/** Content sniffing: the declared type and the file name are not trusted. */
export function imageKind(buf: Buffer): 'jpg' | 'png' | null {
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'jpg';
  if (buf.length >= 8 && buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  return null;
}
/** Why an ID-card image is refused (message key and parameters), or null when it is fine. */
export function imageProblem(buf: Buffer): [string, Record<string, string | number>?] | null {
  if (buf.length > IMAGE_MAX_BYTES) return ['imageTooLarge', { mb: IMAGE_MAX_BYTES / 1024 / 1024 }];
  if (buf.length < IMAGE_MIN_BYTES) return ['imageTooSmall'];
  if (!imageKind(buf)) return ['fileTypeNotAllowed', { types: 'jpg, jpeg, png' }];
  return null;
}

/** Something wrong with the uploaded file as a whole (answered as a 422 on `file`). */
export class FileProblem extends Error {
  readonly key: string;
  readonly params: Record<string, string | number>;
  constructor(key: string, params: Record<string, string | number> = {}) {
    super(key);
    this.key = key;
    this.params = params;
  }
}

export const baseName = (name: string) => (name.split(/[\\/]/).pop() ?? '').trim().toLowerCase();

/**
 * The entries of a .zip bundle (the template and its images) by our own reading of the
 * central directory: each entry is inflated counted (lib/zip.ts), never past what it
 * declared nor past the limits, so a crafted bundle cannot expand, and no zip package is
 * needed beyond node:zlib.
 */
function unpack(buf: Buffer): Map<string, Buffer> {
  const entries = readZipDirectory(buf);
  if (!entries) throw new FileProblem('idCardZipCorrupt');
  if (entries.length > BUNDLE_MAX_ENTRIES) throw new FileProblem('idCardZipCorrupt');
  const out = new Map<string, Buffer>();
  let total = 0;
  for (const e of entries) {
    if (e.name.endsWith('/') || e.name.startsWith('__MACOSX/') || baseName(e.name).startsWith('.')) continue;
    // An image over the limit is reported on its row; reading one byte past the limit is enough to know.
    const cap = Math.min(IMAGE_MAX_BYTES + 1, BUNDLE_MAX_UNPACKED - total);
    let data: Buffer;
    try {
      // Counted as it inflates (lib/zip.ts): never more than the entry declared, nor than the cap.
      data = inflateEntry(buf, e, Math.max(0, Math.min(e.size, cap)));
    } catch (err) {
      // Declared within the cap but gave more: the directory lied.
      if (!(err instanceof ZipBombError) || e.size <= cap) throw new FileProblem('idCardZipCorrupt');
      data = Buffer.alloc(cap + 1);
    }
    total += data.length;
    if (total > BUNDLE_MAX_UNPACKED) throw new FileProblem('idCardZipCorrupt');
    const key = baseName(e.name);
    if (out.has(key)) throw new FileProblem('idCardZipDuplicate', { value: key });
    out.set(key, data);
  }
  return out;
}

export interface ParsedRow {
  row: number;
  values: Record<Column, string>;
}
/** The customer's sheet as uploaded, kept for the error workbook, and where each template column is in it. */
export interface Sheet {
  ws: Worksheet;
  at: Map<Column, number>;
}

async function readTemplate(data: Buffer): Promise<{ rows: ParsedRow[]; sheet: Sheet }> {
  const wb = new (await excel()).Workbook();
  try {
    await wb.xlsx.load(data as unknown as ArrayBuffer);
  } catch {
    throw new FileProblem('workbookUnreadable');
  }
  const ws = wb.worksheets[0];
  if (!ws) throw new FileProblem('idCardImportEmpty');
  const at = new Map<Column, number>();
  ws.getRow(1).eachCell((cell, col) => {
    const key = matchHeader(String(cell.text ?? ''));
    if (key && !at.has(key)) at.set(key, col);
  });
  const missing = COLUMNS.filter((c) => c.required && !at.has(c.key));
  if (missing.length) throw new FileProblem('idCardImportHeaders', { columns: missing.map(headerText).join(', ') });
  const rows: ParsedRow[] = [];
  ws.eachRow({ includeEmpty: false }, (r, n) => {
    if (n === 1) return;
    const values = Object.fromEntries(
      COLUMNS.map((c) => [c.key, at.has(c.key) ? String(r.getCell(at.get(c.key)!).text ?? '').trim() : '']),
    ) as Record<Column, string>;
    if (Object.values(values).every((v) => !v)) return;
    if (values.orderNo === EXAMPLE_ORDER_NO) return;
    rows.push({ row: n, values });
  });
  if (!rows.length) throw new FileProblem('idCardImportEmpty');
  if (rows.length > ID_IMPORT_MAX_ROWS) throw new FileProblem('idCardImportTooManyRows', { max: ID_IMPORT_MAX_ROWS });
  return { rows, sheet: { ws, at } };
}

/** The template, once its declared and real sizes are fit for ExcelJS's whole-file reader. */
async function wholeWorkbook(buf: Buffer): Promise<Buffer> {
  const guard = await guardWholeWorkbook(buf);
  if (!guard.ok) throw new FileProblem(guard.problem === 'zipBomb' ? 'workbookZipBomb' : 'workbookUnreadable');
  return buf;
}

/** What was uploaded: the template alone, or a .zip bundle of it and its images (told apart by content). */
export async function readUpload(
  buf: Buffer,
): Promise<{ rows: ParsedRow[]; sheet: Sheet; images: Map<string, Buffer> | null }> {
  if (buf.length < 4 || buf.readUInt32LE(0) !== 0x04034b50) throw new FileProblem('idCardImportNotTemplate');
  const asXlsx = guardXlsx(buf);
  if (asXlsx.ok) return { ...(await readTemplate(await wholeWorkbook(buf))), images: null };
  if (asXlsx.problem !== 'notXlsx') throw new FileProblem('idCardZipCorrupt');
  const entries = unpack(buf);
  const templates = [...entries.keys()].filter((n) => n.endsWith('.xlsx'));
  if (templates.length !== 1) throw new FileProblem('idCardZipTemplateCount', { count: templates.length });
  const template = entries.get(templates[0]!)!;
  const images = new Map([...entries].filter(([n]) => /\.(jpe?g|png)$/.test(n)));
  return { ...(await readTemplate(await wholeWorkbook(template))), images };
}

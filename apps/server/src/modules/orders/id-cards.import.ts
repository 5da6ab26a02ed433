import { type ApiLanguage, checkIdCard, ErrorCode, orders } from '@console/contract';
import ExcelJS from 'exceljs';
import type { Database } from '../../db/database.ts';
import { AppError } from '../../lib/errors.ts';
import { loadGeneratedFile, saveGeneratedFile, XLSX_MIME } from '../../lib/generated-files.ts';
import { translate } from '../../lib/messages.ts';
import { type Actor, customerFor, type Scope } from '../../lib/scope.ts';
import type { Files } from '../../lib/files.ts';
import { buildWorkbookBuffer } from '../../lib/workbook-job.ts';
import { type CellStyle, columnLetter, type WorkbookRow } from '../../lib/workbook-writer.ts';
import { inflateEntry, ZipBombError } from '../../lib/zip.ts';
import { guardWholeWorkbook, guardXlsx, readZipDirectory } from '../../lib/xlsx-guard.ts';
import { createIdCardsRepository } from './id-cards.repository.ts';
import { assertIdCardCaller } from './id-cards.rules.ts';
import './orders.messages.ts';

type Column = orders.IdCardImportColumn;
interface ColumnDef {
  key: Column;
  zh: string;
  en: string;
  required: boolean;
  help: [string, string];
  example: string;
  width: number;
}

/** One definition read by the template and the parser, so they cannot disagree. */
const COLUMNS: ColumnDef[] = [
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
const headerText = (c: ColumnDef) => `${c.required ? '*' : ''}${c.zh} / ${c.en}`;
const norm = (s: string) => s.replace(/^\*/, '').replace(/\s+/g, '').toLowerCase();
function matchHeader(raw: string): Column | undefined {
  const h = norm(raw);
  return COLUMNS.find((c) => [headerText(c), c.zh, c.en, c.key].some((x) => norm(x) === h))?.key;
}
/** A row carrying the example's order number is the example: skipped on import. */
const EXAMPLE_ORDER_NO = COLUMNS[0]!.example;

export const ID_IMPORT_MAX_ROWS = 2000;
const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
const IMAGE_MIN_BYTES = 1024;
/** Images are already compressed, so a bundle that unpacks much larger than this is not a set of photos. */
const BUNDLE_MAX_UNPACKED = 200 * 1024 * 1024;
const BUNDLE_MAX_ENTRIES = 2 * ID_IMPORT_MAX_ROWS + 20;
const OPERATOR_ROLES = new Set(['operator', 'admin-none']);
/** `files.kind` of a refused import's error workbook. */
const ID_IMPORT_ERRORS_KIND = 'idCardImportErrors';

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
class FileProblem extends Error {
  readonly key: string;
  readonly params: Record<string, string | number>;
  constructor(key: string, params: Record<string, string | number> = {}) {
    super(key);
    this.key = key;
    this.params = params;
  }
}

const baseName = (name: string) => (name.split(/[\\/]/).pop() ?? '').trim().toLowerCase();

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

interface ParsedRow {
  row: number;
  values: Record<Column, string>;
}
/** The customer's sheet as uploaded, kept for the error workbook, and where each template column is in it. */
interface Sheet {
  ws: ExcelJS.Worksheet;
  at: Map<Column, number>;
}

async function readTemplate(data: Buffer): Promise<{ rows: ParsedRow[]; sheet: Sheet }> {
  const wb = new ExcelJS.Workbook();
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
async function readUpload(
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

const ERROR_FILL = 'FFFFC7CE';

/**
 * The error workbook of a refused import, as the batch import makes one: the customer's
 * header and failed rows as uploaded (their own columns, widths and text formats; values
 * only, so no link or formula of the upload reaches whoever opens it), an error column
 * naming each problem by column letter, the bad cells filled red with the problem as a
 * note, and the row's number in the upload. Fixed rows can be uploaded from it again:
 * columns the template does not know are ignored. Written by the workbook worker.
 */
async function errorWorkbook(
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
  const copy = (from: ExcelJS.Row) => {
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
function errorFileName(upload: string): string {
  const base = (upload.split(/[\\/]/).pop() ?? '').replace(/\.[^.]*$/, '');
  // No control characters or characters file systems refuse.
  const stem = [...base]
    .filter((ch) => ch >= ' ' && !'"<>|:*?'.includes(ch))
    .join('')
    .trim()
    .slice(0, 100);
  return `${stem || 'id-cards'}-errors.xlsx`;
}

/** The ID-card bulk mapping: its template and its all-or-nothing import. */
export function createIdCardImport(db: Database, clock: () => Date, files: Files) {
  const repo = createIdCardsRepository(db);

  return {
    async template(lang: ApiLanguage) {
      const zh = lang !== 'en';
      const wb = new ExcelJS.Workbook();
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
    },

    /**
     * Every row is checked before anything is stored; the writes are one transaction.
     * Only the customer's own users and operators may add ID cards (agents may not see
     * them either), so an agent is refused outright.
     */
    async import(
      actor: Actor,
      scope: Scope,
      lang: ApiLanguage,
      requestedCustomer: number | undefined,
      file: { filename: string; data: Buffer } | undefined,
    ) {
      assertIdCardCaller(actor);
      if (!file) throw AppError.field('file', 'fileRequired');
      const customerId = customerFor(actor, scope, requestedCustomer);
      const t = (key: string, params?: Record<string, string | number>) => translate(lang, key, params);

      let rows: ParsedRow[];
      let sheet: Sheet;
      let images: Map<string, Buffer> | null;
      try {
        ({ rows, sheet, images } = await readUpload(file.data));
      } catch (e) {
        if (e instanceof FileProblem) throw AppError.validation({ file: [t(e.key, e.params)] });
        throw e;
      }

      // Check every row; collect all errors, write nothing if there is one.
      const errors: Record<string, string[]> = {};
      const byRow = new Map<number, { column: Column; text: string }[]>();
      const err = (row: number, column: Column, key: string, params?: Record<string, string | number>) => {
        const text = t(key, params);
        (errors[`rows.${row}.${column}`] ??= []).push(text);
        byRow.set(row, [...(byRow.get(row) ?? []), { column, text }]);
      };
      const orderNos = [...new Set(rows.map((r) => r.values.orderNo).filter(Boolean))];
      const waybillNos = [...new Set(rows.map((r) => r.values.waybillNo.toUpperCase()).filter(Boolean))];
      const found = await repo.ordersByNumbers(scope, customerId, orderNos, waybillNos);
      const byOrderNo = new Map(found.map((o) => [o.order_no, o]));
      const byWaybill = new Map(found.filter((o) => o.waybill_no).map((o) => [o.waybill_no!, o]));
      const usedImages = new Set<string>();
      const seen = new Map<string, number>();
      const now = clock();
      const plan: {
        orderId: number | null;
        name: string;
        idCard: string;
        front: string | null;
        back: string | null;
      }[] = [];
      for (const { row, values: v } of rows) {
        const before = Object.keys(errors).length;
        if (!v.name) err(row, 'name', 'idCardRowRequired');
        const idCard = v.idCard.toUpperCase();
        if (!idCard) err(row, 'idCard', 'idCardRowRequired');
        else {
          const c = checkIdCard(idCard, now);
          if (!c.ok) err(row, 'idCard', `idCard_${c.problem}`);
        }
        let order: (typeof found)[number] | undefined;
        if (v.orderNo) {
          order = byOrderNo.get(v.orderNo);
          if (!order) err(row, 'orderNo', 'idCardOrderUnknown', { value: v.orderNo });
        }
        if (v.waybillNo) {
          const w = byWaybill.get(v.waybillNo.toUpperCase());
          if (!w) err(row, 'waybillNo', 'idCardWaybillUnknown', { value: v.waybillNo });
          else if (order && order.id !== w.id) err(row, 'waybillNo', 'idCardWaybillOtherOrder', { value: v.waybillNo });
          else order = w;
        }
        if (order && idCard && order.recipient_id_card.toUpperCase() !== idCard)
          err(row, 'idCard', 'idCardNotOrderRecipient', { orderNo: order.order_no });
        if (order && v.name && order.recipient_name.trim() !== v.name)
          err(row, 'name', 'idCardNotOrderRecipient', { orderNo: order.order_no });
        for (const side of ['front', 'back'] as const) {
          const name = v[side];
          if (!name) continue;
          if (!images) {
            err(row, side, 'idCardImageNeedsZip', { value: name });
            continue;
          }
          const img = images.get(baseName(name));
          if (!img) {
            err(row, side, 'idCardImageNotInZip', { value: name });
            continue;
          }
          usedImages.add(baseName(name));
          const problem = imageProblem(img);
          if (problem) err(row, side, problem[0], problem[1]);
        }
        // A duplicate is only meaningful once the row's order is known.
        const unresolved = (v.orderNo || v.waybillNo) && !order;
        const key = `${idCard}\u0000${order?.id ?? ''}`;
        const first = unresolved ? undefined : seen.get(key);
        if (first !== undefined) err(row, 'idCard', 'idCardDuplicateRow', { row: first });
        else if (!unresolved) seen.set(key, row);
        if (Object.keys(errors).length === before)
          plan.push({
            orderId: order?.id ?? null,
            name: v.name,
            idCard,
            front: v.front ? baseName(v.front) : null,
            back: v.back ? baseName(v.back) : null,
          });
      }
      const unused = images ? [...images.keys()].filter((n) => !usedImages.has(n)) : [];
      if (unused.length) (errors.file ??= []).push(t('idCardImagesUnused', { names: unused.slice(0, 10).join(', ') }));
      if (Object.keys(errors).length) {
        // The refusal stays a 422 listing every problem; when rows failed it also names a
        // workbook of them, which only the uploader (and operators) can download.
        if (byRow.size) {
          const id = await saveGeneratedFile(db, files, {
            kind: ID_IMPORT_ERRORS_KIND,
            name: errorFileName(file.filename),
            mime: XLSX_MIME,
            customerId,
            ownerUserId: actor.userId,
            data: await errorWorkbook(db, sheet, byRow, t),
            at: now.toISOString(),
          });
          errors[orders.ID_CARD_IMPORT_ERRORS_KEY] = [String(id)];
        }
        throw AppError.validation(errors);
      }

      // Store each distinct image once, then write every mapping in one transaction.
      const stored = new Map<string, { key: string; size: number; sha256: string; kind: 'jpg' | 'png' }>();
      for (const name of usedImages) {
        const data = images!.get(name)!;
        const kind = imageKind(data)!;
        stored.set(name, { ...(await files.write(data, `idcard.${kind}`)), kind });
      }
      const at = now.toISOString();
      let created = 0;
      let updated = 0;
      await db.transaction().execute(async (trx) => {
        const fileIds = new Map<string, number>();
        for (const [name, s] of stored) {
          fileIds.set(
            name,
            await files.record(
              s,
              {
                customer_id: customerId,
                owner_user_id: actor.userId,
                kind: 'idCard',
                name: name.slice(0, 200),
                mime: s.kind === 'png' ? 'image/png' : 'image/jpeg',
                created_at: at,
              },
              trx,
            ),
          );
        }
        const existing = await repo.existing(trx, customerId, [...new Set(plan.map((p) => p.idCard))]);
        const idOf = new Map(existing.map((e) => [`${e.id_card}\u0000${e.order_id ?? ''}`, e.id]));
        for (const p of plan) {
          const images = {
            ...(p.front ? { front_file_id: fileIds.get(p.front)! } : {}),
            ...(p.back ? { back_file_id: fileIds.get(p.back)! } : {}),
          };
          const id = idOf.get(`${p.idCard}\u0000${p.orderId ?? ''}`);
          if (id !== undefined) {
            await repo.update(trx, id, { name: p.name, ...images, updated_at: at });
            updated++;
          } else {
            await repo.insert(trx, {
              customer_id: customerId,
              order_id: p.orderId,
              name: p.name,
              id_card: p.idCard,
              ...images,
              created_by: actor.userId,
              created_at: at,
              updated_at: at,
            });
            created++;
          }
        }
      });
      return { rows: plan.length, created, updated, images: stored.size };
    },

    /** A refused import's error workbook: the uploader's own, or any for operators; else 404. */
    async errorFile(actor: Actor, fileId: number) {
      assertIdCardCaller(actor);
      const f = await loadGeneratedFile(db, files, {
        id: fileId,
        kind: ID_IMPORT_ERRORS_KIND,
        userId: actor.userId,
        anyOwner: OPERATOR_ROLES.has(actor.role),
      });
      if (!f) throw new AppError(ErrorCode.NOT_FOUND, 'notFound');
      return { filename: f.name, mime: f.mime, body: f.body };
    },
  };
}

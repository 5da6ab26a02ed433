import { AppError } from '../../lib/errors.ts';
import { assertRealSizes, readZipDirectory, ZipBombError, type ZipEntry } from '../../lib/zip.ts';

/**
 * Checks an uploaded file is an xlsx by its content before any parser sees it:
 * a ZIP with the OOXML workbook parts, not a password-protected (CFB-wrapped)
 * workbook or an old .xls, and no zip bomb (total and per-entry expansion) by the sizes it
 * declares. Those are the uploader's word: every reader then inflates counted (lib/zip.ts),
 * so an entry that gives more than it declared is refused as a bomb too.
 */
export { readZipDirectory, type ZipEntry };
export type GuardProblem = 'notXlsx' | 'encryptedOrXls' | 'zipBomb' | 'corruptFile';

export const MAX_UNCOMPRESSED_BYTES = 800 * 1024 * 1024;
const MAX_RATIO = 150;

export function guardXlsx(
  buf: Buffer,
  maxTotal = MAX_UNCOMPRESSED_BYTES,
): { ok: true; entries: ZipEntry[] } | { ok: false; problem: GuardProblem } {
  if (buf.length >= 8 && buf.readUInt32BE(0) === 0xd0cf11e0) return { ok: false, problem: 'encryptedOrXls' };
  if (buf.length < 22 || buf.readUInt32LE(0) !== 0x04034b50) return { ok: false, problem: 'notXlsx' };
  const entries = readZipDirectory(buf);
  if (!entries) return { ok: false, problem: 'corruptFile' };
  const names = new Set(entries.map((e) => e.name));
  if (!names.has('[Content_Types].xml') || !names.has('xl/workbook.xml')) return { ok: false, problem: 'notXlsx' };
  let total = 0;
  for (const e of entries) {
    // 0xFFFFFFFF means ZIP64 sizes: no legitimate order sheet needs them.
    if (e.size === 0xffffffff || e.compressedSize === 0xffffffff) return { ok: false, problem: 'zipBomb' };
    total += e.size;
    if (e.size > 1024 * 1024 && e.size / Math.max(1, e.compressedSize) > MAX_RATIO)
      return { ok: false, problem: 'zipBomb' };
  }
  if (total > maxTotal) return { ok: false, problem: 'zipBomb' };
  return { ok: true, entries };
}

/**
 * Readers that hold a whole workbook in memory (ExcelJS for the batch search list and the
 * ID-card template) take far less than an order sheet: their rows are capped in thousands.
 */
export const WHOLE_WORKBOOK_MAX_BYTES = 32 * 1024 * 1024;

/**
 * `guardXlsx` for ExcelJS's reader, which inflates every entry whole and trusts the sizes
 * it is told: the declared total under `maxTotal`, then every entry inflated once, counted,
 * so none gives more than it declared.
 */
export async function guardWholeWorkbook(
  buf: Buffer,
  maxTotal = WHOLE_WORKBOOK_MAX_BYTES,
): Promise<{ ok: true } | { ok: false; problem: GuardProblem }> {
  const guard = guardXlsx(buf, maxTotal);
  if (!guard.ok) return guard;
  try {
    await assertRealSizes(buf, guard.entries);
  } catch (e) {
    return { ok: false, problem: e instanceof ZipBombError ? 'zipBomb' : 'corruptFile' };
  }
  return { ok: true };
}

const PROBLEM_MESSAGE: Record<GuardProblem, string> = {
  notXlsx: 'fileNotXlsx',
  encryptedOrXls: 'fileEncryptedOrXls',
  zipBomb: 'fileZipBomb',
  corruptFile: 'fileCorrupt',
};

/**
 * An uploaded workbook checked before anything reads it, the same way for every import (orders,
 * items, order reviews): present, named .xlsx, under the upload limit, an xlsx by its content,
 * no bomb by the sizes it declares, then none by the bytes it really inflates to. Otherwise a
 * 422 on `file` in the user's language.
 */
export async function checkXlsxUpload(
  upload: { filename: string; data: Buffer } | undefined,
  limitBytes: number,
): Promise<{ filename: string; data: Buffer; entries: ZipEntry[] }> {
  if (!upload) throw AppError.field('file', 'fileRequired');
  if (!/\.xlsx$/i.test(upload.filename)) throw AppError.field('file', 'fileNotXlsx');
  if (upload.data.length > limitBytes) throw AppError.fileTooLarge(limitBytes);
  const guard = guardXlsx(upload.data);
  if (!guard.ok) throw AppError.field('file', PROBLEM_MESSAGE[guard.problem]);
  await assertRealSizes(upload.data, guard.entries).catch((e: unknown) => {
    throw AppError.field('file', e instanceof ZipBombError ? 'fileZipBomb' : 'fileCorrupt');
  });
  return { ...upload, entries: guard.entries };
}

import { assertRealSizes, readZipDirectory, ZipBombError, type ZipEntry } from './zip.ts';

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

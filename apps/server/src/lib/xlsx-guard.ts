import { AppError } from './errors.ts';
import { type GuardProblem, guardXlsx, type ZipEntry } from './xlsx-container.ts';
import { assertRealSizes, ZipBombError } from './zip.ts';

/**
 * The container checks live in lib/xlsx-container.ts, free of the contract, so the sheet worker
 * starts without loading it (most of a small sheet's read); uploads' HTTP answers are here.
 */
export {
  guardWholeWorkbook,
  guardXlsx,
  type GuardProblem,
  MAX_UNCOMPRESSED_BYTES,
  readZipDirectory,
  WHOLE_WORKBOOK_MAX_BYTES,
  type ZipEntry,
} from './xlsx-container.ts';

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

import type { ZipEntry } from '../../lib/xlsx-rows.ts';

/**
 * Checks an uploaded file is an xlsx by its content before any parser sees it:
 * a ZIP with the OOXML workbook parts, not a password-protected (CFB-wrapped)
 * workbook or an old .xls, and no zip bomb (total and per-entry expansion).
 */
export type { ZipEntry };
export type GuardProblem = 'notXlsx' | 'encryptedOrXls' | 'zipBomb' | 'corruptFile';

export const MAX_UNCOMPRESSED_BYTES = 800 * 1024 * 1024;
const MAX_RATIO = 150;

export function readZipDirectory(buf: Buffer): ZipEntry[] | null {
  // End of central directory: the last 22 bytes plus up to 64 KiB of comment.
  const min = Math.max(0, buf.length - 22 - 0xffff);
  let eocd = -1;
  for (let i = buf.length - 22; i >= min; i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return null;
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== 0x02014b50) return null;
    const method = buf.readUInt16LE(p + 10);
    const compressedSize = buf.readUInt32LE(p + 20);
    const size = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const localHeaderOffset = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    entries.push({ name, method, compressedSize, size, localHeaderOffset });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

export function guardXlsx(buf: Buffer): { ok: true; entries: ZipEntry[] } | { ok: false; problem: GuardProblem } {
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
  if (total > MAX_UNCOMPRESSED_BYTES) return { ok: false, problem: 'zipBomb' };
  return { ok: true, entries };
}

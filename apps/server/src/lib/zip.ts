import { createInflateRaw, inflateRawSync } from 'node:zlib';

/**
 * Reading entries of an uploaded ZIP (xlsx workbooks, ID-card bundles) without trusting it.
 *
 * The sizes in a ZIP's central directory are written by the uploader: a 1 MB file can
 * declare a few KB per entry and still inflate to gigabytes. So every entry is inflated
 * with the bytes that come out of the inflater counted, and reading stops with a
 * `ZipBombError` the moment an entry gives more than it declared (the declared sizes are
 * what `guardXlsx` weighed against its limits). Memory stays bounded by the declared
 * size (`inflateEntry`) or by one chunk (`inflateEntryChunks`, `assertRealSizes`).
 */
export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

/** An entry inflates to more than it declared: a zip bomb. */
export class ZipBombError extends Error {}
/** The container or an entry cannot be read (bad header, unknown method, damaged deflate data). */
export class ZipReadError extends Error {}

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

/** The entry's stored (compressed) bytes. */
export function entryData(buf: Buffer, e: ZipEntry): Buffer {
  const p = e.localHeaderOffset;
  if (p + 30 > buf.length || buf.readUInt32LE(p) !== 0x04034b50) throw new ZipReadError(`bad local header: ${e.name}`);
  const start = p + 30 + buf.readUInt16LE(p + 26) + buf.readUInt16LE(p + 28);
  if (start + e.compressedSize > buf.length) throw new ZipReadError(`truncated entry: ${e.name}`);
  if (e.method !== 0 && e.method !== 8) throw new ZipReadError(`unsupported compression ${e.method}: ${e.name}`);
  return buf.subarray(start, start + e.compressedSize);
}

/** The whole entry, inflating at most `limit` bytes (default: its declared size). */
export function inflateEntry(buf: Buffer, e: ZipEntry, limit = e.size): Buffer {
  const data = entryData(buf, e);
  if (e.method === 0) {
    if (data.length > limit) throw new ZipBombError(`${e.name} holds more than it declared`);
    return data;
  }
  let out: Buffer;
  try {
    // One byte over the limit is enough to know it lied; the inflater stops there.
    out = inflateRawSync(data, { maxOutputLength: limit + 1 });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      throw new ZipBombError(`${e.name} inflates past ${limit} bytes`);
    throw new ZipReadError(`${e.name}: ${(err as Error).message}`);
  }
  if (out.length > limit) throw new ZipBombError(`${e.name} inflates past ${limit} bytes`);
  return out;
}

/**
 * The entry inflated chunk by chunk, counted as they come out: past `limit` (default: its
 * declared size) the inflater is destroyed and `ZipBombError` thrown.
 */
export async function* inflateEntryChunks(
  buf: Buffer,
  e: ZipEntry,
  opts: { limit?: number; chunkSize?: number; onRead?: (read: number, total: number) => void } = {},
): AsyncGenerator<Buffer> {
  const limit = opts.limit ?? e.size;
  const chunkSize = opts.chunkSize ?? 1 << 20;
  const data = entryData(buf, e);
  if (e.method === 0) {
    if (data.length > limit) throw new ZipBombError(`${e.name} holds more than it declared`);
    for (let i = 0; i < data.length; i += chunkSize) {
      yield data.subarray(i, i + chunkSize);
      opts.onRead?.(Math.min(data.length, i + chunkSize), data.length);
    }
    return;
  }
  const inflate = createInflateRaw({ chunkSize });
  let read = 0;
  const step = 256 * 1024;
  const pipe = async () => {
    for (let i = 0; i < data.length && !inflate.destroyed; i += step) {
      read = Math.min(data.length, i + step);
      if (!inflate.write(data.subarray(i, i + step)))
        await new Promise<void>((r) => {
          // Drained, or destroyed by a reader that stopped: either way this write is over.
          const done = () => {
            inflate.off('drain', done);
            inflate.off('close', done);
            r();
          };
          inflate.on('drain', done);
          inflate.on('close', done);
        });
    }
    inflate.end();
  };
  const writing = pipe().catch((err: unknown) => inflate.destroy(err as Error));
  let out = 0;
  try {
    for await (const chunk of inflate) {
      out += (chunk as Buffer).length;
      if (out > limit) throw new ZipBombError(`${e.name} inflates past ${limit} bytes`);
      yield chunk as Buffer;
      opts.onRead?.(read, data.length);
    }
  } catch (err) {
    if (err instanceof ZipBombError) throw err;
    throw new ZipReadError(`${e.name}: ${(err as Error).message}`);
  } finally {
    inflate.destroy();
    await writing;
  }
}

/**
 * Inflates every entry once, keeping nothing, to check that none gives more than it
 * declared: for readers that cannot count for themselves (ExcelJS/JSZip inflate whole
 * entries). Throws `ZipBombError` or `ZipReadError`. The inflating runs on libuv's pool.
 */
export async function assertRealSizes(buf: Buffer, entries: ZipEntry[]): Promise<void> {
  for (const e of entries) {
    // Stored entries and directories take no inflating; their bytes are the upload's.
    if (e.method === 0 && e.compressedSize <= e.size) continue;
    // 1 MiB pieces (the inflater's default): 64 KiB ones took a 100,000-row sheet 1.5 times as long.
    for await (const _ of inflateEntryChunks(buf, e)) {
      /* counted by inflateEntryChunks */
    }
  }
}

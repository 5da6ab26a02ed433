import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * File storage behind one interface (ARCHITECTURE.md "Files"), chosen by FILE_STORE: a local folder
 * (the embedded default), the database (`storage-database.ts`, the default on PostgreSQL, so
 * several instances share their files with no extra setting), or an S3-compatible bucket
 * (`storage-s3.ts`).
 */
export interface Storage {
  /** `sha256`: the data's hash when the caller has it already (made off the event loop). */
  put(data: Buffer, hint: string, sha256?: string): Promise<{ key: string; size: number; sha256: string }>;
  /** The bytes; rejects with `StoredFileMissing` when the key holds nothing. */
  get(key: string): Promise<Buffer>;
  /**
   * The bytes as a stream, for downloads: a large file never sits whole in memory. Rejects with
   * `StoredFileMissing` before any byte is sent, so the caller can still answer a 404.
   */
  stream(key: string): Promise<{ body: Readable; size: number }>;
  /** Removes the bytes; a key that holds nothing is not an error. */
  remove(key: string): Promise<void>;
  /** Whether the store answers (readiness): writes, reads back and removes a small object. */
  check(): Promise<void>;
  /**
   * The keys of the objects written before `before`, in pages: what the orphan sweep looks at
   * (files.ts), whichever instance wrote them.
   */
  listOlderThan(before: Date): AsyncIterable<string[]>;
}

/** Keys per page of `listOlderThan`. */
export const LIST_PAGE = 500;

/**
 * A stored file that is not there: removed, or never written to this store. Callers answer the
 * user with a message of their own; the key and the cause are for the log only.
 */
export class StoredFileMissing extends Error {
  constructor(key: string, options?: ErrorOptions) {
    super(`stored file missing: ${key}`, options);
    this.name = 'StoredFileMissing';
  }
}

/** A new key: the day it was written (for people browsing a bucket or folder), a uuid, the hint's extension. */
export function newStorageKey(hint: string, now = new Date()): string {
  const ext = path
    .extname(hint)
    .replace(/[^.a-zA-Z0-9]/g, '')
    .slice(0, 10);
  return `${now.toISOString().slice(0, 10)}/${randomUUID()}${ext}`;
}

export const sha256Of = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** Writes a probe, reads it back and removes it: what readiness asks of every store. */
export async function probeStorage(store: Pick<Storage, 'put' | 'get' | 'remove'>): Promise<void> {
  const probe = Buffer.from(`ready ${randomUUID()}`);
  const { key } = await store.put(probe, 'probe.txt');
  try {
    if (!(await store.get(key)).equals(probe)) throw new Error('the store gave back other bytes');
  } finally {
    await store.remove(key);
  }
}

export function localStorage(root: string): Storage {
  const resolve = (key: string) => {
    const p = path.resolve(root, key);
    if (!p.startsWith(path.resolve(root) + path.sep)) throw new Error('storage key escapes the root');
    return p;
  };
  const store: Storage = {
    async put(data, hint, sha256) {
      const key = newStorageKey(hint);
      await fs.mkdir(path.dirname(resolve(key)), { recursive: true });
      try {
        await fs.writeFile(resolve(key), data);
      } catch (e) {
        // A full disk leaves part of the file written: nothing may point at it, so it goes.
        await fs.rm(resolve(key), { force: true }).catch(() => {});
        throw e;
      }
      return { key, size: data.length, sha256: sha256 ?? sha256Of(data) };
    },
    async get(key) {
      try {
        return await fs.readFile(resolve(key));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new StoredFileMissing(key, { cause: e });
        throw e;
      }
    },
    async stream(key) {
      // Opened before answering, so a missing file is a 404 and a file removed while it is
      // read still gives its bytes (the open handle keeps them).
      let handle: fs.FileHandle;
      try {
        handle = await fs.open(resolve(key), 'r');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new StoredFileMissing(key, { cause: e });
        throw e;
      }
      const { size } = await handle.stat();
      return { body: handle.createReadStream(), size };
    },
    async remove(key) {
      await fs.rm(resolve(key), { force: true });
    },
    check: () => probeStorage(store),
    async *listOlderThan(before) {
      let page: string[] = [];
      let entries: import('node:fs').Dirent[];
      try {
        entries = await fs.readdir(root, { recursive: true, withFileTypes: true });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw e;
      }
      for (const e of entries) {
        if (!e.isFile()) continue;
        const full = path.join(e.parentPath, e.name);
        const stat = await fs.stat(full).catch(() => null);
        if (!stat || stat.mtime >= before) continue;
        page.push(path.relative(root, full).split(path.sep).join('/'));
        if (page.length >= LIST_PAGE) {
          yield page;
          page = [];
        }
      }
      if (page.length) yield page;
    },
  };
  return store;
}

/**
 * The disk behind the files or the database is full: ENOSPC/EDQUOT from the file system,
 * SQLITE_FULL (13) from SQLite, disk_full (53100) from PostgreSQL. Answered as a 507
 * (`AppError.storageFull`) instead of a 500, with this error kept as the logged cause. An error that
 * crossed a thread or a job (a workbook worker's, a render's) keeps only its text: the same codes
 * named in it count too.
 */
export function isStorageFull(e: unknown): boolean {
  if (!e || typeof e !== 'object') return false;
  const x = e as { code?: unknown; errcode?: unknown; errstr?: unknown; message?: unknown; cause?: unknown };
  if (x.code === 'ENOSPC' || x.code === 'EDQUOT' || x.code === '53100') return true;
  // node:sqlite: code ERR_SQLITE_ERROR, errcode the primary result code (extended codes keep it in the low byte).
  if (typeof x.errcode === 'number' && (x.errcode & 0xff) === 13) return true;
  if (typeof x.message === 'string' && /\b(ENOSPC|EDQUOT)\b|database or disk is full/.test(x.message)) return true;
  return x.cause !== undefined && x.cause !== e && isStorageFull(x.cause);
}

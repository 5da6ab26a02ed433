import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * File storage behind one interface (DESIGN "Files"): a local folder by default;
 * an S3-compatible bucket implements the same three calls for several instances.
 */
export interface Storage {
  /** `sha256`: the data's hash when the caller has it already (made off the event loop). */
  put(data: Buffer, hint: string, sha256?: string): Promise<{ key: string; size: number; sha256: string }>;
  get(key: string): Promise<Buffer>;
  remove(key: string): Promise<void>;
}

export function localStorage(root: string): Storage {
  const resolve = (key: string) => {
    const p = path.resolve(root, key);
    if (!p.startsWith(path.resolve(root) + path.sep)) throw new Error('storage key escapes the root');
    return p;
  };
  return {
    async put(data, hint, sha256) {
      const ext = path
        .extname(hint)
        .replace(/[^.a-zA-Z0-9]/g, '')
        .slice(0, 10);
      const day = new Date().toISOString().slice(0, 10);
      const key = `${day}/${randomUUID()}${ext}`;
      await fs.mkdir(path.dirname(resolve(key)), { recursive: true });
      try {
        await fs.writeFile(resolve(key), data);
      } catch (e) {
        // A full disk leaves part of the file written: nothing may point at it, so it goes.
        await fs.rm(resolve(key), { force: true }).catch(() => {});
        throw e;
      }
      return { key, size: data.length, sha256: sha256 ?? createHash('sha256').update(data).digest('hex') };
    },
    async get(key) {
      try {
        return await fs.readFile(resolve(key));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new StoredFileMissing(key, { cause: e });
        throw e;
      }
    },
    async remove(key) {
      await fs.rm(resolve(key), { force: true });
    },
  };
}

/**
 * A stored file that is not there: removed, or (several instances, each with its own DATA_DIR)
 * stored by another instance. Callers answer the user with a message of their own; the key and the
 * cause are for the log only.
 */
export class StoredFileMissing extends Error {
  constructor(key: string, options?: ErrorOptions) {
    super(`stored file missing: ${key}`, options);
  }
}

/**
 * The disk behind the files or the database is full: ENOSPC/EDQUOT from the file system,
 * SQLITE_FULL (13) from SQLite, disk_full (53100) from PostgreSQL. Answered as a 507
 * (`AppError.storageFull`) instead of a 500, with this error kept as the logged cause.
 */
export function isStorageFull(e: unknown): boolean {
  if (!e || typeof e !== 'object') return false;
  const x = e as { code?: unknown; errcode?: unknown; errstr?: unknown; message?: unknown; cause?: unknown };
  if (x.code === 'ENOSPC' || x.code === 'EDQUOT' || x.code === '53100') return true;
  // node:sqlite: code ERR_SQLITE_ERROR, errcode the primary result code (extended codes keep it in the low byte).
  if (typeof x.errcode === 'number' && (x.errcode & 0xff) === 13) return true;
  return x.cause !== undefined && x.cause !== e && isStorageFull(x.cause);
}

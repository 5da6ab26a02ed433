import { PassThrough, type Readable } from 'node:stream';
import { ErrorCode } from '@console/contract/envelope';
import type { Database } from '../db/database.ts';
import { AppError } from './errors.ts';
import {
  deleteOwnedFileRows,
  filesDueForExpiry,
  insertFileRow,
  markFileExpired,
  type NewFileRow,
  referencedStorageKeys,
  rekindFileRow,
  storedBytesByCustomer,
} from './files.repository.ts';
import { assertRoom, insertWithinQuota, underQuota } from './files.quota.ts';
import { expireKeptUpload, KEPT_UPLOADS, keptUploadsDue } from './files.retention.ts';
import { isStorageFull, type Storage, StoredFileMissing } from './storage.ts';

/**
 * The files module (issue 27): the one owner of the `files` rows and of the bytes in the store
 * (lib/storage*.ts: a folder, the database or S3). Services are given a `Files`, never the store,
 * so no code outside this module writes, reads or removes bytes or `files` rows
 * (test/files/structure.test.ts keeps it so). It lives in lib/ rather than modules/ because
 * lib/generated-files.ts and the jobs in lib/ use it, and lib/ never imports modules/.
 *
 * Three kinds of bytes go through it:
 * - files with a row (uploads, images, permits, generated workbooks and PDFs): `save`, or
 *   `write` then `record` in the transaction that names the row; downloaded with `open`;
 * - work bytes no user downloads (a parsed batch awaiting its confirm, an import's valid rows):
 *   `write`, `read`, `discard` by key, the key kept by the record that needs them;
 * - retention: `sweep` removes the bytes of temporary files wherever the store keeps them.
 *
 * A store that fails is answered for, whichever store it is (issue 36, item 7): every write and
 * read of bytes rejects with `storeFailure`'s classes, never the store's own error, so each call
 * that reaches the store answers 503 `fileStoreUnavailable` or 507 `storageFull` instead of 500.
 */
export interface Files {
  /**
   * Writes bytes, not yet recorded: the caller records them with `record` in its transaction, or
   * keeps the key of work bytes. A write that fails leaves nothing (the stores remove a partial
   * write), and no row can name it.
   */
  write(data: Buffer, hint: string, sha256?: string): Promise<StoredBytes>;
  /**
   * Records bytes written by `write` as a `files` row, in the caller's transaction when given; its
   * id. A customer's upload that does not fit in its quota is refused (507 `storageQuotaExceeded`,
   * files.quota.ts): the caller's transaction fails and the caller discards the bytes.
   */
  record(stored: StoredBytes, row: FileMeta, db?: Database): Promise<number>;
  /**
   * Runs `work`, the transaction that records bytes written by `write`; should it fail, the bytes
   * go (no row names them) and its error is thrown on.
   */
  recording<T>(stored: StoredBytes, work: () => Promise<T>): Promise<T>;
  /**
   * Writes the bytes and records the row; when the row cannot be inserted, the bytes go. `hint`
   * names the key's extension when the row's name (a user's file name) should not.
   */
  save(file: FileMeta & { data: Buffer; sha256?: string; hint?: string }, db?: Database): Promise<number>;
  /** Work bytes back, whole (small, the server's own). Rejects with StoredFileMissing. */
  read(key: string): Promise<Buffer>;
  /**
   * A file's bytes for a download, streamed from the store. Rejects with StoredFileMissing before
   * any byte is sent. The caller has checked the row is the caller's to read (tenant scope).
   */
  open(key: string): Promise<{ body: Readable; size: number }>;
  /** Removes bytes no row names (a transaction that failed after the write, finished work bytes). */
  discard(key: string): Promise<void>;
  /**
   * Takes a stored preview for applying it, inside the apply's transaction: its row is re-kinded
   * `<kind>Applied` by a guarded UPDATE, so of two applies sent together only one gets it
   * (PostgreSQL: the second waits on the row, then finds it no longer a preview). The row stays,
   * so SQLite cannot give its id to the next preview (it reuses the highest rowid once deleted)
   * and an old apply sent again cannot apply a newer preview. Its storage key, or undefined.
   */
  claim(opts: { id: number; kind: string; ownerUserId: number }, db?: Database): Promise<string | undefined>;
  /**
   * Removes the owner's rows of these kinds but one, and their bytes (superseded previews; after
   * the new one is stored, so its id is the highest and no removed id comes back).
   */
  removeOwned(opts: { kinds: readonly string[]; ownerUserId: number; keepId: number }): Promise<number>;
  /** The bytes each of these customers keeps in the store (its files not expired): the admin's figure. */
  storedBytes(customerIds: readonly number[], db?: Database): Promise<Map<number, number>>;
  /** CUSTOMER_FILE_QUOTA_BYTES: what each customer may keep; 0, no quota. */
  readonly quotaBytes: number;
  /**
   * Retention: expires temporary files older than `days` and uploads no longer needed by the
   * rules of files.retention.ts, and removes their bytes; how many. Then removes orphans: objects in the store older than ORPHAN_GRACE_HOURS that no record names
   * (bytes whose recording failed on a path that did not discard them, or a process killed between).
   */
  sweep(now: Date, days: number): Promise<number>;
  /** Readiness: the store writes, reads back and removes a probe. */
  check(): Promise<void>;
}

export type StoredBytes = { key: string; size: number; sha256: string };
export type FileMeta = Omit<NewFileRow, 'size' | 'sha256' | 'storage_key' | 'id'>;

/**
 * Kinds that are temporary even when written without `temporary` (the import modules record
 * their refused-upload workbooks as plain files): removed after the retention like generated files.
 */
export const TEMPORARY_KINDS = ['batchErrors', 'itemImportErrors'] as const;

/**
 * How old an object no record names must be before the sweep removes it: bytes are written just
 * before the transaction that records them (milliseconds to a few seconds), so a day is far
 * past any write still on its way to its record.
 */
export const ORPHAN_GRACE_HOURS = 24;

/**
 * A store's failure as the answer its caller gets: a key that holds nothing stays
 * `StoredFileMissing` (each caller says what is gone, in its words); a full disk (the folder's,
 * the database's) is the 507 `storageFull`; anything else the store threw — S3 unreachable or
 * refusing, the folder unwritable, the database store's table out of reach — is the 503
 * `fileStoreUnavailable`, the state `/api/ready` reports as `fileStoreUnwritable`. The store's own
 * error stays the logged cause; its text (a path, an endpoint) never reaches the user.
 */
export function storeFailure(e: unknown): Error {
  if (e instanceof StoredFileMissing || e instanceof AppError) return e;
  if (isStorageFull(e)) return AppError.storageFull(e);
  return new AppError(ErrorCode.SERVICE_UNAVAILABLE, 'fileStoreUnavailable', null, undefined, undefined, e);
}

/**
 * The store failure a job wrote down as its error's text, as its answer: a render runs on another
 * instance or thread, and only its error's message comes back (`render failed: workbook job
 * failed: ENOSPC: …`, or the key of a `storeFailure`). Null when the text names none.
 */
export function storeFailureNamed(text: string | null | undefined): AppError | null {
  if (!text) return null;
  const cause = new Error(text);
  if (/\bfileStoreUnavailable\b/.test(text))
    return new AppError(ErrorCode.SERVICE_UNAVAILABLE, 'fileStoreUnavailable', null, undefined, undefined, cause);
  if (/\bstorageFull\b/.test(text) || isStorageFull(cause)) return AppError.storageFull(cause);
  return null;
}

/** Runs a store call; its failure rejects as `storeFailure`. */
async function guarded<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    throw storeFailure(e);
  }
}

/** `quotaBytes`: CUSTOMER_FILE_QUOTA_BYTES (none when absent or 0). */
export function createFiles(db: Database, store: Storage, opts: { quotaBytes?: number } = {}): Files {
  const quotaBytes = opts.quotaBytes ?? 0;
  const discard = (key: string) => store.remove(key).catch(() => {});
  const put: Storage['put'] = (data, hint, sha256) => guarded(() => store.put(data, hint, sha256));
  const files: Files = {
    write: put,
    record(stored, row, on = db) {
      const full = { ...row, size: stored.size, sha256: stored.sha256, storage_key: stored.key };
      return underQuota(full, quotaBytes) ? insertWithinQuota(on, full, quotaBytes) : insertFileRow(on, full);
    },
    async save({ data, sha256, hint, ...row }, on = db) {
      // Refused before a byte is written when it cannot fit; `record` decides, under the lock.
      if (underQuota(row, quotaBytes)) await assertRoom(on, row.customer_id!, data.length, quotaBytes);
      const stored = await put(data, hint ?? row.name, sha256);
      try {
        return await files.record(stored, row, on);
      } catch (e) {
        await discard(stored.key);
        throw e;
      }
    },
    async recording(stored, work) {
      try {
        return await work();
      } catch (e) {
        await discard(stored.key);
        throw e;
      }
    },
    read: (key) => guarded(() => store.get(key)),
    async open(key) {
      const { body, size } = await guarded(() => store.stream(key));
      // A store that fails while its bytes flow (S3 gone mid-download) fails the stream with the
      // same classes; a reader that stops (a client gone) stops the store's read too.
      const out = new PassThrough();
      body.once('error', (e) => out.destroy(storeFailure(e)));
      out.once('close', () => body.destroy());
      body.pipe(out);
      return { body: out, size };
    },
    discard,
    claim: (opts, on = db) => rekindFileRow(on, { ...opts, newKind: `${opts.kind}Applied` }),
    async removeOwned(opts) {
      const keys = await deleteOwnedFileRows(db, opts);
      for (const key of keys) await discard(key);
      return keys.length;
    },
    /**
     * Rows are marked first, one by one, so two instances sweeping at once never both remove a
     * file's bytes while a download reads them as present. The rows stay: print jobs and batches
     * name them, and a late download says "expired".
     */
    async sweep(now, days) {
      const before = new Date(now.getTime() - days * 86_400_000).toISOString();
      const at = now.toISOString();
      let expired = 0;
      for (;;) {
        const due = await filesDueForExpiry(db, before, TEMPORARY_KINDS, 500);
        if (!due.length) break;
        for (const f of due) {
          if (!(await markFileExpired(db, f.id, at))) continue;
          await discard(f.storage_key);
          expired += 1;
        }
      }
      // Uploads, by their kind's rule; in id order, so uploads still needed are looked at once.
      for (const rule of KEPT_UPLOADS) {
        for (let after = 0; ;) {
          const due = await keptUploadsDue(db, rule, before, after, 500);
          if (!due.length) break;
          after = due.at(-1)!.id;
          for (const f of due) {
            if (!(await expireKeptUpload(db, rule, f.id, before, at))) continue;
            await discard(f.storage_key);
            expired += 1;
          }
        }
      }
      // Orphans: listed by age in the store, kept if any record names them.
      for await (const keys of store.listOlderThan(new Date(now.getTime() - ORPHAN_GRACE_HOURS * 3_600_000))) {
        const named = await referencedStorageKeys(db, keys);
        for (const key of keys) if (!named.has(key)) await discard(key);
      }
      return expired;
    },
    check: () => store.check(),
    storedBytes: (customerIds, on = db) => storedBytesByCustomer(on, customerIds),
    quotaBytes,
  };
  return files;
}

import { ErrorCode } from '@console/contract';
import type { Database } from '../db/database.ts';
import { AppError } from './errors.ts';
import { addMessages } from './messages.ts';
import type { Storage } from './storage.ts';

addMessages({
  fileExpired: {
    en: 'This file has expired: files made for download are kept for {days} day(s). Make it again.',
    'zh-CN': '该文件已过期：生成的下载文件只保留 {days} 天，请重新生成。',
  },
});

/**
 * Kinds that are temporary even when written without `temporary` (the import modules insert
 * their refused-upload workbooks themselves): removed after the retention like generated files.
 */
export const TEMPORARY_KINDS = ['batchErrors', 'itemImportErrors'] as const;

/** How long files made for a user are kept (config FILE_RETENTION_DAYS), for the expired message. */
let retentionDays = 7;
export function setFileRetentionDays(days: number) {
  retentionDays = days;
}

/** The answer to a download of a file whose bytes the retention cleanup removed: a 404 that says so. */
export const fileExpired = () => new AppError(ErrorCode.NOT_FOUND, 'fileExpired', null, { days: retentionDays });

/** A stored file's bytes, or the "expired" 404 once the cleanup removed them. */
export async function storedFileBody(storage: Storage, f: { storage_key: string; expired_at: unknown }) {
  if (f.expired_at) throw fileExpired();
  return storage.get(f.storage_key);
}

/**
 * File retention: removes the bytes of temporary files (generated files, refused-upload
 * workbooks) made more than `days` ago and marks their rows expired (the rows stay: print jobs
 * and batches name them, and a late download says "expired"). Returns how many expired. Rows
 * are marked first, one by one, so two instances sweeping at once never both remove a file's
 * bytes while a download reads them as present.
 */
export async function expireTemporaryFiles(db: Database, storage: Storage, now: Date, days: number): Promise<number> {
  const before = new Date(now.getTime() - days * 86_400_000).toISOString();
  const at = now.toISOString();
  let expired = 0;
  for (;;) {
    const due = await db
      .selectFrom('files')
      .select(['id', 'storage_key'])
      .where('expired_at', 'is', null)
      .where((eb) => eb.or([eb('temporary', '=', 1), eb('kind', 'in', [...TEMPORARY_KINDS])]))
      .where('created_at', '<', before)
      .orderBy('id')
      .limit(500)
      .execute();
    if (!due.length) return expired;
    for (const f of due) {
      const r = await db
        .updateTable('files')
        .set({ expired_at: at })
        .where('id', '=', f.id)
        .where('expired_at', 'is', null)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0) continue;
      await storage.remove(f.storage_key).catch(() => {});
      expired += 1;
    }
  }
}

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * A file the server made for one user (a search result, an import's error workbook):
 * stored through the storage interface and recorded in `files`, so whichever instance
 * answers the download finds it. Returns the file id the user downloads it by.
 */
export async function saveGeneratedFile(
  db: Database,
  storage: Storage,
  file: GeneratedFile & { data: Buffer },
): Promise<number> {
  return recordGeneratedFile(db, await storage.put(file.data, file.name), file);
}

type GeneratedFile = {
  kind: string;
  name: string;
  mime: string;
  customerId: number | null;
  ownerUserId: number;
  at: string;
};

/**
 * The `files` row of bytes already stored: apart from the write, so a job records its file in the
 * transaction that finishes it (the bytes are written before, never with the writer held).
 */
export async function recordGeneratedFile(
  db: Database,
  stored: { key: string; size: number; sha256: string },
  file: GeneratedFile,
): Promise<number> {
  const row = await db
    .insertInto('files')
    .values({
      customer_id: file.customerId,
      owner_user_id: file.ownerUserId,
      kind: file.kind,
      name: file.name,
      mime: file.mime,
      size: stored.size,
      sha256: stored.sha256,
      storage_key: stored.key,
      created_at: file.at,
      temporary: 1,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * A generated file of this kind, if the caller may have it: its owner always, anyone when
 * `anyOwner` (operators). Otherwise null, the same as for a file that does not exist, so
 * ids of other users' files cannot be probed.
 */
export async function loadGeneratedFile(
  db: Database,
  storage: Storage,
  opts: { id: number; kind: string; userId: number; anyOwner?: boolean },
): Promise<{ name: string; mime: string; body: Buffer } | null> {
  let q = db
    .selectFrom('files')
    .select(['name', 'mime', 'storage_key', 'expired_at'])
    .where('id', '=', opts.id)
    .where('kind', '=', opts.kind);
  if (!opts.anyOwner) q = q.where('owner_user_id', '=', opts.userId);
  const f = await q.executeTakeFirst();
  if (!f) return null;
  return { name: f.name, mime: f.mime, body: await storedFileBody(storage, f) };
}

import type { Readable } from 'node:stream';
import { ErrorCode } from '@console/contract';
import type { Database } from '../db/database.ts';
import { AppError } from './errors.ts';
import type { Files, StoredBytes } from './files.ts';
import { findFileRow, insertFileRow } from './files.repository.ts';

/** How long files made for a user are kept (config FILE_RETENTION_DAYS), for the expired message. */
let retentionDays = 7;
export function setFileRetentionDays(days: number) {
  retentionDays = days;
}

/** The answer to a download of a file whose bytes the retention cleanup removed: a 404 that says so. */
export const fileExpired = () => new AppError(ErrorCode.NOT_FOUND, 'fileExpired', null, { days: retentionDays });

/**
 * A stored file's bytes as a stream for its download, or the "expired" 404 once the cleanup
 * removed them.
 */
export async function storedFileBody(files: Files, f: { storage_key: string; expired_at: unknown }) {
  if (f.expired_at) throw fileExpired();
  return (await files.open(f.storage_key)).body;
}

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * A file the server made for one user (a search result, an import's error workbook):
 * stored through the storage interface and recorded in `files`, so whichever instance
 * answers the download finds it. Returns the file id the user downloads it by.
 */
export async function saveGeneratedFile(
  db: Database,
  files: Files,
  file: GeneratedFile & { data: Buffer },
): Promise<number> {
  return files.save({ ...generatedRow(file), data: file.data }, db);
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
export async function recordGeneratedFile(db: Database, stored: StoredBytes, file: GeneratedFile): Promise<number> {
  // The files module's own insert (this file is part of it), with the signature callers had.
  return insertFileRow(db, {
    ...generatedRow(file),
    size: stored.size,
    sha256: stored.sha256,
    storage_key: stored.key,
  });
}

const generatedRow = (file: GeneratedFile) => ({
  customer_id: file.customerId,
  owner_user_id: file.ownerUserId,
  kind: file.kind,
  name: file.name,
  mime: file.mime,
  created_at: file.at,
  temporary: 1 as const,
});

/**
 * A generated file of this kind, if the caller may have it: its owner always, anyone when
 * `anyOwner` (operators). Otherwise null, the same as for a file that does not exist, so
 * ids of other users' files cannot be probed.
 */
export async function loadGeneratedFile(
  db: Database,
  files: Files,
  opts: { id: number; kind: string; userId: number; anyOwner?: boolean },
): Promise<{ name: string; mime: string; body: Readable } | null> {
  const f = await findFileRow(db, {
    id: opts.id,
    kind: opts.kind,
    ownerUserId: opts.anyOwner ? undefined : opts.userId,
  });
  if (!f) return null;
  return { name: f.name, mime: f.mime, body: await storedFileBody(files, f) };
}

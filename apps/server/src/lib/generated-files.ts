import type { Database } from '../db/database.ts';
import type { Storage } from './storage.ts';

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * A file the server made for one user (a search result, an import's error workbook):
 * stored through the storage interface and recorded in `files`, so whichever instance
 * answers the download finds it. Returns the file id the user downloads it by.
 */
export async function saveGeneratedFile(
  db: Database,
  storage: Storage,
  file: {
    kind: string;
    name: string;
    mime: string;
    customerId: number | null;
    ownerUserId: number;
    data: Buffer;
    at: string;
  },
): Promise<number> {
  const stored = await storage.put(file.data, file.name);
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
    .select(['name', 'mime', 'storage_key'])
    .where('id', '=', opts.id)
    .where('kind', '=', opts.kind);
  if (!opts.anyOwner) q = q.where('owner_user_id', '=', opts.userId);
  const f = await q.executeTakeFirst();
  if (!f) return null;
  return { name: f.name, mime: f.mime, body: await storage.get(f.storage_key) };
}

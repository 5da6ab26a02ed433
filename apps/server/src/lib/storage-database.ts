import type { Database } from '../db/database.ts';
import { newStorageKey, probeStorage, sha256Of, StoredFileMissing, type Storage } from './storage.ts';

/**
 * Files' bytes in the `file_blobs` table: the default store on PostgreSQL, where every
 * instance reaches the same database, so a preview made on one is confirmed on another and a
 * workbook made on one downloads through any. For small installations and the several-instances
 * test; a large one points FILE_STORE at S3 and keeps the database for rows.
 */
export function databaseStorage(db: Database): Storage {
  const store: Storage = {
    async put(data, hint, sha256) {
      const key = newStorageKey(hint);
      await db
        .insertInto('file_blobs')
        .values({ key, data, size: data.length, created_at: new Date().toISOString() })
        .execute();
      return { key, size: data.length, sha256: sha256 ?? sha256Of(data) };
    },
    async get(key) {
      const row = await db.selectFrom('file_blobs').select('data').where('key', '=', key).executeTakeFirst();
      if (!row) throw new StoredFileMissing(key);
      return Buffer.from(row.data.buffer, row.data.byteOffset, row.data.byteLength);
    },
    async remove(key) {
      await db.deleteFrom('file_blobs').where('key', '=', key).execute();
    },
    check: () => probeStorage(store),
  };
  return store;
}

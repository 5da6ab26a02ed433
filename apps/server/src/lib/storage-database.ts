import { Readable } from 'node:stream';
import { sql } from 'kysely';
import type { Database } from '../db/database.ts';
import { dialectOf } from '../db/dialect.ts';
import { LIST_PAGE, newStorageKey, probeStorage, sha256Of, StoredFileMissing, type Storage } from './storage.ts';

/**
 * How much of a blob one read takes when it is streamed: a 50 MB workbook downloads in pieces of
 * this size, so the server holds one piece per download instead of the whole file.
 */
export const DATABASE_STREAM_CHUNK = 1024 * 1024;

const asBuffer = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);

/**
 * Files' bytes in the `file_blobs` table: the default store on PostgreSQL, where every
 * instance reaches the same database, so a preview made on one is confirmed on another and a
 * workbook made on one downloads through any. For small installations and the several-instances
 * test; a large one points FILE_STORE at S3 and keeps the database for rows.
 */
export function databaseStorage(db: Database, chunk = DATABASE_STREAM_CHUNK): Storage {
  const pieced = dialectOf(db) === 'postgres';
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
      return asBuffer(row.data);
    },
    async stream(key) {
      const row = await db.selectFrom('file_blobs').select('size').where('key', '=', key).executeTakeFirst();
      if (!row) throw new StoredFileMissing(key);
      const size = Number(row.size);
      // SQLite hands a function the whole blob, so each piece would read all of it (a 50 MB file
      // took 37 s in 1 MiB pieces): there the blob is read once and sent from memory. The
      // database store on SQLite is a choice for tests and tiny setups; its default is the folder.
      if (!pieced) {
        const whole = await store.get(key);
        return { body: Readable.from([whole], { objectMode: false }), size: whole.length };
      }
      // substr of a bytea, 1-based; each piece is its own query, so no connection is held between
      // pieces while the client is slow to read. Blobs are stored uncompressed (migration
      // 2026-11-27T0440), so PostgreSQL reads only the piece's TOAST chunks.
      async function* pieces() {
        for (let at = 0; at < size; at += chunk) {
          const piece = await db
            .selectFrom('file_blobs')
            .select(sql<Uint8Array>`substr(data, ${at + 1}, ${chunk})`.as('piece'))
            .where('key', '=', key)
            .executeTakeFirst();
          // Removed while it was read (the retention sweep): the download fails rather than
          // ending short as if it were complete.
          if (!piece || piece.piece.byteLength === 0) throw new StoredFileMissing(key);
          yield asBuffer(piece.piece);
        }
      }
      return { body: Readable.from(pieces(), { objectMode: false }), size };
    },
    async remove(key) {
      await db.deleteFrom('file_blobs').where('key', '=', key).execute();
    },
    async *listOlderThan(before) {
      // By key, a page at a time: the blobs are never read.
      for (let after = ''; ;) {
        const rows = await db
          .selectFrom('file_blobs')
          .select('key')
          .where('created_at', '<', before.toISOString())
          .where('key', '>', after)
          .orderBy('key')
          .limit(LIST_PAGE)
          .execute();
        if (!rows.length) return;
        yield rows.map((r) => r.key);
        after = rows.at(-1)!.key;
      }
    },
    check: () => probeStorage(store),
  };
  return store;
}

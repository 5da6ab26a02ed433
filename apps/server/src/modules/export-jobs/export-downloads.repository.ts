import type { Database } from '../../db/database.ts';

/** The `export_downloads` rows (migration 2026-12-07T0510): one per download asked for without waiting. */
export function createExportDownloadsRepository(db: Database) {
  return {
    /** A download being built; a reused id (the same user asking again) starts over. */
    async start(userId: number, id: string, at: string) {
      await db
        .insertInto('export_downloads')
        .values({ user_id: userId, id, state: 'running', created_at: at, updated_at: at, heartbeat_at: at })
        .onConflict((oc) =>
          oc.columns(['user_id', 'id']).doUpdateSet({
            state: 'running',
            filename: null,
            content_type: null,
            file_key: null,
            error: null,
            created_at: at,
            updated_at: at,
            heartbeat_at: at,
          }),
        )
        .execute();
    },

    /** Whether the row was still there (and still this build's) to take the result. */
    async finish(
      userId: number,
      id: string,
      startedAt: string,
      result:
        { state: 'done'; fileKey: string; filename: string; contentType: string } | { state: 'failed'; error: string },
      at: string,
    ) {
      const r = await db
        .updateTable('export_downloads')
        .set(
          result.state === 'done'
            ? {
                state: 'done',
                file_key: result.fileKey,
                filename: result.filename,
                content_type: result.contentType,
                updated_at: at,
              }
            : { state: 'failed', error: result.error, updated_at: at },
        )
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .where('created_at', '=', startedAt)
        .where('state', '=', 'running')
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    /** The builder's beat: this build's row is still being built, by a live instance. */
    async beat(userId: number, id: string, startedAt: string, at: string) {
      await db
        .updateTable('export_downloads')
        .set({ heartbeat_at: at })
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .where('created_at', '=', startedAt)
        .where('state', '=', 'running')
        .execute();
    },

    /**
     * Fails the caller's running download whose builder has not beaten since `staleBefore` (it is
     * gone); whether it did. A row that never beat (null) is not judged.
     */
    async failOrphan(userId: number, id: string, staleBefore: string, error: string, at: string) {
      const r = await db
        .updateTable('export_downloads')
        .set({ state: 'failed', error, updated_at: at })
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .where('state', '=', 'running')
        .where('heartbeat_at', '<', staleBefore)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    /** Fails every running download whose builder has not beaten since `staleBefore`; the ones it failed. */
    failOrphans: (staleBefore: string, error: string, at: string) =>
      db
        .updateTable('export_downloads')
        .set({ state: 'failed', error, updated_at: at })
        .where('state', '=', 'running')
        .where('heartbeat_at', '<', staleBefore)
        .returning(['user_id', 'id'])
        .execute(),

    read: (userId: number, id: string) =>
      db
        .selectFrom('export_downloads')
        .select(['state', 'filename', 'content_type', 'file_key', 'error', 'heartbeat_at'])
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst(),

    /** Takes a finished download's row away (once only: two fetches at once get it once); its key is the caller's to remove. */
    async take(userId: number, id: string) {
      const row = await db
        .deleteFrom('export_downloads')
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .where('state', 'in', ['done', 'failed'])
        .returning(['file_key'])
        .executeTakeFirst();
      return row ?? null;
    },

    /** Rows left unfetched (or whose builder stopped), with the keys to remove. */
    async removeOlderThan(before: string) {
      return db.deleteFrom('export_downloads').where('updated_at', '<', before).returning(['file_key']).execute();
    },
  };
}

import type { Database } from '../../db/database.ts';

/** The `export_renders` rows (migration 2026-11-27T0430): one per render on the queue, for one download. */
export function createExportRendersRepository(db: Database) {
  return {
    /** Before its job is enqueued, so the job never looks for a row not there. */
    insert: (id: string, inputKey: string, at: string) =>
      db
        .insertInto('export_renders')
        .values({ id, state: 'queued', input_key: inputKey, created_at: at, updated_at: at })
        .execute(),

    /**
     * The worker's claim: queued, or running already (an orphan the queue gave another instance);
     * none when the asker has gone and removed the row.
     */
    async take(id: string, by: string, at: string) {
      const row = await db
        .updateTable('export_renders')
        .set({ state: 'running', rendered_by: by, updated_at: at })
        .where('id', '=', id)
        .where('state', 'in', ['queued', 'running'])
        .returning(['input_key'])
        .executeTakeFirst();
      return row ?? null;
    },

    /** Whether the row was still there to say it (the asker may have given up meanwhile). */
    async finish(
      id: string,
      result: { state: 'done'; fileKey: string } | { state: 'failed'; error: string },
      at: string,
    ) {
      const r = await db
        .updateTable('export_renders')
        .set({
          state: result.state,
          file_key: result.state === 'done' ? result.fileKey : null,
          error: result.state === 'failed' ? result.error : null,
          updated_at: at,
        })
        .where('id', '=', id)
        .where('state', '=', 'running')
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    read: (id: string) =>
      db
        .selectFrom('export_renders')
        .select(['state', 'file_key', 'rendered_by', 'error'])
        .where('id', '=', id)
        .executeTakeFirst(),

    /** Removes the row; what its keys held is the caller's to remove. */
    async remove(id: string) {
      const row = await db
        .deleteFrom('export_renders')
        .where('id', '=', id)
        .returning(['input_key', 'file_key'])
        .executeTakeFirst();
      return row ?? null;
    },

    /** Rows whose asker is long gone (a stopped instance), with the keys to remove. */
    async removeOlderThan(before: string) {
      return db
        .deleteFrom('export_renders')
        .where('updated_at', '<', before)
        .returning(['input_key', 'file_key'])
        .execute();
    },
  };
}

import type { exportJobs } from '@console/contract';
import type { Database } from '../../db/database.ts';

type ExportProgress = exportJobs.ExportProgress;

/** The `export_progress` rows (migration 2026-11-27T0191). */
export function createExportJobsRepository(db: Database) {
  return {
    /** Starts (or restarts, for a reused id) a download's row, dropping rows idle since `staleBefore`. */
    async start(userId: number, id: string, state: ExportProgress, at: string, staleBefore: string) {
      await db.deleteFrom('export_progress').where('updated_at', '<', staleBefore).execute();
      await db
        .insertInto('export_progress')
        .values({ user_id: userId, progress_id: id, ...state, updated_at: at })
        .onConflict((oc) => oc.columns(['user_id', 'progress_id']).doUpdateSet({ ...state, updated_at: at }))
        .execute();
    },
    async update(userId: number, id: string, state: Partial<ExportProgress>, at: string) {
      await db
        .updateTable('export_progress')
        .set({ ...state, updated_at: at })
        .where('user_id', '=', userId)
        .where('progress_id', '=', id)
        .execute();
    },
    read: (userId: number, id: string) =>
      db
        .selectFrom('export_progress')
        .select(['phase', 'rows', 'total', 'updated_at'])
        .where('user_id', '=', userId)
        .where('progress_id', '=', id)
        .executeTakeFirst(),
  };
}

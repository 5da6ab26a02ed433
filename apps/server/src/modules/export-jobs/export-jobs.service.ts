import type { exportJobs } from '@console/contract';
import type { Database } from '../../db/database.ts';
import type { ExportProgress, ExportProgressStore, ProgressTracker } from '../../lib/export-progress.ts';
import { createExportJobsRepository } from './export-jobs.repository.ts';

const KEEP_MS = 10 * 60_000;
/** Row counts are written at most this often; phases and totals at once. */
const ROWS_EVERY_MS = 250;

/**
 * Download progress in the database (issue 27): the console polls `export/progress` through a
 * load balancer, and the instance that answers is often not the one building the file. Only the
 * user who started a download can read it; a row is forgotten ten minutes after its last change.
 * A tracker's writes go out one after another (so the last written is the last made), never
 * holding up the download: a failed write is logged, and the next one carries the state again.
 */
export function createExportProgress(
  db: Database,
  clock: () => Date,
  onError: (e: unknown) => void,
): ExportProgressStore {
  const repo = createExportJobsRepository(db);
  const stamp = () => clock().toISOString();
  const tracker = (userId: number, id: string, fresh: boolean): ProgressTracker => {
    // A resumed tracker writes only what it was told: the total the asking instance set stays.
    const state: Partial<ExportProgress> = fresh ? { phase: 'waiting', rows: 0, total: null } : {};
    let chain: Promise<unknown> = fresh
      ? repo
          .start(
            userId,
            id,
            { phase: 'waiting', rows: 0, total: null },
            stamp(),
            new Date(clock().getTime() - KEEP_MS).toISOString(),
          )
          .catch(onError)
      : Promise.resolve();
    let lastRowsWrite = 0;
    const write = () => {
      const snapshot = { ...state };
      const at = stamp();
      chain = chain.then(() => repo.update(userId, id, snapshot, at).catch(onError));
    };
    const set = (patch: Partial<ExportProgress>) => {
      Object.assign(state, patch);
      write();
    };
    return {
      ref: { userId, id },
      writing: () => set({ phase: 'writing' }),
      total: (n) => set({ total: n }),
      rows(n) {
        state.rows = n;
        const now = Date.now();
        if (now - lastRowsWrite < ROWS_EVERY_MS) return;
        lastRowsWrite = now;
        write();
      },
      done: () => set({ phase: 'done', rows: state.total ?? state.rows ?? 0 }),
      failed: () => set({ phase: 'failed' }),
      flushed: () => chain.then(() => undefined),
    };
  };
  return {
    track: (userId, id) => (id ? tracker(userId, id, true) : undefined),
    resume: (userId, id) => tracker(userId, id, false),
    async read(userId, id) {
      const row = await repo.read(userId, id);
      if (!row || clock().getTime() - new Date(row.updated_at).getTime() > KEEP_MS)
        return { phase: 'unknown', rows: 0, total: null };
      return {
        phase: row.phase as exportJobs.ExportPhase,
        rows: Number(row.rows),
        total: row.total === null ? null : Number(row.total),
      };
    },
  };
}

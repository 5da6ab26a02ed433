import type { exportJobs } from '@console/contract';

type ExportPhase = exportJobs.ExportPhase;
type ExportProgress = exportJobs.ExportProgress;

/**
 * Progress of the workbook downloads in this process, by the `progressId` the console gives
 * (`export/progress`). Only the user who started a download can read it; an entry is
 * forgotten ten minutes after its last change. Kept in memory: the download's request runs
 * on this instance for its whole life, and a console behind several instances that asks
 * another one gets `unknown` and shows "preparing" (docs/decisions.md).
 */
export interface ProgressTracker {
  /** A worker took the job. */
  writing(): void;
  /** Rows the workbook will hold. */
  total(n: number): void;
  /** Rows written so far. */
  rows(n: number): void;
  done(): void;
  failed(): void;
}

interface Entry extends ExportProgress {
  userId: number;
  at: number;
}

const KEEP_MS = 10 * 60_000;
const MAX_ENTRIES = 10_000;
const entries = new Map<string, Entry>();

function sweep(now: number) {
  for (const [id, e] of entries) if (now - e.at > KEEP_MS || entries.size > MAX_ENTRIES) entries.delete(id);
}

/** A tracker of one download, or none when the console named none. */
export function trackExport(userId: number, id: string | undefined, now = Date.now()): ProgressTracker | undefined {
  if (!id) return undefined;
  sweep(now);
  const key = `${userId}:${id}`;
  const entry: Entry = { userId, phase: 'waiting', rows: 0, total: null, at: now };
  entries.set(key, entry);
  const set = (patch: Partial<Entry>) => Object.assign(entry, patch, { at: Date.now() });
  const phase = (p: ExportPhase) => () => set({ phase: p });
  return {
    writing: phase('writing'),
    total: (n) => set({ total: n }),
    rows: (n) => set({ rows: n }),
    done: () => set({ phase: 'done', rows: entry.total ?? entry.rows }),
    failed: phase('failed'),
  };
}

/** What `export/progress` answers; another user's id is as unknown as a wrong one. */
export function readExportProgress(userId: number, id: string): ExportProgress {
  const e = entries.get(`${userId}:${id}`);
  return e ? { phase: e.phase, rows: e.rows, total: e.total } : { phase: 'unknown', rows: 0, total: null };
}

/** Runs a download's work; a refusal before the workbook (404, 403) fails its progress too. */
export async function tracked<T>(progress: ProgressTracker | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    progress?.failed();
    throw e;
  }
}

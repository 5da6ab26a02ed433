import type { exportJobs } from '@console/contract';

export type ExportProgress = exportJobs.ExportProgress;

/**
 * Progress of workbook and PDF downloads, by the `progressId` the console gives
 * (`export/progress`). The store (modules/export-jobs) keeps it in the database, so the console
 * polling through a load balancer reads it from whichever instance answers (issue 27).
 */
export interface ProgressTracker {
  /** Whose download it is: a render on another instance reports through `resume` with it. */
  readonly ref?: { userId: number; id: string };
  /** A worker took the job. */
  writing(): void;
  /** Rows the workbook will hold. */
  total(n: number): void;
  /** Rows written so far. */
  rows(n: number): void;
  done(): void;
  failed(): void;
  /** Resolves once every change made so far is written (the download answers after it). */
  flushed(): Promise<void>;
}

export interface ExportProgressStore {
  /** A tracker of one download, or none when the console named none. */
  track(userId: number, id: string | undefined): ProgressTracker | undefined;
  /** A tracker of a download already started elsewhere (a render job on a worker instance): it does not reset the row. */
  resume(userId: number, id: string): ProgressTracker;
  /** What `export/progress` answers; another user's id is as unknown as a wrong one. */
  read(userId: number, id: string): Promise<ExportProgress>;
}

/** Runs a download's work; a refusal before the workbook (404, 403) fails its progress too. */
export async function tracked<T>(progress: ProgressTracker | undefined, work: () => Promise<T>): Promise<T> {
  try {
    const result = await work();
    // So a poll made once the file has arrived reads "done", whichever instance it reaches.
    await progress?.flushed();
    return result;
  } catch (e) {
    progress?.failed();
    await progress?.flushed();
    throw e;
  }
}

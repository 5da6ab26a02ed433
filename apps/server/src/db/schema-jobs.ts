import type { Generated } from 'kysely';

/** The embedded job runner's queue (migration 2026-11-27T0170-job-queue; SQLite only). */
export interface JobQueueTable {
  id: Generated<number>;
  kind: string;
  /** JSON */
  payload: string;
  customer_id: number | null;
  /** small | heavy */
  size: string;
  singleton_key: string | null;
  /** queued | active | done | failed */
  state: string;
  attempts: Generated<number>;
  run_after: string;
  created_at: string;
  finished_at: string | null;
  last_error: string | null;
  /** Starts that found it running, left by a process that ended (migration 2026-12-06T2200): capped, jobs.shared.ts INTERRUPTED_RERUNS. */
  interruptions: Generated<number>;
}
export interface JobTables {
  job_queue: JobQueueTable;
}

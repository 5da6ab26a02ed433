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
}
export interface JobTables {
  job_queue: JobQueueTable;
}

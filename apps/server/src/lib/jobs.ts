import { memoryJobQueue } from './jobs.memory.ts';
import { pgJobQueue } from './jobs.pg.ts';
import type { JobQueue, JobQueueDeps } from './jobs.shared.ts';

/**
 * The one job queue (ARCHITECTURE.md "Jobs and workers"; docs/decisions.md "One job queue"): long jobs and periodic
 * jobs are defined here by kind and enqueued by name. On PostgreSQL it is pg-boss (jobs.pg.ts),
 * shared by every instance; on the embedded SQLite default an in-process runner over a table
 * (jobs.memory.ts). Modules see only this interface, so they cannot tell which one runs them.
 */

export * from './jobs.shared.ts';

export function createJobQueue(deps: JobQueueDeps): JobQueue {
  return deps.config.database.dialect === 'postgres' ? pgJobQueue(deps, deps.config.database) : memoryJobQueue(deps);
}

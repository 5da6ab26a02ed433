import { sql } from 'kysely';
import { INTERRUPTED_RERUNS } from '../../src/lib/jobs.ts';
import { type Harness, secondInstance } from '../harness.ts';
import { INSTANCES_ENV } from './two-instances.ts';

/**
 * Issue 38: the last death of a job whose runs keep being cut short, the job under way on the
 * harness's instance (its harness made with INSTANCES_ENV), as labels/print-job-stopped.test.ts
 * makes it. On PostgreSQL its last allowed run with a lapsed lease (its instance gone): the
 * supervisor fails it and the kind's `gaveUp` is told. On SQLite the process stops with the job
 * under way after as many deaths as allowed, and the next start (a second instance) gives up on it.
 * Returns a wait for the held run's own end (once its gate is open): a test then checks it wrote
 * nothing, with no fixed sleep. The harness's queue is stopped by then: call it last.
 */
export async function stopTooOften(h: Harness, kind: string): Promise<() => Promise<void>> {
  if (h.config.database.dialect === 'postgres') {
    await sql`update pgboss.job set retry_count = retry_limit, heartbeat_on = now() - interval '1 hour'
      where name = ${kind} and state = 'active'`.execute(h.db);
    // The held run is still the harness's handler: a graceful stop waits for it to return.
    return () => h.app.jobs.stop();
  }
  // The stop waits for the held run; its promise says when that run has returned.
  const stopping = h.app.jobs.stop();
  await h.db
    .updateTable('job_queue')
    .set({ interruptions: INTERRUPTED_RERUNS })
    .where('kind', '=', kind)
    .where('state', '=', 'active')
    .execute();
  await secondInstance(h, { env: INSTANCES_ENV });
  return () => stopping;
}

import { sql, type Kysely } from 'kysely';
import type { DB } from '../../src/db/schema.ts';
import type { JobKind, JobQueue } from '../../src/lib/jobs.ts';

/** Helpers of the job queue's tests (jobs.test.ts, the tests of several instances: support/two-instances.ts). */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export async function waitFor(what: string, cond: () => boolean | Promise<boolean>, ms = 15_000) {
  for (const end = Date.now() + ms; !(await cond()); await sleep(50)) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
  }
}
/** A kind that records each run's payload. */
export function recorder(name: string, extra: Partial<JobKind<{ n: number }>> = {}) {
  const runs: { n: number; attempt: number; at: number }[] = [];
  const kind: JobKind<{ n: number }> = {
    name,
    run: async (p, ctx) => void runs.push({ n: p.n, attempt: ctx.attempt, at: Date.now() }),
    ...extra,
  };
  return { kind, runs };
}

/** A periodic kind on an hour's period, never ticked by its schedule in the test's time (its periods are driven). */
export function periodicRecorder(queue: JobQueue, name: string) {
  const runs: number[] = [];
  queue.every({ name, run: async () => void runs.push(Date.now()) }, { everyMs: 3_600_000, atStart: false });
  return { runs };
}

/** A job's recorded state, the same words on both backends. */
export type JobState = 'waiting' | 'active' | 'done' | 'failed';
const PG_STATE: Record<string, JobState> = {
  created: 'waiting',
  retry: 'waiting',
  active: 'active',
  completed: 'done',
  failed: 'failed',
  cancelled: 'failed',
};

/**
 * The queue's own rows of `kind` (the embedded runner's job_queue, pg-boss's pgboss.job): what a
 * test asserts on instead of sleeping and seeing nothing more run. Once every row of a kind is
 * done or failed, no run of it is still to come, so its run list is final.
 */
export async function jobRows(db: Kysely<DB>, kind: string): Promise<{ state: JobState }[]> {
  if (process.env.TEST_DATABASE_URL) {
    const { rows } = await sql<{ state: string }>`select state from pgboss.job where name = ${kind}`.execute(db);
    return rows.map((r) => ({ state: PG_STATE[r.state] ?? 'waiting' }));
  }
  const rows = await db.selectFrom('job_queue').select('state').where('kind', '=', kind).execute();
  return rows.map((r) => ({ state: r.state === 'queued' ? 'waiting' : (r.state as JobState) }));
}

/** Waits until `kind` has `count` rows, none of them waiting or running, and returns them. */
export async function settled(db: Kysely<DB>, kind: string, count: number) {
  let rows: { state: JobState }[] = [];
  await waitFor(`${count} settled jobs of ${kind}`, async () => {
    rows = await jobRows(db, kind);
    return rows.length >= count && rows.every((r) => r.state === 'done' || r.state === 'failed');
  });
  return rows;
}

import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { type JobQueue, TRANSIENT_RETRIES } from '../src/lib/jobs.ts';
import { createHarness, type Harness } from './harness.ts';
import { recorder, waitFor } from './support/jobs.ts';

/**
 * Issue 38 row 2: a transient database error during a job (a connection ended by a restart or a
 * failover, 57P01) was final for every kind without a retry policy. Now any kind runs again after
 * one, a bounded number of times with backoff, on both runners; another error stays final. Asserted
 * on what the queue recorded (attempts, final state), waited for with a bound.
 */
const pg = Boolean(process.env.TEST_DATABASE_URL);
let h: Harness;
let jobs: JobQueue;
beforeAll(async () => {
  h = await createHarness({ seed: false, env: { JOB_POLL_SECONDS: '0.5', JOB_LEASE_SECONDS: '10' } });
  jobs = h.app.jobs.unchecked;
});

/** What PostgreSQL says to a connection it ends on a restart or a failover. */
const terminated = () =>
  Object.assign(new Error('terminating connection due to administrator command'), {
    code: '57P01',
    severity: 'FATAL',
  });

/** The job's recorded state: runs so far and whether it has ended (and how), from the queue's own table. */
async function recorded(name: string): Promise<{ runs: number; ended: string | null }> {
  if (pg) {
    const r = await sql<{ state: string; retry_count: number }>`
      select state, retry_count from pgboss.job where name = ${name}`.execute(h.db);
    const row = r.rows[0];
    if (!row) return { runs: 0, ended: null };
    const ended = ['completed', 'failed', 'cancelled'].includes(row.state) ? row.state : null;
    return { runs: row.retry_count + 1, ended };
  }
  const row = await h.db
    .selectFrom('job_queue')
    .select(['state', 'attempts'])
    .where('kind', '=', name)
    .executeTakeFirst();
  if (!row) return { runs: 0, ended: null };
  return { runs: row.attempts, ended: ['done', 'failed'].includes(row.state) ? row.state : null };
}

async function ended(name: string) {
  let last = { runs: 0, ended: null as string | null };
  await waitFor(`${name} to end`, async () => (last = await recorded(name)).ended !== null, 40_000);
  return last;
}

describe('a transient database error during a job', () => {
  it('runs the job again with backoff until it succeeds; the handler is told it will run again', async () => {
    const seen: boolean[] = [];
    const flaky = recorder('test-transient-flaky');
    const run = flaky.kind.run;
    flaky.kind.run = async (p, ctx) => {
      await run(p, ctx);
      if (ctx.attempt < 3) {
        const e = terminated();
        seen.push(ctx.runsAgainAfter(e));
        throw e;
      }
    };
    jobs.define(flaky.kind);
    await jobs.enqueue(flaky.kind.name, { n: 1 });
    const end = await ended(flaky.kind.name);
    expect(flaky.runs.map((r) => r.attempt)).toEqual([1, 2, 3]);
    expect(end).toEqual({ runs: 3, ended: pg ? 'completed' : 'done' });
    expect(seen).toEqual([true, true]);
  }, 60_000);

  it('is bounded: past TRANSIENT_RETRIES the error is final, and the handler is told so on its last run', async () => {
    const seen: boolean[] = [];
    const down = recorder('test-transient-down');
    const run = down.kind.run;
    down.kind.run = async (p, ctx) => {
      await run(p, ctx);
      const e = terminated();
      seen.push(ctx.runsAgainAfter(e));
      throw e;
    };
    // Another error is final at once, as before.
    const broken = recorder('test-transient-not');
    const inner = broken.kind.run;
    broken.kind.run = async (p, ctx) => {
      await inner(p, ctx);
      throw new Error('a bug');
    };
    jobs.define(down.kind);
    jobs.define(broken.kind);
    await jobs.enqueue(down.kind.name, { n: 1 });
    await jobs.enqueue(broken.kind.name, { n: 1 });
    const end = await ended(down.kind.name);
    // pg-boss: the handler ends a job whose error is final (its retries are kept for orphans).
    expect(end).toEqual({ runs: TRANSIENT_RETRIES + 1, ended: pg ? 'completed' : 'failed' });
    expect(down.runs).toHaveLength(TRANSIENT_RETRIES + 1);
    expect(seen).toEqual([...Array(TRANSIENT_RETRIES).fill(true), false]);
    expect(await ended(broken.kind.name)).toEqual({ runs: 1, ended: pg ? 'completed' : 'failed' });
    expect(broken.runs).toHaveLength(1);
  }, 60_000);
});

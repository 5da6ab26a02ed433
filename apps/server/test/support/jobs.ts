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

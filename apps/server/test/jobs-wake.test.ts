import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHarness, type Harness } from './harness.ts';
import { recorder, sleep, waitFor } from './support/jobs.ts';

/**
 * `wake` (lib/jobs.ts, issue 29): a job enqueued in a transaction is looked for once the caller
 * says the transaction committed, not at the next poll. The polls are taken away here (the
 * in-process runner's interval never fires; pg-boss polls each minute), so a job that waits for
 * one does not run within the test.
 */
let h: Harness;
beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  h = await createHarness({ seed: false, env: { JOB_POLL_SECONDS: '60' } });
});
afterAll(() => vi.useRealTimers());

describe('job queue wake', () => {
  it('a job enqueued in a committed transaction runs when the queue is woken, before any poll', async () => {
    const { kind, runs } = recorder('test-wake');
    h.app.jobs.unchecked.define(kind);
    // The in-process runner also looks for jobs as each job ends: the start's own jobs (periodic
    // ones run at start) are let finish first, so none of them picks this one up.
    if (h.app.jobs.unchecked.backend === 'memory') {
      let quiet = 0;
      for (const end = Date.now() + 15_000; quiet < 2; await sleep(50)) {
        if (Date.now() > end) throw new Error('the queue never went idle');
        const busy = await h.db
          .selectFrom('job_queue')
          .select('id')
          .where('state', 'in', ['queued', 'active'])
          .execute();
        quiet = busy.length ? 0 : quiet + 1;
      }
    }
    await h.db.transaction().execute(async (trx) => {
      await h.app.jobs.unchecked.enqueue('test-wake', { n: 1 }, { trx });
    });
    h.app.jobs.unchecked.wake('test-wake');
    await waitFor('the woken job', () => runs.length > 0, 10_000);
    expect(runs.map((r) => r.n)).toEqual([1]);
  });
});

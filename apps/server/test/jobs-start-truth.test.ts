import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { INTERRUPTED_RERUNS, type GaveUpReason, type JobKind } from '../src/lib/jobs.ts';
import { memoryJobQueue } from '../src/lib/jobs.memory.ts';
import { RENDER_ROW_LIMIT_MS, RENDER_SWEEP } from '../src/modules/export-jobs/export-jobs.renders.ts';
import { createHarness, type Harness } from './harness.ts';
import { jobRows, settled, waitFor } from './support/jobs.ts';

/**
 * Issue 38 item 7, rows 8 and 10: jobs start after the server listens (not while the app is built),
 * a job left running by a process that died runs again a bounded number of times and is then failed
 * with a reason its owner's record shows, and old renders left by a killed web instance are swept
 * by a periodic job of whichever instance runs jobs. Both engines.
 */
const pg = Boolean(process.env.TEST_DATABASE_URL);
const ENV = { JOB_POLL_SECONDS: '0.5', JOB_LEASE_SECONDS: '10' };
const quiet = { warn: () => {}, error: () => {} };

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ seed: false, env: ENV });
});

describe('jobs start after the server listens', () => {
  it('building the app (plugins loaded, ready) runs no job; `jobs.start()` does', async () => {
    const runs: number[] = [];
    const app = await buildApp({ config: h.config, db: h.db });
    try {
      const kind: JobKind<{ n: number }> = { name: 'test-after-listen', run: async (p) => void runs.push(p.n) };
      app.jobs.unchecked.define(kind);
      if (!pg) {
        // A job a killed process left running: a queue that had started would have re-queued it.
        await h.db
          .insertInto('job_queue')
          .values({
            kind: 'test-after-listen',
            payload: JSON.stringify({ n: 1 }),
            size: 'small',
            state: 'active',
            attempts: 1,
            run_after: new Date().toISOString(),
            created_at: new Date().toISOString(),
          })
          .execute();
      } else {
        await app.ready();
        await app.jobs.unchecked.enqueue('test-after-listen', { n: 1 });
        // A started worker would look for it now rather than at its next poll.
        app.jobs.unchecked.wake('test-after-listen');
      }
      await app.ready();
      // Recorded state at this moment: the job is where it was left, nothing has taken it.
      expect((await jobRows(h.db, 'test-after-listen')).map((r) => r.state)).toEqual([pg ? 'waiting' : 'active']);
      await app.jobs.unchecked.start();
      expect((await settled(h.db, 'test-after-listen', 1)).map((r) => r.state)).toEqual(['done']);
      expect(runs).toEqual([1]);
    } finally {
      await app.close();
    }
  });
});

describe('a job left running by a process that died', () => {
  // The embedded runner's own case, defined on SQLite only (not shown as skipped on PostgreSQL).
  if (!pg)
    it(`embedded runner: runs again ${INTERRUPTED_RERUNS} times at most, then is failed with jobStoppedTooOften and its kind told`, async () => {
      const name = 'test-crash-loop';
      const attempts: number[] = [];
      const gaveUp: { n: number; reason: GaveUpReason }[] = [];
      const kind: JobKind<{ n: number }> = {
        name,
        run: async (_p, ctx) => void attempts.push(ctx.attempt),
        gaveUp: async (p, reason) => void gaveUp.push({ n: p.n, reason }),
      };
      const row = () =>
        h.db
          .selectFrom('job_queue')
          .select(['state', 'attempts', 'interruptions', 'last_error'])
          .where('kind', '=', name)
          .executeTakeFirstOrThrow();
      // What a process killed mid-run leaves: the row claimed (attempt counted), still active.
      const killMidRun = () =>
        h.db.updateTable('job_queue').set({ state: 'active', finished_at: null }).where('kind', '=', name).execute();
      const boot = async () => {
        const q = memoryJobQueue({ config: h.config, db: h.db, log: quiet });
        q.define(kind);
        await q.start();
        return q;
      };

      const first = await boot();
      await first.enqueue(name, { n: 7 });
      await settled(h.db, name, 1);
      await first.stop();
      // Each later start finds it left running (killed again), and runs it again.
      for (let rerun = 1; rerun <= INTERRUPTED_RERUNS; rerun++) {
        await killMidRun();
        const q = await boot();
        await settled(h.db, name, 1);
        await q.stop();
        expect(await row()).toMatchObject({ state: 'done', attempts: rerun + 1, interruptions: rerun });
      }
      // One more: past the cap, failed at start without a run, with the reason, and the kind told.
      await killMidRun();
      const last = await boot();
      await last.stop();
      expect(await row()).toMatchObject({
        state: 'failed',
        attempts: INTERRUPTED_RERUNS + 1,
        interruptions: INTERRUPTED_RERUNS + 1,
        last_error: 'jobStoppedTooOften',
      });
      expect(attempts).toEqual([1, 2, 3, 4].slice(0, INTERRUPTED_RERUNS + 1));
      expect(gaveUp).toEqual([{ n: 7, reason: 'jobStoppedTooOften' }]);
    });

  // pg-boss's own case, defined on PostgreSQL only.
  if (pg)
    it(`pg-boss: ${INTERRUPTED_RERUNS} re-runs of a lapsed lease at most, then failed for good and its kind told`, async () => {
      const name = 'test-crash-loop-pg';
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const gaveUp: { n: number; reason: GaveUpReason }[] = [];
      h.app.jobs.unchecked.define<{ n: number }>({
        name,
        run: () => gate,
        gaveUp: async (p, reason) => void gaveUp.push({ n: p.n, reason }),
      });
      await h.app.jobs.unchecked.enqueue(name, { n: 7 });
      await waitFor('the job running', async () => (await jobRows(h.db, name))[0]?.state === 'active');
      const limits = await sql<{
        retry_limit: number;
      }>`select retry_limit from pgboss.job where name = ${name}`.execute(h.db);
      // A job that was never retryable is given INTERRUPTED_RERUNS re-runs after lost leases (and transient errors).
      expect(limits.rows[0]!.retry_limit).toBe(INTERRUPTED_RERUNS);
      // Its last allowed run, and its instance gone: the lease lapses (what a kill leaves).
      await sql`update pgboss.job set retry_count = retry_limit, heartbeat_on = now() - interval '1 hour'
        where name = ${name}`.execute(h.db);
      await waitFor('the job failed', async () => (await jobRows(h.db, name))[0]?.state === 'failed', 30_000);
      await waitFor('its kind told', () => gaveUp.length > 0, 30_000);
      release();
      const rows = await sql<{ state: string; retry_count: number }>`select state, retry_count from pgboss.job
        where name = ${name}`.execute(h.db);
      expect(rows.rows).toEqual([{ state: 'failed', retry_count: INTERRUPTED_RERUNS }]);
      expect(gaveUp).toEqual([{ n: 7, reason: 'jobStoppedTooOften' }]);
    });
});

describe('old renders are swept by a periodic job (issue 38 row 10)', () => {
  it('a render row older than the limit, left by a killed web instance, is removed with its bytes by the sweep; a recent one stays', async () => {
    const old = await h.storage.put(Buffer.from('input of a dead asker'), 'render-input.bin');
    const recent = await h.storage.put(Buffer.from('input of a live asker'), 'render-input.bin');
    const at = (ms: number) => new Date(Date.now() - ms).toISOString();
    const oldId = randomUUID();
    const recentId = randomUUID();
    await h.db
      .insertInto('export_renders')
      .values([
        {
          id: oldId,
          state: 'queued',
          input_key: old.key,
          created_at: at(RENDER_ROW_LIMIT_MS + 60_000),
          updated_at: at(RENDER_ROW_LIMIT_MS + 60_000),
        },
        { id: recentId, state: 'queued', input_key: recent.key, created_at: at(60_000), updated_at: at(60_000) },
      ])
      .execute();
    // The next period's run, as the schedule enqueues it on whichever instance runs jobs.
    await h.app.jobs.unchecked.tick(RENDER_SWEEP, new Date(Date.now() + 3_600_000));
    await waitFor('the old render removed', async () => {
      const ids = await h.db.selectFrom('export_renders').select('id').execute();
      return !ids.some((r) => r.id === oldId);
    });
    expect((await h.db.selectFrom('export_renders').select('id').execute()).map((r) => r.id)).toEqual([recentId]);
    expect(await h.stored(old.key)).toBe(false);
    expect(await h.stored(recent.key)).toBe(true);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import type { JobKind, JobQueue } from '../src/lib/jobs.ts';
import { createHarness, secondInstance, type Harness } from './harness.ts';
import { settled, waitFor } from './support/jobs.ts';
import { INSTANCES_ENV, leaseOutlived } from './support/two-instances.ts';

/**
 * The job queue (lib/jobs.ts, issue 27) across two instances on one PostgreSQL: a period's job
 * once across instances, jobs enqueued on both run once, a web instance only enqueues, an
 * orphaned job taken over. Several instances live on PostgreSQL only (the embedded SQLite is one
 * process), so this file runs in the PostgreSQL run (vitest.config.ts: `*.pg.test.ts`).
 */

let h: Harness;
let jobs: JobQueue;
beforeAll(async () => {
  h = await createHarness({ seed: false, env: INSTANCES_ENV });
  jobs = h.app.jobs.unchecked;
  expect(jobs.backend).toBe('pg-boss');
});

describe('two instances on one PostgreSQL', () => {
  it('a periodic job fires exactly once per period across both instances, over three periods', async () => {
    const b = await secondInstance(h, { env: INSTANCES_ENV });
    // One recorder for both: a run on either instance counts.
    const runs: string[] = [];
    for (const [who, q] of [
      ['a', jobs],
      ['b', b.app.jobs.unchecked],
    ] as const) {
      q.every(
        { name: 'test-period-two', run: async () => void runs.push(who) },
        { everyMs: 3_600_000, atStart: false },
      );
    }
    const P = 3_600_000;
    const t0 = Date.UTC(2002, 0, 1);
    for (const k of [0, 1, 2]) {
      // Both instances' schedules reach the period's start at once.
      await Promise.all([
        jobs.tick('test-period-two', new Date(t0 + k * P + 1)),
        b.app.jobs.unchecked.tick('test-period-two', new Date(t0 + k * P + 2)),
      ]);
      await waitFor(`period ${k}`, () => runs.length >= k + 1);
    }
    await settled(h.db, 'test-period-two', 3); // no run of it is still to come
    expect(runs).toHaveLength(3);
  });

  it('jobs enqueued on both instances at once each run exactly once', async () => {
    const b = await secondInstance(h, { env: INSTANCES_ENV });
    const runs: number[] = [];
    const kind: JobKind<{ n: number }> = { name: 'test-once-two', run: async (p) => void runs.push(p.n) };
    jobs.define(kind);
    b.app.jobs.unchecked.define(kind);
    const ns = Array.from({ length: 40 }, (_, i) => i);
    await Promise.all(ns.map((n) => (n % 2 ? jobs : b.app.jobs.unchecked).enqueue('test-once-two', { n })));
    await waitFor('40 runs', () => runs.length >= 40);
    await settled(h.db, 'test-once-two', 40); // no run of it is still to come
    expect(runs.sort((x, y) => x - y)).toEqual(ns);
  });

  it('SERVER_ROLE=web enqueues only: its job runs on a worker instance', async () => {
    const web = await secondInstance(h, { env: { ...INSTANCES_ENV, SERVER_ROLE: 'web' } });
    const ran: string[] = [];
    jobs.define({ name: 'test-role', run: async () => void ran.push('worker') });
    web.app.jobs.unchecked.define({ name: 'test-role', run: async () => void ran.push('web') });
    for (let i = 0; i < 4; i++) await web.app.jobs.unchecked.enqueue('test-role', {});
    await waitFor('4 runs', () => ran.length >= 4);
    await settled(h.db, 'test-role', 4); // no run of it is still to come
    expect(ran).toEqual(['worker', 'worker', 'worker', 'worker']);
  });

  it('a job whose instance died is run by the other once its lease lapses, exactly once, and never while its owner lives', async () => {
    const owner = await secondInstance(h, { env: INSTANCES_ENV });
    const other = await secondInstance(h, { env: INSTANCES_ENV });
    const ran: { who: string; attempt: number }[] = [];
    let hold!: () => void;
    const held = new Promise<void>((r) => (hold = r));
    owner.app.jobs.unchecked.define({
      name: 'test-orphan',
      run: async (_p, ctx) => {
        ran.push({ who: 'owner', attempt: ctx.attempt });
        await held; // still working when it dies
      },
    });
    await owner.app.jobs.unchecked.enqueue('test-orphan', {});
    await waitFor('the owner to start it', () => ran.length > 0);
    other.app.jobs.unchecked.define({
      name: 'test-orphan',
      run: async (_p, ctx) => void ran.push({ who: 'other', attempt: ctx.attempt }),
    });
    // Past its lease and a heartbeat check after it: the owner's heartbeat kept the job its own.
    expect(await leaseOutlived(h.db, 'test-orphan')).toEqual({ state: 'active', retryCount: 0 });
    expect(ran).toEqual([{ who: 'owner', attempt: 1 }]);
    await owner.app.jobs.unchecked.abandon();
    await waitFor('the other instance to take it over', () => ran.length > 1, 30_000);
    await settled(h.db, 'test-orphan', 1); // no run of it is still to come
    expect(ran).toEqual([
      { who: 'owner', attempt: 1 },
      { who: 'other', attempt: 2 },
    ]);
    hold();
  }, 60_000);
});

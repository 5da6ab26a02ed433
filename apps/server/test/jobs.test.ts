import { beforeAll, describe, expect, it } from 'vitest';
import type { JobKind, JobQueue } from '../src/lib/jobs.ts';
import { createHarness, secondInstance, type Harness } from './harness.ts';

/**
 * The job queue (lib/jobs.ts, issue 27) on the database the suite runs on: pg-boss on
 * PostgreSQL, the in-process runner on SQLite, behind the same interface. The two-instance cases
 * (a period's job once across instances, an orphaned job taken over) need PostgreSQL: on SQLite
 * there is one process, so they do not apply there.
 */
const pg = Boolean(process.env.TEST_DATABASE_URL);
const ENV = { JOB_POLL_SECONDS: '0.5', JOB_LEASE_SECONDS: '10' };

let h: Harness;
let jobs: JobQueue;
beforeAll(async () => {
  h = await createHarness({ seed: false, env: ENV });
  jobs = h.app.jobs;
  expect(jobs.backend).toBe(pg ? 'pg-boss' : 'memory');
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function waitFor(what: string, cond: () => boolean, ms = 15_000) {
  for (const end = Date.now() + ms; !cond(); await sleep(50)) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
  }
}
/** A kind that records each run's payload. */
function recorder(name: string, extra: Partial<JobKind<{ n: number }>> = {}) {
  const runs: { n: number; attempt: number; at: number }[] = [];
  const kind: JobKind<{ n: number }> = {
    name,
    run: async (p, ctx) => void runs.push({ n: p.n, attempt: ctx.attempt, at: Date.now() }),
    ...extra,
  };
  return { kind, runs };
}

describe('enqueue in a transaction', () => {
  it('a rolled-back transaction enqueues nothing; a committed one enqueues its job, run once', async () => {
    const { kind, runs } = recorder('test-tx');
    jobs.define(kind);
    await expect(
      h.db.transaction().execute(async (trx) => {
        await jobs.enqueue('test-tx', { n: 1 }, { trx });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await h.db.transaction().execute(async (trx) => {
      await jobs.enqueue('test-tx', { n: 2 }, { trx });
    });
    await waitFor('the committed job', () => runs.length > 0);
    await sleep(1500); // the rolled-back one would have run by now
    expect(runs.map((r) => r.n)).toEqual([2]);
  });
});

describe('running', () => {
  it('jobs enqueued at once each run exactly once', async () => {
    const { kind, runs } = recorder('test-once');
    jobs.define(kind);
    const ns = Array.from({ length: 20 }, (_, i) => i);
    await Promise.all(ns.map((n) => jobs.enqueue('test-once', { n })));
    await waitFor('20 runs', () => runs.length >= 20);
    await sleep(1000);
    expect(runs.map((r) => r.n).sort((a, b) => a - b)).toEqual(ns);
    expect(runs.every((r) => r.attempt === 1)).toBe(true);
  });

  it('a retryable kind runs again after a failure, waiting longer each time; its last failure and any other kind’s first are final', async () => {
    const flaky = recorder('test-retry', { retry: { limit: 3, delaySeconds: 1 } });
    const run = flaky.kind.run;
    flaky.kind.run = async (p, ctx) => {
      await run(p, ctx);
      if (ctx.attempt < 3) throw new Error(`attempt ${ctx.attempt} fails`);
    };
    const spent = recorder('test-retry-spent', { retry: { limit: 1, delaySeconds: 0 } });
    const once = recorder('test-no-retry');
    for (const r of [spent, once]) {
      const inner = r.kind.run;
      r.kind.run = async (p, ctx) => {
        await inner(p, ctx);
        throw new Error('always fails');
      };
    }
    for (const r of [flaky, spent, once]) jobs.define(r.kind);
    await Promise.all([flaky, spent, once].map((r) => jobs.enqueue(r.kind.name, { n: 7 })));
    await waitFor('the third attempt', () => flaky.runs.length >= 3);
    expect(flaky.runs.map((r) => r.attempt)).toEqual([1, 2, 3]);
    const [a, b, c] = flaky.runs.map((r) => r.at);
    // Backoff: the first retry after 1–2 s, the second after 2–4 s (plus a poll).
    expect(b! - a!).toBeGreaterThanOrEqual(950);
    expect(c! - b!).toBeGreaterThanOrEqual(1950);
    expect(c! - b!).toBeGreaterThan(0.9 * (b! - a!));
    await sleep(3000);
    expect(flaky.runs).toHaveLength(3); // it succeeded: not run again
    expect(spent.runs.map((r) => r.attempt)).toEqual([1, 2]); // limit 1: one retry
    expect(once.runs.map((r) => r.attempt)).toEqual([1]);
  });

  it('a customer’s second heavy job waits behind another customer’s first', async () => {
    const started: string[] = [];
    const release = new Map<string, () => void>();
    jobs.define<{ id: string }>({
      name: 'test-heavy',
      run: (p) => {
        started.push(p.id);
        return new Promise<void>((r) => release.set(p.id, r));
      },
    });
    await jobs.enqueue('test-heavy', { id: 'c1-a' }, { customerId: 1, size: 'heavy' });
    await jobs.enqueue('test-heavy', { id: 'c1-b' }, { customerId: 1, size: 'heavy' });
    await jobs.enqueue('test-heavy', { id: 'c2-a' }, { customerId: 2, size: 'heavy' });
    await waitFor('two heavy jobs running', () => started.length >= 2);
    await sleep(1500);
    expect(started.sort()).toEqual(['c1-a', 'c2-a']);
    release.get('c1-a')!();
    await waitFor("customer 1's second job", () => started.includes('c1-b'));
    release.get('c2-a')!();
    release.get('c1-b')!();
  });

  it('a period’s job runs once however often its period is ticked, and once in each period', async () => {
    const { runs } = periodicRecorder(jobs, 'test-period-one');
    const P = 3_600_000;
    const t0 = Date.UTC(2001, 0, 1);
    for (const k of [0, 1, 2]) {
      await Promise.all([
        jobs.tick('test-period-one', new Date(t0 + k * P + 5)),
        jobs.tick('test-period-one', new Date(t0 + k * P + 60_000)),
      ]);
      await waitFor(`period ${k}`, () => runs.length >= k + 1);
    }
    await sleep(1500);
    expect(runs).toHaveLength(3);
  });
});

/** A periodic kind on an hour's period, never ticked by its schedule in the test's time (its periods are driven). */
function periodicRecorder(queue: JobQueue, name: string) {
  const runs: number[] = [];
  queue.every({ name, run: async () => void runs.push(Date.now()) }, { everyMs: 3_600_000, atStart: false });
  return { runs };
}

describe('two instances on one PostgreSQL', () => {
  it.runIf(pg)('a periodic job fires exactly once per period across both instances, over three periods', async () => {
    const b = await secondInstance(h, { env: ENV });
    // One recorder for both: a run on either instance counts.
    const runs: string[] = [];
    for (const [who, q] of [
      ['a', jobs],
      ['b', b.app.jobs],
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
        b.app.jobs.tick('test-period-two', new Date(t0 + k * P + 2)),
      ]);
      await waitFor(`period ${k}`, () => runs.length >= k + 1);
    }
    await sleep(2000);
    expect(runs).toHaveLength(3);
  });

  it.runIf(pg)('jobs enqueued on both instances at once each run exactly once', async () => {
    const b = await secondInstance(h, { env: ENV });
    const runs: number[] = [];
    const kind: JobKind<{ n: number }> = { name: 'test-once-two', run: async (p) => void runs.push(p.n) };
    jobs.define(kind);
    b.app.jobs.define(kind);
    const ns = Array.from({ length: 40 }, (_, i) => i);
    await Promise.all(ns.map((n) => (n % 2 ? jobs : b.app.jobs).enqueue('test-once-two', { n })));
    await waitFor('40 runs', () => runs.length >= 40);
    await sleep(1500);
    expect(runs.sort((x, y) => x - y)).toEqual(ns);
  });

  it.runIf(pg)('SERVER_ROLE=web enqueues only: its job runs on a worker instance', async () => {
    const web = await secondInstance(h, { env: { ...ENV, SERVER_ROLE: 'web' } });
    const ran: string[] = [];
    jobs.define({ name: 'test-role', run: async () => void ran.push('worker') });
    web.app.jobs.define({ name: 'test-role', run: async () => void ran.push('web') });
    for (let i = 0; i < 4; i++) await web.app.jobs.enqueue('test-role', {});
    await waitFor('4 runs', () => ran.length >= 4);
    await sleep(1000);
    expect(ran).toEqual(['worker', 'worker', 'worker', 'worker']);
  });

  it.runIf(pg)(
    'a job whose instance died is run by the other once its lease lapses, exactly once, and never while its owner lives',
    async () => {
      const owner = await secondInstance(h, { env: ENV });
      const other = await secondInstance(h, { env: ENV });
      const ran: { who: string; attempt: number }[] = [];
      let hold!: () => void;
      const held = new Promise<void>((r) => (hold = r));
      owner.app.jobs.define({
        name: 'test-orphan',
        run: async (_p, ctx) => {
          ran.push({ who: 'owner', attempt: ctx.attempt });
          await held; // still working when it dies
        },
      });
      await owner.app.jobs.enqueue('test-orphan', {});
      await waitFor('the owner to start it', () => ran.length > 0);
      other.app.jobs.define({
        name: 'test-orphan',
        run: async (_p, ctx) => void ran.push({ who: 'other', attempt: ctx.attempt }),
      });
      // A lease and a half: the owner's heartbeat keeps the job its own.
      await sleep(15_000);
      expect(ran).toEqual([{ who: 'owner', attempt: 1 }]);
      await owner.app.jobs.abandon();
      await waitFor('the other instance to take it over', () => ran.length > 1, 30_000);
      await sleep(2000);
      expect(ran).toEqual([
        { who: 'owner', attempt: 1 },
        { who: 'other', attempt: 2 },
      ]);
      hold();
    },
    60_000,
  );
});

import { beforeAll, describe, expect, it } from 'vitest';
import type { JobQueue } from '../src/lib/jobs.ts';
import { createHarness, type Harness } from './harness.ts';
import { periodicRecorder, recorder, sleep, waitFor } from './support/jobs.ts';

/**
 * The job queue (lib/jobs.ts, issue 27) on the database the suite runs on: pg-boss on
 * PostgreSQL, the in-process runner on SQLite, behind the same interface. The two-instance cases
 * are in jobs-instances.pg.test.ts (PostgreSQL only).
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
    // All three at once (one transaction): a worker polling between separate enqueues would see
    // customer 1 alone, and running its second job while nobody else waits is right.
    await h.db.transaction().execute(async (trx) => {
      await jobs.enqueue('test-heavy', { id: 'c1-a' }, { customerId: 1, size: 'heavy', trx });
      await jobs.enqueue('test-heavy', { id: 'c1-b' }, { customerId: 1, size: 'heavy', trx });
      await jobs.enqueue('test-heavy', { id: 'c2-a' }, { customerId: 2, size: 'heavy', trx });
    });
    await waitFor('two heavy jobs running', () => started.length >= 2);
    await sleep(1500);
    // Customer 2's first runs beside one of customer 1's, never customer 1's two together. (In
    // one transaction both of customer 1's have the same enqueue time, so which goes first is open.)
    expect(started).toHaveLength(2);
    expect(started).toContain('c2-a');
    const first = started.find((id) => id !== 'c2-a')!;
    expect(['c1-a', 'c1-b']).toContain(first);
    release.get(first)!();
    const second = first === 'c1-a' ? 'c1-b' : 'c1-a';
    await waitFor("customer 1's second job", () => started.includes(second));
    release.get('c2-a')!();
    release.get(second)!();
  });

  it('heavy jobs enqueued without a key share one: two of them never hold both slots (issue 36 #2)', async () => {
    const started: string[] = [];
    const release = new Map<string, () => void>();
    jobs.define<{ id: string }>({
      name: 'test-heavy-keyless',
      run: (p) => {
        started.push(p.id);
        return new Promise<void>((r) => release.set(p.id, r));
      },
    });
    await h.db.transaction().execute(async (trx) => {
      await jobs.enqueue('test-heavy-keyless', { id: 'none-a' }, { size: 'heavy', trx });
      await jobs.enqueue('test-heavy-keyless', { id: 'none-b' }, { size: 'heavy', trx });
      await jobs.enqueue('test-heavy-keyless', { id: 'c2-a' }, { customerId: 2, size: 'heavy', trx });
    });
    await waitFor('two heavy jobs running', () => started.length >= 2);
    // Claimed beside one keyless job: customer 2's (before, both keyless ones took the two slots).
    expect(started).toContain('c2-a');
    const first = started.find((id) => id !== 'c2-a')!;
    release.get(first)!();
    const second = first === 'none-a' ? 'none-b' : 'none-a';
    await waitFor('the second keyless job, once the first ended', () => started.includes(second));
    release.get('c2-a')!();
    release.get(second)!();
  });

  it('a customer’s heavy job of another kind: held on the embedded runner (shared slots), beside it on pg-boss (slots per kind)', async () => {
    // docs/decisions/2026-11-27-heavy-jobs-one-slot-per-customer.md
    const started: string[] = [];
    const release = new Map<string, () => void>();
    const run = (p: { id: string }) => {
      started.push(p.id);
      return new Promise<void>((r) => release.set(p.id, r));
    };
    jobs.define<{ id: string }>({ name: 'test-heavy-x', run });
    jobs.define<{ id: string }>({ name: 'test-heavy-y', run });
    await jobs.enqueue('test-heavy-x', { id: 'c1-x' }, { customerId: 1, size: 'heavy' });
    await waitFor("customer 1's first job", () => started.includes('c1-x'));
    await jobs.enqueue('test-heavy-y', { id: 'c1-y' }, { customerId: 1, size: 'heavy' });
    await jobs.enqueue('test-heavy-y', { id: 'c2-y' }, { customerId: 2, size: 'heavy' });
    await waitFor("customer 2's job", () => started.includes('c2-y'));
    if (pg) await waitFor("customer 1's job of the other kind", () => started.includes('c1-y'));
    else {
      // Polled for a second more: customer 1's second heavy job does not start while their first runs.
      await sleep(1000);
      expect(started).toEqual(['c1-x', 'c2-y']);
      release.get('c1-x')!();
      await waitFor("customer 1's second job, once their first ended", () => started.includes('c1-y'));
    }
    for (const r of release.values()) r();
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

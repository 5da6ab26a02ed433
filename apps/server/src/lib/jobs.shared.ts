import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { isTransientDatabaseError } from '../db/transient-errors.ts';
import type { DB } from '../db/schema.ts';

/**
 * The job queue's interface and the helpers both of its implementations share (jobs.memory.ts,
 * jobs.pg.ts): here rather than in jobs.ts, which picks an implementation, so no import goes round
 * in a circle. Modules import all of it from jobs.ts.
 */

/** Heavy jobs are the ones a customer gets one of at a time, so theirs never hold another's. */
export type JobSize = 'small' | 'heavy';

export interface JobContext {
  /** 1 on the first run, 2 on the first retry, … */
  attempt: number;
  /** Aborted when the queue stops or the job's lease is lost: a long job should stop. */
  signal: AbortSignal;
  /**
   * Whether the queue runs this job again if the run ends with `err` (rethrown): a handler that
   * records its own failure (a batch, a print job) rethrows instead while this is true, so a
   * transient database error (a restart, a failover) does not fail its work for good (issue 38 row 2).
   */
  runsAgainAfter(err: unknown): boolean;
}

export interface JobKind<P = unknown> {
  /** Letters, digits, `-` and `_`: also pg-boss's queue name. */
  name: string;
  run(payload: P, ctx: JobContext): Promise<void>;
  /**
   * Retryable kinds run again after a failure, `limit` times at most, waiting `delaySeconds`
   * doubled at each retry (with jitter, up to twice that). Unset: a failure is final.
   */
  retry?: { limit: number; delaySeconds: number };
  /** At most one waiting or running job per `singletonKey`; a second enqueue is dropped. */
  exclusive?: boolean;
  /** pg-boss: how often workers look for this kind's jobs, when it must start sooner than JOB_POLL_SECONDS. */
  pollSeconds?: number;
  /**
   * The embedded runner only: a job is run by the process that enqueued it (its input is in that
   * process's hands), and one left by a process that died is failed at the next start, never
   * left queued. pg-boss runs it on any worker instance.
   */
  processBound?: boolean;
  /**
   * A lane of its own with `slots` per instance (issue 39, webhook deliveries): the kind's jobs
   * never take the shared slots (renders, imports) and never wait for them; in the lane, a fairness
   * key (`customerId`) runs at most `perTenant` jobs at once per instance, so one tenant's slow jobs
   * hold that share at most and the others' go round them. A lane keeps fetching while it finds
   * work, rather than waiting a poll between jobs.
   */
  lane?: { slots: number; perTenant: number };
  /**
   * The queue gave up on a job of this kind: its runs kept being cut short (the process running it
   * died, or its lease or time ran out) past INTERRUPTED_RERUNS, so it never ran to an end that the
   * handler could record. The owner's record (a batch, a print job) is failed here with `reason`,
   * a message key, rather than left running for good. Must leave a record already ended alone.
   */
  gaveUp?(payload: P, reason: GaveUpReason): Promise<void>;
}

/** Why the queue gave up on a job: a message key (contract's messages) the owner's record shows. */
export type GaveUpReason = 'jobStoppedTooOften';

/**
 * A job that was running when its process ended (killed, crashed, out of memory, a deploy) is run
 * again at most this many times; past it, it is failed with `jobStoppedTooOften` and its kind's
 * `gaveUp` is told. Without a cap, a job that kills its process each time was re-queued at every
 * start, and a supervisor restarting the instance made a crash loop of it (issue 38 row 8).
 */
export const INTERRUPTED_RERUNS = 3;

export interface EnqueueOptions {
  /** The transaction of the change that asks for the job: a rollback enqueues nothing. */
  trx?: Kysely<DB>;
  /**
   * Fairness key (lib/fair-turns.ts `queueKeyOf`): a customer's id, or for an agent's or staff's
   * own work the negative of their user id. A tenant's heavy jobs run one at a time, whatever
   * their number. Heavy jobs without one share a single key (issue 36 #2: keyless heavy jobs
   * once passed every gate), so a job a user starts must carry the user's.
   */
  customerId?: number | null;
  size?: JobSize;
  /** With an `exclusive` kind: the key of "one at a time". */
  singletonKey?: string;
}

export interface PeriodicOptions {
  /** The period; 0: never (the job is not scheduled at all). */
  everyMs: number;
  /** Also run now, unless one already ran in the current period on any instance. */
  atStart: boolean;
  /**
   * A cheap read: whether the period's job has anything to do. When it says no, the schedule writes
   * no job for that period. A kind that checks often for rare work (the webhook relay, every
   * second) would otherwise write, claim and finish a queue row every period for nothing: on SQLite
   * that is the one writer's time, and the e2e fixtures' writes met it.
   */
  due?: () => Promise<boolean>;
}

export interface JobQueue {
  readonly backend: 'pg-boss' | 'memory';
  /** Defines a kind before start. */
  define<P>(kind: JobKind<P>): void;
  /** Enqueues a job of a defined kind (from any role: web instances enqueue, workers run). */
  enqueue<P>(kind: string, payload: P, opts?: EnqueueOptions): Promise<void>;
  /**
   * This instance looks for the kind's jobs now rather than at its next poll: called once the
   * transaction that enqueued one (`trx`) has committed, which the queue cannot see. A job waited
   * half a poll on average (125 ms of a 1 s 10,000-row import, twice: parse and commit; issue 29).
   * Another instance still takes it at its own poll; without `trx` the enqueue wakes the queue itself.
   */
  wake(kind: string): void;
  /**
   * Defines a periodic kind: one job per period across all instances (workers schedule it),
   * never two running at once. `everyMs` 0: defined but never scheduled.
   */
  every(kind: JobKind<Record<string, never>>, opts: PeriodicOptions): void;
  /**
   * Enqueues the periodic job of the period that contains `at`, once across instances: what the
   * schedule does at each period's start. Exposed so tests drive the schedule.
   */
  tick(kind: string, at: Date): Promise<void>;
  /**
   * Opens the queue: jobs can be enqueued (modules recover their work while the app is built), none
   * runs. buildApp opens it.
   */
  open(): Promise<void>;
  /**
   * Starts running jobs (a worker: SERVER_ROLE `worker` or `all`) and the periodic schedules: called
   * once the server listens (server.ts), so no job due at start can hold up the HTTP plugins'
   * loading (issue 38 row 8: the storage accrual due at start made `@fastify/static` miss its
   * plugin timeout and the process exit). Opens the queue first if it is not.
   */
  start(): Promise<void>;
  /**
   * Whether an instance that runs jobs has been heard from within a lease (JOB_LEASE_SECONDS):
   * what a `web` instance's readiness needs, since every import and download waits on one.
   */
  workerSeen(): Promise<boolean>;
  /** Stops taking jobs and waits for the ones running. */
  stop(): Promise<void>;
  /**
   * Tests only: what a crash does. The instance drops its database connections at once: its
   * running jobs stay claimed, their lease lapses, and another instance takes them over.
   */
  abandon(): Promise<void>;
}

export interface JobQueueDeps {
  config: Config;
  db: Database;
  log: {
    warn(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
}

/** Whether this instance runs jobs (SERVER_ROLE): `web` instances only enqueue. */
export function runsJobs(config: Config): boolean {
  return config.SERVER_ROLE !== 'web';
}

/**
 * Periods are slots of the epoch (`floor(t / period)`): every instance computes the same slot,
 * so "this period's job" is one name across instances, and a job per slot is what runs once per
 * period.
 */
export function slotOf(at: Date, everyMs: number): number {
  return Math.floor(at.getTime() / everyMs);
}

/** Scheduling ticks at least this often, so a period starts within it on some instance. */
const SCHEDULE_TICK_MS = 60_000;

/**
 * A periodic kind's schedule, the same for every backend: ticks at least every minute (or every
 * period, if shorter) and hands each to `tick`, which makes one job per period across instances.
 * Unless `atStart`, the period the instance started in is left to the instances already running.
 */
export function scheduleTicks(
  name: string,
  opts: PeriodicOptions,
  tick: (name: string, at: Date) => Promise<void>,
  log: JobQueueDeps['log'],
) {
  const startSlot = slotOf(new Date(), opts.everyMs);
  return scheduleClock({
    everyMs: Math.min(opts.everyMs, SCHEDULE_TICK_MS),
    run: async () => {
      const now = new Date();
      if (!opts.atStart && slotOf(now, opts.everyMs) === startSlot) return;
      if (opts.due && !(await opts.due())) return;
      await tick(name, now);
    },
    onError: (err) => log.warn({ err, kind: name }, 'job schedule failed'),
  });
}

/**
 * The schedule's clock: `run` once at start, then at every multiple of `everyMs` from the start
 * (0: never), as one awaited loop, not a timer callback. A run is awaited before the next, so
 * runs never overlap; the marks a long run passed are skipped. Errors go to `onError` and the
 * clock goes on. `stop()` aborts the wait and resolves once a run under way has ended, so the
 * database is closed only after it. The wait does not keep the process alive.
 */
export function scheduleClock(opts: { everyMs: number; run: () => Promise<unknown>; onError: (err: unknown) => void }) {
  if (!opts.everyMs) return { stop: async () => {} };
  const stopping = new AbortController();
  const startedAt = Date.now();
  const loop = (async () => {
    while (!stopping.signal.aborted) {
      try {
        await opts.run();
      } catch (err) {
        opts.onError(err);
      }
      const untilNextMark = opts.everyMs - ((Date.now() - startedAt) % opts.everyMs);
      await sleep(untilNextMark, undefined, { signal: stopping.signal, ref: false }).catch(() => {});
    }
  })();
  return {
    async stop() {
      stopping.abort();
      await loop;
    },
  };
}

/** Delay before retry `attempt` (1-based): delay × 2^(attempt−1), plus up to as much jitter (pg-boss's curve). */
export function retryDelayMs(delaySeconds: number, attempt: number): number {
  const base = Math.max(delaySeconds, 0) * 2 ** Math.min(16, attempt - 1) * 1000;
  return base + base * Math.random();
}

/**
 * Runs any kind gets after a transient database error (`isTransientDatabaseError`: a connection
 * lost to a restart or a failover, a serialization failure, a busy SQLite) besides its own retry
 * policy, waiting TRANSIENT_DELAY_SECONDS doubled at each (with jitter): 1–2, 2–4, 4–8 s. Bounded:
 * past them the error is final like any other (issue 38 row 2).
 */
export const TRANSIENT_RETRIES = 3;
export const TRANSIENT_DELAY_SECONDS = 1;

/** Whether a run `attempt` (1-based) of `kind` that failed with `err` is run again: one rule for both runners. */
export function retriesAfter(kind: JobKind<any>, err: unknown, attempt: number): boolean {
  const own = kind.retry?.limit ?? 0;
  if (attempt <= own) return true;
  return isTransientDatabaseError(err) && attempt <= own + TRANSIENT_RETRIES;
}

/** The wait before the retry of run `attempt`: the kind's own curve, or the transient one's. */
export function retryDelaySecondsOf(kind: JobKind<any>): number {
  return kind.retry?.delaySeconds ?? TRANSIENT_DELAY_SECONDS;
}

export const KIND_NAME = /^[A-Za-z0-9_-]+$/;

/** The fairness key heavy jobs enqueued without one share: never a customer's or a user's (ids start at 1). */
export const NO_TENANT = 0;

import { randomBytes } from 'node:crypto';
import { runAsJob } from './job-scope.ts';
import type { JobKind, JobQueue, JobQueueDeps, PeriodicOptions } from './jobs.shared.ts';
import {
  INTERRUPTED_RERUNS,
  KIND_NAME,
  NO_TENANT,
  retriesAfter,
  retryDelayMs,
  retryDelaySecondsOf,
  runsJobs,
  scheduleTicks,
  slotOf,
} from './jobs.shared.ts';

/** Jobs run at once in the process (the work itself is in worker threads where it is heavy). */
const CONCURRENCY = 2;
/**
 * One more that only small jobs may take (issue 27): a template or a one-page export never waits
 * behind heavy jobs, even when two customers' heavy ones hold both slots above.
 */
const SMALL_SLOTS = 1;
/** How often the table is looked at besides the pokes: catches commits of enqueuing transactions and due retries. */
const POLL_MS = 250;
/** Finished rows are kept this long (what ran, what failed and why), then dropped at start. */
const KEEP_DAYS = 14;
const PERIODIC_KEY = 'periodic';

/**
 * The queues running in this process, by owner tag: a process-bound job of this pid whose queue
 * is not here was left by an earlier process that had the same pid (a container restarts as pid
 * 1). On globalThis: tests may load this module twice in one process.
 */
const LIVE_OWNERS: Set<string> = ((globalThis as Record<symbol, unknown>)[Symbol.for('console.jobs.owners')] ??=
  new Set<string>()) as Set<string>;
/** `<kind>@<pid>.<boot>`: the kind a process-bound job is stored under. */
const BOUND = /@(\d+)\.([0-9a-f]+)$/;

/** Whether the process `pid` is running (on this machine: the embedded default is one machine). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The queue on the embedded SQLite default: one process, so an in-process runner, over the
 * `job_queue` table so that an enqueue inside a transaction commits or rolls back with it and a
 * job left running by a stopped process is run again at the next start. Same interface and the
 * same promises as pg-boss (jobs.pg.ts): retries with the same backoff, one heavy job per
 * customer at a time, exclusive keys, periodic kinds once per period and never two at once.
 */
export function memoryJobQueue({ config, db, log }: JobQueueDeps): JobQueue {
  const worker = runsJobs(config);
  /** Kinds by the name their jobs are stored under (a process-bound one's carries this queue's owner tag). */
  const kinds = new Map<string, JobKind<any>>();
  const storedNames = new Map<string, string>();
  const owner = `${process.pid}.${randomBytes(6).toString('hex')}`;
  const periodic = new Map<string, PeriodicOptions>();
  const lastSlot = new Map<string, number>();
  const timers: { stop(): Promise<void> }[] = [];
  const running = new Set<Promise<void>>();
  let heavyRunning = 0;
  const stopping = new AbortController();
  let poller: NodeJS.Timeout | null = null;
  let pumping: Promise<void> | null = null;
  let pumpAgain = false;
  let started = false;
  let stopped = false;

  const nowIso = () => new Date().toISOString();

  /** Tenants' turns: when each fairness key (`customer_id`) last had a job claimed, per lane ('' the shared one). */
  const turns = new Map<string, Map<number | null, number>>();
  let served = 0;
  /** Jobs running in each kind's own lane (`JobKind.lane`), by stored kind name. */
  const laneRunning = new Map<string, number>();

  /**
   * The next job due: the oldest of the tenant served longest ago, skipping heavy jobs of tenants
   * that already have one running (and all heavy ones unless `heavyToo`). Tenants take turns, small
   * jobs too (issue 36 #3): first come, first served let one tenant's thirty small renders hold
   * another's one-page export behind all of them.
   * `lane`: the next job of that kind alone, in its own lane (`JobKind.lane`), skipping tenants that
   * already have their share of it running; without it, kinds with a lane are left out.
   */
  const claim = async (heavyToo: boolean, lane?: string) => {
    const share = lane ? kinds.get(lane)!.lane!.perTenant : 1;
    const names = lane ? [lane] : [...kinds].filter(([, k]) => !k.lane).map(([n]) => n);
    if (!names.length) return null;
    const heads = await db
      .selectFrom('job_queue as j')
      .select((eb) => ['j.customer_id', eb.fn.min<number>('j.id').as('id')])
      .where('j.state', '=', 'queued')
      .$if(!heavyToo, (q) => q.where('j.size', '!=', 'heavy'))
      .where('j.run_after', '<=', nowIso())
      .where('j.kind', 'in', names)
      .where((eb) => {
        // Tenants at their share: one uncorrelated read of the running rows (a correlated count per
        // queued row cost 11 ms a claim with a thousand deliveries waiting).
        const busy = eb
          .selectFrom('job_queue as a')
          .select('a.customer_id')
          .where('a.state', '=', 'active')
          .where('a.customer_id', 'is not', null)
          .$if(!lane, (q) => q.where('a.size', '=', 'heavy').where('a.kind', 'in', names))
          .$if(!!lane, (q) => q.where('a.kind', '=', lane!))
          .groupBy('a.customer_id')
          .having((a) => a.fn.countAll(), '>=', share);
        const free = eb.or([eb('j.customer_id', 'is', null), eb('j.customer_id', 'not in', busy)]);
        // In a lane every job is gated by its tenant's share; elsewhere only heavy ones are, one each.
        return lane ? free : eb.or([eb('j.size', '!=', 'heavy'), free]);
      })
      .groupBy('j.customer_id')
      .execute();
    const servedAt = turns.get(lane ?? '') ?? turns.set(lane ?? '', new Map()).get(lane ?? '')!;
    const turnOf = (key: number | null) => servedAt.get(key) ?? 0;
    let head: (typeof heads)[number] | undefined;
    for (const h of heads) {
      if (!head || turnOf(h.customer_id) < turnOf(head.customer_id)) head = h;
      else if (turnOf(h.customer_id) === turnOf(head.customer_id) && h.id < head.id) head = h;
    }
    if (!head) return null;
    // Taken and read in one statement (a read then an update were two trips, the update on the one
    // writer, for every job: a webhook delivery's among them). Still only while it is queued.
    const took = await db
      .updateTable('job_queue')
      .set((eb) => ({ state: 'active', attempts: eb('attempts', '+', 1) }))
      .where('id', '=', head.id)
      .where('state', '=', 'queued')
      .returningAll()
      .executeTakeFirst();
    if (!took) return null;
    servedAt.set(took.customer_id, ++served);
    return took;
  };

  const execute = async (job: NonNullable<Awaited<ReturnType<typeof claim>>>) => {
    const kind = kinds.get(job.kind)!;
    try {
      await runAsJob(kind.name, () =>
        kind.run(JSON.parse(job.payload), {
          attempt: job.attempts,
          signal: stopping.signal,
          runsAgainAfter: (err) => retriesAfter(kind, err, job.attempts),
        }),
      );
      await db
        .updateTable('job_queue')
        .set({ state: 'done', finished_at: nowIso() })
        .where('id', '=', job.id)
        .execute();
    } catch (err) {
      const retry = retriesAfter(kind, err, job.attempts);
      if (!retry) log.error({ err, kind: job.kind }, 'job failed');
      await db
        .updateTable('job_queue')
        .set(
          retry
            ? {
                state: 'queued',
                run_after: new Date(Date.now() + retryDelayMs(retryDelaySecondsOf(kind), job.attempts)).toISOString(),
                last_error: String((err as Error)?.message ?? err).slice(0, 500),
              }
            : {
                state: 'failed',
                finished_at: nowIso(),
                last_error: String((err as Error)?.message ?? err).slice(0, 500),
              },
        )
        .where('id', '=', job.id)
        .execute();
    }
  };

  /** Runs a claimed job; `done` gives its slot back. */
  const launch = (job: NonNullable<Awaited<ReturnType<typeof claim>>>, done: () => void) => {
    const p: Promise<void> = execute(job)
      .catch((err) => log.error({ err, kind: job.kind }, 'job bookkeeping failed'))
      .finally(() => {
        done();
        running.delete(p);
        pump();
      });
    running.add(p);
  };

  const pump = () => {
    if (!worker || !started || stopped) return;
    // A slot freed (or a job enqueued) while a pass runs: another pass right after it, rather than
    // the next poll (a delivery lane would otherwise idle up to POLL_MS between its jobs).
    if (pumping) {
      pumpAgain = true;
      return;
    }
    pumping = (async () => {
      while (!stopped && running.size - lanesRunning() < CONCURRENCY + SMALL_SLOTS) {
        const job = await claim(heavyRunning < CONCURRENCY);
        if (!job) break;
        const heavy = job.size === 'heavy';
        if (heavy) heavyRunning++;
        launch(job, () => void (heavy && heavyRunning--));
      }
      // Each kind with a lane of its own fills its own slots (JobKind.lane).
      for (const [name, kind] of kinds) {
        if (!kind.lane) continue;
        while (!stopped && (laneRunning.get(name) ?? 0) < kind.lane.slots) {
          const job = await claim(true, name);
          if (!job) break;
          laneRunning.set(name, (laneRunning.get(name) ?? 0) + 1);
          launch(job, () => laneRunning.set(name, laneRunning.get(name)! - 1));
        }
      }
    })()
      .catch((err) => log.warn({ err }, 'job queue poll failed'))
      .finally(() => {
        pumping = null;
        if (pumpAgain) {
          pumpAgain = false;
          pump();
        }
      });
  };

  const lanesRunning = () => [...laneRunning.values()].reduce((a, b) => a + b, 0);

  const insert = async (
    name: string,
    payload: unknown,
    opts: { trx?: JobQueueDeps['db']; customerId?: number | null; size?: string; singletonKey?: string | null },
  ) => {
    const at = nowIso();
    await (opts.trx ?? db)
      .insertInto('job_queue')
      .values({
        kind: name,
        payload: JSON.stringify(payload ?? {}),
        // Keyless heavy jobs share one key: none passes the gate above (issue 36 #2).
        customer_id: opts.customerId ?? (opts.size === 'heavy' ? NO_TENANT : null),
        size: opts.size ?? 'small',
        singleton_key: opts.singletonKey ?? null,
        state: 'queued',
        run_after: at,
        created_at: at,
      })
      // An exclusive kind's key already waiting or running: this one is dropped.
      .onConflict((oc) => oc.doNothing())
      .execute();
    if (!opts.trx) setImmediate(pump);
  };

  const define = (kind: JobKind<any>) => {
    if (!KIND_NAME.test(kind.name)) throw new Error(`bad job kind ${kind.name}`);
    const stored = kind.processBound ? `${kind.name}@${owner}` : kind.name;
    storedNames.set(kind.name, stored);
    kinds.set(stored, kind);
  };

  /**
   * Process-bound jobs whose process has ended (killed, crashed) are failed: nothing can run them
   * (their kind is that process's) and no one waits for them (their asker was in it).
   */
  const failOrphans = async () => {
    const bound = await db
      .selectFrom('job_queue')
      .select(['id', 'kind'])
      .where('state', 'in', ['queued', 'active'])
      .where('kind', 'like', '%@%')
      .execute();
    const dead = bound
      .filter((j) => {
        const m = BOUND.exec(j.kind);
        if (!m) return false;
        const pid = Number(m[1]);
        return pid === process.pid ? !LIVE_OWNERS.has(`${m[1]}.${m[2]}`) : !processAlive(pid);
      })
      .map((j) => j.id);
    if (!dead.length) return;
    await db
      .updateTable('job_queue')
      .set({ state: 'failed', finished_at: nowIso(), last_error: 'the process that asked for it ended' })
      .where('id', 'in', dead)
      .execute();
    log.warn({ jobs: dead.length }, 'jobs of an ended process failed');
  };

  /**
   * Jobs left running by the last process (it ended mid-run) are run again, INTERRUPTED_RERUNS
   * times at most: each such start counts one interruption, and a job past the cap is failed with
   * its reason and its kind told (`gaveUp`), so a job that kills its process is not run at every
   * start (issue 38 row 8). A kind this version no longer defines is re-queued as before.
   */
  const requeueInterrupted = async () => {
    const left = await db
      .selectFrom('job_queue')
      .select(['id', 'kind', 'payload', 'interruptions'])
      .where('state', '=', 'active')
      .where('kind', 'not like', '%@%')
      .execute();
    for (const job of left) {
      const interruptions = job.interruptions + 1;
      const rerun = interruptions <= INTERRUPTED_RERUNS;
      const moved = await db
        .updateTable('job_queue')
        .set(
          rerun
            ? { state: 'queued', interruptions }
            : { state: 'failed', interruptions, finished_at: nowIso(), last_error: 'jobStoppedTooOften' },
        )
        .where('id', '=', job.id)
        .where('state', '=', 'active')
        .executeTakeFirst();
      if (rerun || !moved.numUpdatedRows) continue;
      log.warn({ kind: job.kind, jobId: job.id, interruptions }, 'job stopped too often: failed');
      await kinds
        .get(job.kind)
        ?.gaveUp?.(JSON.parse(job.payload), 'jobStoppedTooOften')
        .catch((err: unknown) => log.error({ err, kind: job.kind }, 'job given up, its record not updated'));
    }
  };

  const tick = async (name: string, at: Date) => {
    const opts = periodic.get(name);
    if (!opts) throw new Error(`${name} is not periodic`);
    const slot = slotOf(at, opts.everyMs);
    if (lastSlot.get(name) === slot) return;
    lastSlot.set(name, slot);
    // The key: a tick while the last period's run still waits or runs is skipped, as a period's
    // job never runs twice at once.
    await insert(name, {}, { singletonKey: PERIODIC_KEY });
  };

  const schedule = (name: string, opts: PeriodicOptions) => {
    timers.push(scheduleTicks(name, opts, tick, log));
  };

  return {
    backend: 'memory',
    define,
    async enqueue(name, payload, opts = {}) {
      const stored = storedNames.get(name);
      const kind = stored && kinds.get(stored);
      if (!kind) throw new Error(`unknown job kind ${name}`);
      await insert(stored, payload, { ...opts, singletonKey: kind.exclusive ? (opts.singletonKey ?? name) : null });
    },
    wake() {
      setImmediate(pump);
    },
    every(kind, opts) {
      define(kind);
      if (!opts.everyMs) return;
      periodic.set(kind.name, opts);
      if (started && worker) schedule(kind.name, opts);
    },
    tick,
    async open() {
      // Nothing to open: enqueues are rows, and this queue's process-bound kinds are its own from now.
      LIVE_OWNERS.add(owner);
    },
    async start() {
      // Stopped meanwhile (a signal between listen and here): nothing is started after a stop.
      if (started || stopped) return;
      started = true;
      LIVE_OWNERS.add(owner);
      if (!worker) return;
      // One process: what was running when the last one stopped has no owner any more. A
      // process-bound job is its process's alone: failed if that process ended, else left to it.
      await requeueInterrupted();
      await failOrphans();
      const old = new Date(Date.now() - KEEP_DAYS * 86_400_000).toISOString();
      await db
        .deleteFrom('job_queue')
        .where('state', 'in', ['done', 'failed'])
        .where('finished_at', '<', old)
        .execute();
      for (const [name, opts] of periodic) schedule(name, opts);
      poller = setInterval(pump, POLL_MS);
      poller.unref();
      pump();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      LIVE_OWNERS.delete(owner);
      if (poller) clearInterval(poller);
      await Promise.all(timers.map((t) => t.stop()));
      await pumping;
      // Running jobs finish (a long one sees the signal and may stop early); the database closes after.
      stopping.abort();
      await Promise.all(running);
    },
    async abandon() {
      throw new Error('one process: nothing to abandon on the embedded runner');
    },
    // One process: when it runs, the worker is this process.
    workerSeen: async () => true,
  };
}

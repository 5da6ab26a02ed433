import { runAsJob } from './job-scope.ts';
import type { JobKind, JobQueue, JobQueueDeps, PeriodicOptions } from './jobs.ts';
import { KIND_NAME, retryDelayMs, runsJobs, scheduleTicks, slotOf } from './jobs.ts';

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
 * The queue on the embedded SQLite default: one process, so an in-process runner, over the
 * `job_queue` table so that an enqueue inside a transaction commits or rolls back with it and a
 * job left running by a stopped process is run again at the next start. Same interface and the
 * same promises as pg-boss (jobs.pg.ts): retries with the same backoff, one heavy job per
 * customer at a time, exclusive keys, periodic kinds once per period and never two at once.
 */
export function memoryJobQueue({ config, db, log }: JobQueueDeps): JobQueue {
  const worker = runsJobs(config);
  const kinds = new Map<string, JobKind<any>>();
  const periodic = new Map<string, PeriodicOptions>();
  const lastSlot = new Map<string, number>();
  const timers: { stop(): Promise<void> }[] = [];
  const running = new Set<Promise<void>>();
  let heavyRunning = 0;
  const stopping = new AbortController();
  let poller: NodeJS.Timeout | null = null;
  let pumping: Promise<void> | null = null;
  let started = false;
  let stopped = false;

  const nowIso = () => new Date().toISOString();

  /** The next job due, oldest first, skipping heavy jobs of customers that already have one running (and all heavy ones unless `heavyToo`). */
  const claim = async (heavyToo: boolean) => {
    const names = [...kinds.keys()];
    if (!names.length) return null;
    const next = await db
      .selectFrom('job_queue as j')
      .selectAll()
      .where('j.state', '=', 'queued')
      .$if(!heavyToo, (q) => q.where('j.size', '!=', 'heavy'))
      .where('j.run_after', '<=', nowIso())
      .where('j.kind', 'in', names)
      .where((eb) =>
        eb.or([
          eb('j.size', '!=', 'heavy'),
          eb('j.customer_id', 'is', null),
          eb.not(
            eb.exists(
              eb
                .selectFrom('job_queue as a')
                .select('a.id')
                .where('a.state', '=', 'active')
                .where('a.size', '=', 'heavy')
                .whereRef('a.customer_id', '=', 'j.customer_id'),
            ),
          ),
        ]),
      )
      .orderBy('j.id')
      .limit(1)
      .executeTakeFirst();
    if (!next) return null;
    const took = await db
      .updateTable('job_queue')
      .set({ state: 'active', attempts: next.attempts + 1 })
      .where('id', '=', next.id)
      .where('state', '=', 'queued')
      .executeTakeFirst();
    return took.numUpdatedRows ? { ...next, attempts: next.attempts + 1 } : null;
  };

  const execute = async (job: NonNullable<Awaited<ReturnType<typeof claim>>>) => {
    const kind = kinds.get(job.kind)!;
    try {
      await runAsJob(job.kind, () =>
        kind.run(JSON.parse(job.payload), { attempt: job.attempts, signal: stopping.signal }),
      );
      await db
        .updateTable('job_queue')
        .set({ state: 'done', finished_at: nowIso() })
        .where('id', '=', job.id)
        .execute();
    } catch (err) {
      const retry = kind.retry && job.attempts <= kind.retry.limit;
      if (!retry) log.error({ err, kind: job.kind }, 'job failed');
      await db
        .updateTable('job_queue')
        .set(
          retry
            ? {
                state: 'queued',
                run_after: new Date(Date.now() + retryDelayMs(kind.retry!.delaySeconds, job.attempts)).toISOString(),
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

  const pump = () => {
    if (!worker || !started || stopped) return;
    pumping ??= (async () => {
      while (!stopped && running.size < CONCURRENCY + SMALL_SLOTS) {
        const job = await claim(heavyRunning < CONCURRENCY);
        if (!job) break;
        const heavy = job.size === 'heavy';
        if (heavy) heavyRunning++;
        const p: Promise<void> = execute(job)
          .catch((err) => log.error({ err, kind: job.kind }, 'job bookkeeping failed'))
          .finally(() => {
            if (heavy) heavyRunning--;
            running.delete(p);
            pump();
          });
        running.add(p);
      }
    })()
      .catch((err) => log.warn({ err }, 'job queue poll failed'))
      .finally(() => (pumping = null));
  };

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
        customer_id: opts.customerId ?? null,
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
    kinds.set(kind.name, kind);
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
      const kind = kinds.get(name);
      if (!kind) throw new Error(`unknown job kind ${name}`);
      await insert(name, payload, { ...opts, singletonKey: kind.exclusive ? (opts.singletonKey ?? name) : null });
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
    async start() {
      if (started) return;
      started = true;
      if (!worker) return;
      // One process: what was running when the last one stopped has no owner any more.
      await db.updateTable('job_queue').set({ state: 'queued' }).where('state', '=', 'active').execute();
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
  };
}

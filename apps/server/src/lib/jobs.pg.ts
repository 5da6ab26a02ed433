import { createHash } from 'node:crypto';
import pg from 'pg';
import type { PostgresConnection } from '../config.ts';
import { pgClientOptions } from '../db/pg-connection.ts';
import { fromKysely, PgBoss } from 'pg-boss';
import { runAsJob } from './job-scope.ts';
import type { EnqueueOptions, JobKind, JobQueue, JobQueueDeps, PeriodicOptions } from './jobs.shared.ts';
import {
  INTERRUPTED_RERUNS,
  KIND_NAME,
  NO_TENANT,
  retriesAfter,
  retryDelaySecondsOf,
  runsJobs,
  scheduleTicks,
  slotOf,
  TRANSIENT_RETRIES,
} from './jobs.shared.ts';

/** pg-boss's own schema in the product's database. */
const SCHEMA = 'pgboss';
/**
 * Times an orphaned job (its instance stopped refreshing the lease) is given to another
 * instance: pg-boss hands an orphan over as a retry, so a kind that is not retryable on its own
 * errors still gets these (its errors end the job instead, see `handler`).
 */
const ORPHAN_RETRIES = INTERRUPTED_RERUNS;
/** A transient database error's retries (jobs.shared.ts) come out of the same budget as orphans'. */
const SPARE_RETRIES = Math.max(ORPHAN_RETRIES, TRANSIENT_RETRIES);
/** The queue's own connections per instance (README, "Several instances": the connection count). */
const POOL_SIZE = 4;
/** A job's hard limit, lease or not: past it the job is failed (and retried if it may). */
const EXPIRE_SECONDS = 4 * 3600;
/**
 * Where pg-boss puts a job of a kind with `gaveUp` once it has failed for good without its handler
 * having recorded the end (dead letter queue): its runs were cut short (lease lapsed, time out) more
 * than its retries allow. A worker takes it from there and tells the kind (issue 38 row 8).
 */
const gaveUpQueue = (name: string) => `${name}.gave-up`;
/** This instance in pg-boss's registry of instances (`pgboss.instance`): its role, so a web instance can look for workers. */
const instanceName = (role: string) => `console-${role}`;

/**
 * The queue on PostgreSQL: pg-boss 12, shared by every instance (docs/decisions.md, "One job
 * queue"). A job is a row in pg-boss's schema, inserted on the caller's Kysely transaction when
 * there is one; a worker claims it with SKIP LOCKED and keeps a lease by heartbeat
 * (JOB_LEASE_SECONDS); another instance's supervisor fails it for a retry only once the lease has
 * lapsed, so a job is retried elsewhere only when its owner is gone.
 */
export function pgJobQueue({ config, log }: JobQueueDeps, database: PostgresConnection): JobQueue {
  const lease = config.JOB_LEASE_SECONDS;
  const worker = runsJobs(config);
  // A pool of our own (not Kysely's), so `abandon` can cut this instance off like a crash would.
  // On DATABASE_URL (a transaction pooler is fine: pg-boss takes only transaction-scoped advisory
  // locks, each inside the one multi-statement query that is its transaction, and without a
  // `listen` here it polls rather than LISTENs), with the pools' wait and timeouts.
  const pool = new pg.Pool({
    ...pgClientOptions(database),
    max: POOL_SIZE,
    application_name: `console-jobs-${config.SERVER_ROLE}`,
  });
  pool.on('error', (err) => log.warn({ err }, 'job queue connection lost'));
  // pg-pool drops its idle listener from a lent-out client: one of our own on each (issue 38 row 0).
  pool.on('connect', (client) => client.on('error', (err) => log.warn({ err }, 'job queue connection lost')));
  let cut = false;
  const boss = new PgBoss({
    db: {
      executeSql: async (text, values) => {
        if (cut) throw new Error('job queue abandoned');
        return pool.query(text, values as unknown[]);
      },
    },
    schema: SCHEMA,
    // Periods are ours (every), not pg-boss cron: cron cannot say "every 7 hours".
    schedule: false,
    supervise: worker,
    // A lapsed lease is noticed within half a lease (pg-boss's heartbeat check is in its queue
    // monitor, which also needs the supervisor's tick).
    superviseIntervalSeconds: Math.max(1, Math.floor(lease / 2)),
    monitorIntervalSeconds: Math.max(1, Math.floor(lease / 2)),
    // pg-boss's registry of instances, read by a web instance's readiness (`workerSeen`): a row
    // reads live while heard from within three heartbeats, so three to a lease makes "seen within
    // a lease" what `live` says.
    instanceName: instanceName(config.SERVER_ROLE),
    instanceHeartbeatSeconds: Math.max(1, Math.floor(lease / 3)),
  });
  boss.on('error', (err) => log.warn({ err }, 'job queue error'));

  const kinds = new Map<string, JobKind<any>>();
  const periodic = new Map<string, PeriodicOptions>();
  const timers: { stop(): Promise<void> }[] = [];
  /** Set by `open`: pg-boss started and every kind's queue made; each later step is chained on it. */
  let opened: Promise<void> | null = null;
  /** Set by `start`: this instance runs jobs (when a worker) and schedules periodic ones. */
  let working = false;
  let stopped = false;

  // Also given with each job: a queue created by an earlier version keeps its own settings.
  const retryOptions = (kind: JobKind<any>) => ({
    retryLimit: (kind.retry?.limit ?? 0) + SPARE_RETRIES,
    retryDelay: retryDelaySecondsOf(kind),
    retryBackoff: true,
    // pg-boss refuses the key with no value.
    ...(kind.gaveUp ? { deadLetter: gaveUpQueue(kind.name) } : {}),
  });
  const queueOf = async (kind: JobKind<any>) => {
    if (kind.gaveUp)
      await boss.createQueue(gaveUpQueue(kind.name), { retryLimit: 3, retryDelay: 5, retryBackoff: true });
    await boss.createQueue(kind.name, {
      // A periodic kind never runs twice at once, on any instance.
      policy: periodic.has(kind.name) ? 'singleton' : kind.exclusive ? 'exclusive' : 'standard',
      heartbeatSeconds: lease,
      expireInSeconds: EXPIRE_SECONDS,
      ...retryOptions(kind),
    });
  };

  /** A job pg-boss failed for good (see gaveUpQueue): the kind records it on the owner's record. */
  const gaveUpHandler = (kind: JobKind<any>) => async (jobs: { data: unknown }[]) => {
    for (const job of jobs) {
      log.warn({ kind: kind.name }, 'job stopped too often: failed');
      await kind.gaveUp!(job.data, 'jobStoppedTooOften');
    }
  };

  const handler =
    (kind: JobKind<any>, ranSome?: () => void) =>
    async (jobs: { data: unknown; retryCount: number; signal: AbortSignal }[]) => {
      if (jobs.length) ranSome?.();
      for (const job of jobs) {
        try {
          const attempt = job.retryCount + 1;
          const runsAgainAfter = (err: unknown) => retriesAfter(kind, err, attempt);
          await runAsJob(kind.name, () => kind.run(job.data, { attempt, signal: job.signal, runsAgainAfter }));
        } catch (err) {
          // A retryable kind, or any kind after a transient database error, fails the job for
          // pg-boss to retry, up to its limit; past it, or for another error, an error ends the job
          // (pg-boss's remaining retries are kept for orphans).
          if (retriesAfter(kind, err, job.retryCount + 1)) throw err;
          log.error({ err, kind: kind.name }, 'job failed');
        }
      }
    };

  /**
   * The tenant a job is fair by, as pg-boss's group: each instance runs one job of a group (per
   * kind) at a time, and its fetch skips groups at that limit, so tenants take turns.
   * - Heavy jobs: keyless ones share one group, so none escapes the limit (issue 36 #2).
   * - Small jobs with a tenant (a render): grouped too (issue 36 #3). Ungrouped, thirty of one
   *   customer's small renders were claimed first come, first served ahead of another's one-page
   *   export. Small kinds have their own queue, so a tenant's small job never waits behind its heavy
   *   one; keyless small jobs (periodic ones) stay ungrouped and are never held back.
   */
  const groupOf = (opts: EnqueueOptions) =>
    opts.size === 'heavy' || opts.customerId != null ? { id: String(opts.customerId ?? NO_TENANT) } : undefined;
  /** A lane kind's job: one of its tenant's `perTenant` groups, each tenant's in turn (`laneWorkers`). */
  const spread = new Map<number, number>();
  const laneGroup = (kind: JobKind<any>, opts: EnqueueOptions) => {
    const tenant = opts.customerId ?? NO_TENANT;
    const n = spread.get(tenant) ?? 0;
    spread.set(tenant, (n + 1) % kind.lane!.perTenant);
    return { id: `${tenant}.${n}` };
  };

  /** This instance's pg-boss workers of each kind (`wake` calls them before their next poll). */
  const workIds = new Map<string, string[]>();
  const work = async (kind: JobKind<any>) => {
    if (!worker || workIds.has(kind.name)) return;
    if (kind.gaveUp)
      await boss.work(gaveUpQueue(kind.name), { pollingIntervalSeconds: config.JOB_POLL_SECONDS }, gaveUpHandler(kind));
    if (kind.lane) return void workIds.set(kind.name, await laneWorkers(kind, kind.lane.slots));
    const id = await boss.work(
      kind.name,
      {
        pollingIntervalSeconds: Math.min(kind.pollSeconds ?? config.JOB_POLL_SECONDS, config.JOB_POLL_SECONDS),
        localConcurrency: 2,
        // Fairness: a customer's heavy jobs run one at a time per instance, so theirs wait behind
        // other customers' and never hold them. pg-boss's global group limit was not strict: it is
        // checked in the claim without a lock, and this instance's fetch loops, polled at the same
        // instant, both passed it. The local one is counted in process and gives the excess back
        // without using a retry (docs/decisions.md).
        localGroupConcurrency: 1,
      },
      handler(kind),
    );
    workIds.set(kind.name, [id]);
  };

  /**
   * A kind with a lane of its own (JobKind.lane, webhook deliveries): `slots` workers of its own
   * queue, each one job at a time, each group one at a time across them (pg-boss counts local
   * groups per queue, `localGroupConcurrency` 1). A tenant's jobs are spread over `perTenant`
   * groups (`laneGroup`), so it runs that many at most: a tenant's slow jobs hold its share and the
   * others' are fetched round them. A worker that found a job fetches again at once rather than
   * after its poll (pg-boss waits the poll after every fetch, full or not: at 0.5 s, two workers
   * ran 4 jobs a second), and falls back to polling when the queue is empty. One `work` per slot,
   * as pg-boss wakes a worker by its own id only.
   */
  const laneWorkers = async (kind: JobKind<any>, slots: number) => {
    const ids: string[] = [];
    for (let i = 0; i < slots; i++) {
      let id = '';
      id = await boss.work(
        kind.name,
        {
          pollingIntervalSeconds: Math.min(kind.pollSeconds ?? config.JOB_POLL_SECONDS, config.JOB_POLL_SECONDS),
          localConcurrency: 1,
          localGroupConcurrency: 1,
        },
        handler(kind, () => id && boss.notifyWorker(id)),
      );
      ids.push(id);
    }
    return ids;
  };

  function define(kind: JobKind<any>) {
    if (!KIND_NAME.test(kind.name)) throw new Error(`bad job kind ${kind.name}`);
    kinds.set(kind.name, kind);
    if (opened)
      opened = opened.then(async () => {
        await queueOf(kind);
        if (working) await work(kind);
      });
  }

  const schedule = (name: string, opts: PeriodicOptions) => {
    timers.push(scheduleTicks(name, opts, tick, log));
  };

  /** One job per kind and period across instances: its id is the period's, and a second insert of it is ignored. */
  const tick = async (name: string, at: Date) => {
    const opts = periodic.get(name);
    if (!opts) throw new Error(`${name} is not periodic`);
    await opened;
    await boss.send(name, {}, { id: slotId(name, slotOf(at, opts.everyMs)), ...retryOptions(kinds.get(name)!) });
    // This instance's worker takes it now rather than at its next poll (the webhook relay's second).
    for (const id of workIds.get(name) ?? []) boss.notifyWorker(id);
  };

  async function open() {
    opened ??= (async () => {
      await boss.start();
      for (const kind of kinds.values()) await queueOf(kind);
    })();
    await opened;
  }

  return {
    backend: 'pg-boss',
    define,
    async enqueue(name, payload, opts = {}) {
      if (!kinds.has(name)) throw new Error(`unknown job kind ${name}`);
      await opened;
      await boss.send(name, (payload ?? {}) as object, {
        ...retryOptions(kinds.get(name)!),
        db: opts.trx ? fromKysely(opts.trx) : undefined,
        singletonKey: opts.singletonKey,
        group: kinds.get(name)!.lane ? laneGroup(kinds.get(name)!, opts) : groupOf(opts),
      });
    },
    wake(name) {
      for (const id of workIds.get(name) ?? []) boss.notifyWorker(id);
    },
    every(kind, opts) {
      if (opts.everyMs) periodic.set(kind.name, opts);
      define(kind);
      if (opts.everyMs && working && worker) schedule(kind.name, opts);
    },
    tick,
    open,
    async start() {
      await open();
      // Stopped meanwhile (a signal between listen and here): nothing is started after a stop.
      if (working || stopped) return;
      working = true;
      opened = opened!.then(async () => {
        for (const kind of kinds.values()) await work(kind);
        if (worker) for (const [name, opts] of periodic) schedule(name, opts);
      });
      await opened;
    },
    async workerSeen() {
      await opened;
      // The registry keeps a bounded number of dead rows (pg-boss prunes them): one page holds it.
      const all = await boss.getInstances({ limit: 100_000 });
      return all.some((i) => i.live && i.name !== instanceName('web'));
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await Promise.all(timers.map((t) => t.stop()));
      if (opened) await opened.catch(() => {});
      await boss.stop({ graceful: true, close: true, timeout: 30_000 });
      await pool.end();
    },
    async abandon() {
      stopped = true;
      cut = true;
      await Promise.all(timers.map((t) => t.stop()));
      // Its connections go as a killed process's would: nothing is failed or completed on the way
      // out (pg-boss's own stop would fail the running jobs), so only the lapsed lease frees them.
      await boss.stop({ graceful: false, close: false }).catch(() => {});
      await pool.end().catch(() => {});
    },
  };
}

/** A UUID of its own for a kind's period: the same on every instance. */
function slotId(name: string, slot: number): string {
  const h = createHash('sha256').update(`${name}:${slot}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

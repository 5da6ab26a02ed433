import { sql, type Kysely } from 'kysely';
import { afterAll } from 'vitest';
import type { DB } from '../../src/db/schema.ts';
import { createStorage } from '../../src/lib/storage-config.ts';
import type { Storage } from '../../src/lib/storage.ts';
import type { Harness } from '../harness.ts';
import { waitFor } from './jobs.ts';

/**
 * What the tests of two instances on one database share (issue 27): the harness's app is one
 * instance, harness.ts's `secondInstance` the other, and a job is caught under way on the first by
 * holding one of its store's calls at a gate (the second instance's store has none).
 */

/** Jobs looked for every half second, a dead instance's lease lapsing after 10 s: takeovers within a test's time. */
export const INSTANCES_ENV = { JOB_POLL_SECONDS: '0.5', JOB_LEASE_SECONDS: '10' };

export interface Gate {
  open(): void;
  /** The held call fails with `e` (a store that broke under the job). */
  fail(e: Error): void;
  /** Whether a held call has arrived: the job is under way. */
  reached: boolean;
  wait: Promise<void>;
}

/**
 * A file store for the harness (`createHarness({ storage: held.storage })`, then `held.attach(h)`)
 * whose `get`s or `put`s wait at a gate while one is closed: `when` picks the calls held (by key
 * for `get`, by name hint for `put`; all unless given). Made at the top of a test file: a gate
 * left closed opens after the file, as the file's own `afterAll` there would.
 */
export function heldStore(hold: 'get' | 'put', when: (keyOrHint: string) => boolean = () => true) {
  let base: Storage | undefined;
  let gate: Gate | null = null;
  const store = () => {
    if (!base) throw new Error('heldStore: attach(h) once the harness is made');
    return base;
  };
  const reach = async (keyOrHint: string) => {
    if (gate && when(keyOrHint)) {
      gate.reached = true;
      await gate.wait;
    }
  };
  afterAll(() => gate?.open());
  const storage: Storage = {
    async put(data, hint, sha256) {
      if (hold === 'put') await reach(hint);
      return store().put(data, hint, sha256);
    },
    async get(key) {
      if (hold === 'get') await reach(key);
      return store().get(key);
    },
    stream: (key) => store().stream(key),
    remove: (key) => store().remove(key),
    check: () => store().check(),
    listOlderThan: (before) => store().listOlderThan(before),
  };
  return {
    storage,
    /** The harness's own store (its configuration's) is what the held one passes to. */
    attach(h: Harness) {
      base = createStorage(h.config, h.db);
    },
    /** Closes a new gate: the held calls from now on wait until it opens (or fails). */
    closeGate(): Gate {
      let open!: () => void;
      let fail!: (e: Error) => void;
      const wait = new Promise<void>((r, j) => ((open = r), (fail = j)));
      gate = { open, fail, reached: false, wait };
      return gate;
    },
    /** The gate closed last, if any. */
    get gate() {
      return gate;
    },
  };
}

/**
 * Waits (PostgreSQL only) until the lease of the job of `kind` under way has outlived the moment it
 * would have lapsed without its heartbeat, and a heartbeat check has run after that moment: what a
 * "the other instance did not take it over while its owner lived" check waits for, instead of a
 * fixed sleep that a late machine turns into a check made too early (passing by mistake).
 *
 * All read from pg-boss's own rows, on the database's clock (issue 37): the job's `started_on` plus
 * its `heartbeat_seconds` is when an unrenewed lease lapses; its `heartbeat_on` past `started_on`
 * says the owner renewed it; pg-boss stamps `queue.monitor_claim_on` when a supervisor's monitor
 * pass claims the queue and then, in that pass, fails the jobs whose heartbeat lapsed (boss.js
 * #monitor, failJobsByHeartbeat). So a first claim at or after the lapse, then a later claim (a
 * monitor interval on, a pass that began after the first one), with the job still active and
 * never retried, means a check after the lapse found the lease held. Returns the job's recorded
 * state as soon as it is no longer active (a check failed it): the caller's
 * `expect(...).toEqual({ state: 'active', retryCount: 0 })` then fails rather than waiting on.
 *
 * The lease stays at INSTANCES_ENV's 10 s: this wait is about a lease and a half plus up to a
 * monitor interval (5 s), so a shorter lease would shorten it, but pg-boss renews the heartbeat
 * every half lease, and a living owner whose event loop or connection is held up for more than that
 * half (5 s here) loses its job; on two cores at a load of 15 a few seconds' stall is plausible, 5 s
 * is the margin we keep (the lease tests' own deadlines are set from it).
 */
export async function leaseOutlived(db: Kysely<DB>, kind: string, ms = 60_000) {
  const { rows: jobs } = await sql<{ id: string; lapse: string }>`
    select id::text, (started_on + heartbeat_seconds * interval '1 second')::text as lapse
    from pgboss.job where name = ${kind} and state = 'active'`.execute(db);
  if (jobs.length !== 1) throw new Error(`leaseOutlived: ${jobs.length} jobs of ${kind} under way, not 1`);
  const [{ id, lapse }] = jobs;
  let first: string | null = null;
  let job = { state: 'active', retryCount: 0 };
  await waitFor(
    `a heartbeat check of ${kind} after its lease would have lapsed`,
    async () => {
      const { rows } = await sql<{
        state: string;
        retryCount: number;
        renewed: boolean;
        claim: string | null;
        after: boolean;
      }>`
      select j.state, j.retry_count as "retryCount", j.heartbeat_on > j.started_on as renewed,
        q.monitor_claim_on::text as claim,
        coalesce(q.monitor_claim_on >= ${lapse}::timestamptz
          and q.monitor_claim_on > coalesce(${first}::timestamptz, '-infinity'), false) as after
      from pgboss.job j join pgboss.queue q on q.name = j.name
      where j.id = ${id}::uuid`.execute(db);
      const [row] = rows;
      if (!row) throw new Error(`leaseOutlived: the job of ${kind} is gone`);
      job = { state: row.state, retryCount: row.retryCount };
      if (row.state !== 'active' || row.retryCount !== 0) return true;
      if (!row.renewed || !row.after) return false;
      if (first === null) {
        first = row.claim;
        return false;
      }
      return true;
    },
    ms,
  );
  return job;
}

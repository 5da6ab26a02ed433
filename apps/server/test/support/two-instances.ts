import { afterAll } from 'vitest';
import { createStorage } from '../../src/lib/storage-config.ts';
import type { Storage } from '../../src/lib/storage.ts';
import type { Harness } from '../harness.ts';

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

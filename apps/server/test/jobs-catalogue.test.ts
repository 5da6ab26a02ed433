import { beforeAll, describe, expect, it } from 'vitest';
import { JobPayloadRefused, jobCatalogue, withJobCatalogue } from '../src/lib/job-catalogue.ts';
import type { JobKind, JobQueue } from '../src/lib/jobs.ts';
import { createHarness, type Harness } from './harness.ts';
import { settled } from './support/jobs.ts';

/**
 * The job catalogue (issue 38 item 1): one list of every kind, its payload's schema and version,
 * retry policy and concurrency, which the app's queue is held to.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});

/** A queue that only records what reaches it: the catalogue's checks are what is under test. */
function recordingQueue() {
  const defined: JobKind<any>[] = [];
  const enqueued: { name: string; payload: unknown }[] = [];
  const queue = {
    backend: 'memory',
    define: (k: JobKind<any>) => void defined.push(k),
    every: (k: JobKind<any>) => void defined.push(k),
    enqueue: async (name: string, payload: unknown) => void enqueued.push({ name, payload }),
  } as unknown as JobQueue;
  return { queue, defined, enqueued };
}

describe('the job catalogue', () => {
  it('the app defines every listed kind, once, with the listed policy (its start checks it)', () => {
    // buildApp ran assertComplete: reaching here means every kind has its handler.
    expect(() => h.app.jobs.assertComplete()).not.toThrow();
    expect(Object.keys(jobCatalogue).length).toBeGreaterThanOrEqual(19);
  });

  it('refuses a kind not listed, a kind defined twice, a policy unlike the list, and names a kind without handler', () => {
    const q = withJobCatalogue(recordingQueue().queue);
    const run = async () => {};
    expect(() => q.define({ name: 'not-listed', run })).toThrow(/not in the job catalogue/);
    expect(() => q.define({ name: 'batch-commit', run })).toThrow(/exclusive differs/);
    expect(() => q.define({ name: 'label-print', exclusive: true, run })).toThrow(/exclusive differs/);
    expect(() => q.define({ name: 'label-print', retry: { limit: 1, delaySeconds: 1 }, run })).toThrow(/retry differs/);
    expect(() => q.define({ name: 'render-small', run })).toThrow(/processBound differs/);
    expect(() => q.every({ name: 'label-print', run }, { everyMs: 1000, atStart: false })).toThrow(/periodic differs/);
    q.define({ name: 'label-print', run });
    expect(() => q.define({ name: 'label-print', run })).toThrow(/defined twice/);
    expect(() => q.assertComplete()).toThrow(/without a handler: .*batch-parse/);
  });

  it('stamps the version on an enqueued payload and refuses one its schema refuses', async () => {
    const r = recordingQueue();
    const q = withJobCatalogue(r.queue);
    await q.enqueue('label-b-apply', { batchId: 7 });
    expect(r.enqueued).toEqual([{ name: 'label-b-apply', payload: { batchId: 7, payloadVersion: 1 } }]);
    await expect(q.enqueue('label-b-apply', { batch: 7 })).rejects.toThrow(/payload its schema refuses/);
    await expect(q.enqueue('not-listed', {})).rejects.toThrow(/not in the job catalogue/);
  });

  it('a stored payload of another version or shape fails its job without reaching the handler (both engines)', async () => {
    const runs: unknown[] = [];
    const r = recordingQueue();
    const q = withJobCatalogue(r.queue);
    q.define({ name: 'label-b-apply', exclusive: true, run: async (p) => void runs.push(p) });
    const run = r.defined[0]!.run;
    const ctx = { attempt: 1, signal: new AbortController().signal, runsAgainAfter: () => false };
    await run({ batchId: 3, payloadVersion: 1 }, ctx);
    await run({ batchId: 4 }, ctx); // enqueued before versions were stamped: version 1
    await expect(run({ batchId: 5, payloadVersion: 2 }, ctx)).rejects.toThrow(/payload version 2/);
    await expect(run({ batch: 6, payloadVersion: 1 }, ctx)).rejects.toThrow(/another shape \(batchId\)/);
    expect(runs).toEqual([{ batchId: 3 }, { batchId: 4 }]);

    // On the app's real queue: both refused payloads end (failed on SQLite; pg-boss completes a
    // job whose error is final, keeping its retries for orphans), each with the refusal logged.
    const refused: unknown[] = [];
    const log = h.app.log as unknown as { error: (obj: { err?: unknown }, msg: string) => void };
    const error = log.error;
    log.error = function (obj, msg) {
      if (obj?.err instanceof JobPayloadRefused) refused.push(obj.err);
      return error.call(this, obj, msg);
    };
    try {
      const before = (await settled(h.db, 'label-b-apply', 0)).length;
      await h.app.jobs.unchecked.enqueue(
        'label-b-apply',
        { batchId: 999_999, payloadVersion: 2 },
        {
          customerId: 1,
          singletonKey: 'v2',
        },
      );
      await h.app.jobs.unchecked.enqueue(
        'label-b-apply',
        { batch: 999_999 },
        {
          customerId: 1,
          singletonKey: 'shape',
        },
      );
      const rows = await settled(h.db, 'label-b-apply', before + 2);
      if (!process.env.TEST_DATABASE_URL) expect(rows.slice(before).map((x) => x.state)).toEqual(['failed', 'failed']);
      expect(refused.map((e) => (e as Error).message).sort()).toEqual([
        'job label-b-apply: payload of another shape (batchId)',
        'job label-b-apply: payload version 2, this release reads 1',
      ]);
    } finally {
      log.error = error;
    }
  });
});

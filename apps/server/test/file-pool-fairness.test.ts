import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ProgressTracker } from '../src/lib/export-progress.ts';
import { asTenant } from '../src/lib/fair-turns.ts';
import { useTempFolder } from '../src/lib/temp-files.ts';
import { renderFile } from '../src/lib/workbook-job.ts';
import { waitFor } from './support/jobs.ts';
import { TEST_RENDERS } from './support/test-renders.ts';

/**
 * The shared file pool (lib/workbook-job.ts) gives turns by customer (issue 27): with one
 * customer's heavy renders waiting, another customer's first job goes next, and a small job
 * (a one-page file) never waits behind heavy ones. Real worker threads; each render holds its
 * worker until the test opens its gate, and the pool says when a job gets a worker (the
 * progress tracker's `writing`), so the order of turns is read, not timed (issue 37).
 */
const GATED = { kind: TEST_RENDERS.gated };
let dir: string;
let gates = 0;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fair-pool-'));
  useTempFolder(dir);
  // Three workers started and kept idle, so each test's jobs find them up.
  const warm = ['warm1', 'warm2', 'warm3'].map((k) => render('warm', k, 1, []));
  for (const w of warm) w.open();
  await Promise.all(warm.map((w) => w.done));
});

/** Starts a render as `tenant`'s (`pages`: its size), held until `open()`; `started` gets its label when a worker takes it. */
function render(tenant: string, label: string, pages: number, started: string[]) {
  // Labels repeat across tests; gates must not (an open one stays open).
  const gate = path.join(dir, `gate-${++gates}-${label}`);
  const progress: ProgressTracker = {
    writing: () => started.push(label),
    total: () => {},
    rows: () => {},
    done: () => {},
    failed: () => {},
    flushed: async () => {},
  };
  const done = asTenant(tenant, () =>
    renderFile({ ...GATED, arg: { gate } }, { ext: 'pdf', total: pages }, progress).then((file) =>
      fs.rmSync(file, { force: true }),
    ),
  );
  return { done, open: () => fs.writeFileSync(gate, '') };
}

const startedCount = (started: string[], n: number) => waitFor(`${n} jobs on a worker`, () => started.length >= n);

describe('file pool turns', () => {
  it("a customer's later heavy jobs wait behind another customer's first one", async () => {
    const started: string[] = [];
    // A's first two take the two workers (nobody else waits yet); A3, A4 and B1 wait, in that order of arrival.
    const jobs = Object.fromEntries(
      [
        ['A', 'A1'],
        ['A', 'A2'],
        ['A', 'A3'],
        ['A', 'A4'],
        ['B', 'B1'],
      ].map(([tenant, label]) => [label!, render(tenant!, label!, 6000, started)]),
    );
    await startedCount(started, 2);
    expect([...started].sort()).toEqual(['A1', 'A2']);
    // The next worker free goes to B's first job, though A3 and A4 came before it.
    jobs.A1!.open();
    await startedCount(started, 3);
    expect(started[2]).toBe('B1');
    for (const j of Object.values(jobs)) j.open();
    await Promise.all(Object.values(jobs).map((j) => j.done));
    expect(started).toHaveLength(5);
  });

  it('a small job runs before waiting heavy ones, even of the same customer', async () => {
    const started: string[] = [];
    const jobs = Object.fromEntries(
      [
        ['A', 'A1', 6000],
        ['A', 'A2', 6000],
        ['A', 'A3', 6000],
        ['A', 'A4', 6000],
        ['A', 'small-A', 1],
        ['B', 'small-B', 1],
      ].map(([tenant, label, pages]) => [
        label as string,
        render(tenant as string, label as string, pages as number, started),
      ]),
    );
    // A1 and A2 hold both heavy workers; small-A takes the small slot at once.
    await startedCount(started, 3);
    expect([...started].sort()).toEqual(['A1', 'A2', 'small-A']);
    // With both heavy ones still running, the small slot goes to small-B, not to A3 or A4.
    jobs['small-A']!.open();
    await startedCount(started, 4);
    expect(started[3]).toBe('small-B');
    for (const j of Object.values(jobs)) j.open();
    await Promise.all(Object.values(jobs).map((j) => j.done));
    expect(started.slice(4).sort()).toEqual(['A3', 'A4']);
  });
});

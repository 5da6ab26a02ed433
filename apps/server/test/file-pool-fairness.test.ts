import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { asTenant } from '../src/lib/fair-turns.ts';
import { useTempFolder } from '../src/lib/temp-files.ts';
import { renderFile } from '../src/lib/workbook-job.ts';
import { TEST_RENDERS } from './support/test-renders.ts';

/**
 * The shared file pool (lib/workbook-job.ts) gives turns by customer (issue 27): with one
 * customer's heavy renders waiting, another customer's first job goes next, and a small job
 * (a one-page file) never waits behind heavy ones. Real worker threads; each render holds its
 * worker for a while, so the order of completion is the order of turns.
 */
const SLEEP = { kind: TEST_RENDERS.sleep };
/** A heavy render holds its worker this long, a small one a tenth of it. */
const HOLD_MS = 1500;

beforeAll(async () => {
  useTempFolder(fs.mkdtempSync(path.join(os.tmpdir(), 'fair-pool-')));
  // Three workers started and kept idle, so no job's turn is measured with a worker's start
  // (0.2–1 s, more on a loaded machine) in it.
  await Promise.all([1, 2, 3].map((k) => render('warm', `warm${k}`, 1, [])));
});

/** Starts a render as `tenant`'s (`pages`: its size); resolves with its label when it is done. */
function render(
  tenant: string,
  label: string,
  pages: number,
  finished: string[],
  ms = pages > 1 ? HOLD_MS : HOLD_MS / 10,
) {
  return asTenant(tenant, () =>
    renderFile({ ...SLEEP, arg: { ms } }, { ext: 'pdf', total: pages }).then((file) => {
      fs.rmSync(file, { force: true });
      finished.push(label);
    }),
  );
}

describe('file pool turns', () => {
  it("a customer's later heavy jobs wait behind another customer's first one", async () => {
    const finished: string[] = [];
    // A's first two take the two workers; A3 and B1 wait, in that order of arrival. A2 holds its
    // worker twice as long, so the next turn (A1's worker) and the one after start a whole hold
    // apart and their order of completion is their order of turns, whatever the machine's load.
    await Promise.all([
      render('A', 'A1', 6000, finished),
      render('A', 'A2', 6000, finished, 2 * HOLD_MS),
      render('A', 'A3', 6000, finished),
      render('A', 'A4', 6000, finished),
      render('B', 'B1', 6000, finished),
    ]);
    expect(finished.indexOf('B1')).toBeLessThan(finished.indexOf('A3'));
    expect(finished.indexOf('B1')).toBeLessThan(finished.indexOf('A4'));
  });

  it('a small job runs before waiting heavy ones, even of the same customer', async () => {
    const finished: string[] = [];
    await Promise.all([
      render('A', 'A1', 6000, finished),
      render('A', 'A2', 6000, finished),
      render('A', 'A3', 6000, finished),
      render('A', 'A4', 6000, finished),
      render('A', 'small-A', 1, finished),
      render('B', 'small-B', 1, finished),
    ]);
    // Both small ones are done before any heavy one that had to wait (A3, A4), and before the running ones end.
    expect(finished.slice(0, 2).sort()).toEqual(['small-A', 'small-B']);
  });
});

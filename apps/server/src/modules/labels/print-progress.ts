import type { ProgressTracker } from '../../lib/export-progress.ts';

/**
 * A print job's progress while its PDF is drawn: the labels drawn so far, written at most every
 * `everyMs`, one write after another. Only the count is written: what the job's end records
 * (done, with every label drawn) does not depend on these writes.
 */
export function printJobProgress(write: (drawn: number) => Promise<unknown>, everyMs: number): ProgressTracker {
  let last = 0;
  let writing = Promise.resolve();
  return {
    writing: () => {},
    total: () => {},
    rows: (n) => {
      if (Date.now() - last < everyMs) return;
      last = Date.now();
      // A failed write is dropped, as the download's progress drops its own (export-jobs): left
      // rejected, the chain was an unhandled rejection until the drawing ended, and Node ended the
      // instance for it (the failover drill through PgBouncer, issue 38 item 8); and every later
      // write was skipped.
      writing = writing.then(() =>
        write(n).then(
          () => {},
          () => {},
        ),
      );
    },
    done: () => {},
    failed: () => {},
    flushed: () => writing,
  };
}

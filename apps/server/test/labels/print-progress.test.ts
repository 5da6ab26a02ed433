import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { printJobProgress } from '../../src/modules/labels/print-progress.ts';

/**
 * Issue 38 item 8, found by the failover drill (`npm run test:failover`, through PgBouncer): a
 * print job's progress write that failed while its PDF was still being drawn (the database away
 * in a failover) was a rejected promise nobody listened to until the drawing ended, and Node ended
 * the instance for it ("server login has been failing", an unhandled rejection). The count is a
 * display: a failed write is dropped, the next one and the job's end write again.
 */
describe('print job progress', () => {
  const unhandled: unknown[] = [];
  const hear = (e: unknown) => unhandled.push(e);
  beforeEach(() => {
    unhandled.length = 0;
    process.on('unhandledRejection', hear);
  });
  afterEach(() => {
    process.off('unhandledRejection', hear);
  });

  it('a write that fails while the drawing goes on is no unhandled rejection, and later writes still run', async () => {
    const written: number[] = [];
    let fail = true;
    const progress = printJobProgress(async (n) => {
      if (fail) throw Object.assign(new Error('server login has been failing'), { code: '08P01' });
      written.push(n);
    }, 0);
    progress.rows(10);
    // The drawing goes on for some turns of the event loop, as a render in a worker does.
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    fail = false;
    progress.rows(20);
    await progress.flushed();
    expect(unhandled).toEqual([]);
    expect(written).toEqual([20]);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { scheduleClock, scheduleTicks } from '../src/lib/jobs.ts';

// The clock waits with timers/promises, which vitest's fake timers do not reach: here that wait
// is made on the global timer they replace, with the same abort.
vi.mock('node:timers/promises', async (importOriginal) => ({
  ...(await importOriginal<typeof import('node:timers/promises')>()),
  setTimeout: (ms: number, value: unknown, opts: { signal?: AbortSignal } = {}) =>
    new Promise((resolve, reject) => {
      if (opts.signal?.aborted) return reject(opts.signal.reason);
      const timer = setTimeout(() => resolve(value), ms);
      opts.signal?.addEventListener('abort', () => (clearTimeout(timer), reject(opts.signal!.reason)), { once: true });
    }),
}));

/** The periodic jobs' schedule clock (storage accrual, JD renewal): at start, then every period; never two at once. */
describe('scheduleClock', () => {
  afterEach(() => vi.useRealTimers());

  it('runs at start and every period; a tick during a run is skipped; stop waits for the run under way', async () => {
    vi.useFakeTimers();
    let runs = 0;
    let release!: () => void;
    const job = scheduleClock({
      everyMs: 1000,
      run: () => {
        runs += 1;
        return new Promise<void>((r) => (release = r));
      },
      onError: () => {},
    });
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(3000); // still running: three ticks skipped
    expect(runs).toBe(1);
    release();
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(2);
    let stopped = false;
    const stopping = job.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false); // waits for the second run
    release();
    await stopping;
    await vi.advanceTimersByTimeAsync(5000);
    expect(runs).toBe(2); // no tick after stop
  });

  it('an error goes to onError and the job goes on', async () => {
    vi.useFakeTimers();
    const errors: unknown[] = [];
    let runs = 0;
    const job = scheduleClock({
      everyMs: 1000,
      run: async () => {
        runs += 1;
        throw new Error(`run ${runs}`);
      },
      onError: (e) => errors.push(e),
    });
    await vi.advanceTimersByTimeAsync(2000);
    expect(runs).toBe(3);
    expect(errors.map((e) => (e as Error).message)).toEqual(['run 1', 'run 2', 'run 3']);
    await job.stop();
  });

  it('0: never runs', async () => {
    vi.useFakeTimers();
    let runs = 0;
    const job = scheduleClock({ everyMs: 0, run: async () => void (runs += 1), onError: () => {} });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(runs).toBe(0);
    await job.stop();
  });
});

/** A periodic kind with `due` (the webhook relay): a period with nothing to do writes no job. */
describe('scheduleTicks with due', () => {
  afterEach(() => vi.useRealTimers());

  it('asks due every period and makes the period job only when it says there is work', async () => {
    vi.useFakeTimers();
    let work = false;
    let asked = 0;
    const ticks: Date[] = [];
    const schedule = scheduleTicks(
      'relay',
      {
        everyMs: 1000,
        atStart: true,
        due: async () => {
          asked += 1;
          return work;
        },
      },
      async (_name, at) => void ticks.push(at),
      { warn: () => {}, error: () => {} },
    );
    await vi.advanceTimersByTimeAsync(5000);
    expect(asked).toBeGreaterThanOrEqual(5);
    expect(ticks).toHaveLength(0);
    work = true;
    await vi.advanceTimersByTimeAsync(1000);
    expect(ticks).toHaveLength(1);
    await schedule.stop();
  });
});

/**
 * A background job: once at start, then every `everyMs` (0: never). Runs never overlap (a tick
 * while one runs is skipped), errors go to `onError` and the job goes on, and `stop()` clears the
 * timer and waits for a run under way, so the database is closed only after it. The timer is
 * unref'd: a job never keeps the process alive.
 *
 * Not a job outside the queue: its one caller is the queue's schedule (`scheduleTicks`, jobs.ts),
 * whose tick only enqueues the period's job, once across instances; the work runs on the queue.
 */
export function startPeriodic(opts: { everyMs: number; run: () => Promise<unknown>; onError: (err: unknown) => void }) {
  if (!opts.everyMs) return { stop: async () => {} };
  let running: Promise<unknown> | null = null;
  const tick = () => {
    running ??= opts
      .run()
      .catch(opts.onError)
      .finally(() => (running = null));
  };
  tick();
  const timer = setInterval(tick, opts.everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

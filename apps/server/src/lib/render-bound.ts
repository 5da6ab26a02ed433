import { ErrorCode } from '@console/contract/envelope';
import { AppError } from './errors.ts';
import type { RenderRunner } from './workbook-job.ts';

/**
 * A bound on one tenant's renders asked and not yet answered (issue 36 #3): thirty parallel
 * exports by one customer once filled the render queue, and another customer's one-page export
 * waited a minute behind them. Past the bound a call is refused at once with 429
 * `rendersQueuedTooMany` (nothing written, nothing queued), and the user tries again when one of
 * theirs is done. Counted in this instance, where the asker waits: each web instance holds at most
 * this many of a tenant's renders. Tenants are lib/fair-turns.ts's (a customer's users together;
 * staff and agents each alone); work outside a call (a job) is not bounded.
 */
export class RenderBound {
  private readonly asked = new Map<string, number>();
  private readonly max: number;
  constructor(max: number) {
    this.max = max;
  }

  /** Counts a render of `tenant` in, or refuses it; returns the function that counts it out (once). */
  take(tenant: string): () => void {
    if (!tenant) return () => {};
    const n = this.asked.get(tenant) ?? 0;
    if (n >= this.max) throw new AppError(ErrorCode.TOO_MANY_REQUESTS, 'rendersQueuedTooMany', null, { max: this.max });
    this.asked.set(tenant, n + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const left = (this.asked.get(tenant) ?? 1) - 1;
      if (left) this.asked.set(tenant, left);
      else this.asked.delete(tenant);
    };
  }
}

/** The app's render runner with the bound in front: a refused render writes and queues nothing. */
export function boundedRunner(runner: RenderRunner, bound: RenderBound): RenderRunner {
  return {
    buffersToo: runner.buffersToo,
    async render(data, turn, progress) {
      const counted = bound.take(turn.tenant);
      try {
        await runner.render(data, turn, progress);
      } finally {
        counted();
      }
    },
  };
}

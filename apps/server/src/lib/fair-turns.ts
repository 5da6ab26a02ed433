import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Whose call is running: set once per call (http/register-call.ts), read by the shared worker
 * pools (lib/workbook-job.ts, lib/sheet-rows.ts) so that every file built or sheet read waits in
 * line as that customer's, without each of their many callers passing it along.
 */
const tenantOfCall = new AsyncLocalStorage<string>();
export const asTenant = <T>(tenant: string, fn: () => T): T => tenantOfCall.run(tenant, fn);
/** '' outside a call (a queued job, a benchmark): one more customer in the round. */
export const currentTenant = (): string => tenantOfCall.getStore() ?? '';

/**
 * The tenant a signed-in user's work waits as: a customer's users as their customer, staff and
 * agents (no customer of their own) as themselves, so that an agent printing for all its
 * customers is one tenant among them, never a free pass (issue 36 #2).
 */
export function tenantOf(actor: { userId: number; customerId: number | null }): string {
  return actor.customerId != null ? `c${actor.customerId}` : `u${actor.userId}`;
}

/**
 * The queue's fairness key of a tenant (lib/jobs.ts `customerId`): a customer's id; staff and
 * agents, who wait as themselves, a negative one of their user id so they never share a
 * customer's; none outside a call.
 */
export function queueKeyOf(tenant: string): number | null {
  const m = /^([cu])(\d+)$/.exec(tenant);
  if (!m) return null;
  return m[1] === 'c' ? Number(m[2]) : -Number(m[2]);
}

/** The fairness key of a job a user starts (a print run, a declaration run): never null. */
export const queueKeyOfActor = (actor: { userId: number; customerId: number | null }): number =>
  queueKeyOf(tenantOf(actor))!;

/** A job asking for a turn: whose it is, and whether its size is known to be small. */
export interface Turn {
  tenant: string;
  small: boolean;
}

interface Waiting {
  turn: Turn;
  go: () => void;
}

/**
 * Turns of a worker pool shared by every customer (issue 27): `slots` workers for any job plus
 * `smallSlots` that only small jobs (a template, a one-page export) may take, so a small job never
 * waits behind heavy renders. Among waiting jobs small ones go first; within a class the customer
 * with the fewest jobs running goes first, ties to the one served longest ago, and a customer's
 * own jobs keep their order — so a customer's second heavy job waits behind others' first ones.
 */
export class FairTurns {
  private running = 0;
  private heavyRunning = 0;
  private readonly runningOf = new Map<string, number>();
  private readonly servedAt = new Map<string, number>();
  private served = 0;
  private readonly waiting: Waiting[] = [];

  private readonly slots: number;
  private readonly smallSlots: number;
  constructor(slots: number, smallSlots: number) {
    this.slots = slots;
    this.smallSlots = smallSlots;
  }

  /** Resolves when the job may start, with the function to call when it ends (exactly once). */
  take(turn: Turn): Promise<() => void> {
    return new Promise((resolve) => {
      this.waiting.push({ turn, go: () => resolve(this.releaser(turn)) });
      this.dispatch();
    });
  }

  private releaser(turn: Turn) {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      if (!turn.small) this.heavyRunning--;
      this.runningOf.set(turn.tenant, (this.runningOf.get(turn.tenant) ?? 1) - 1);
      this.dispatch();
    };
  }

  private dispatch() {
    for (let next = this.pick(); next; next = this.pick()) {
      this.waiting.splice(this.waiting.indexOf(next), 1);
      const { tenant, small } = next.turn;
      this.running++;
      if (!small) this.heavyRunning++;
      this.runningOf.set(tenant, (this.runningOf.get(tenant) ?? 0) + 1);
      this.servedAt.set(tenant, ++this.served);
      next.go();
    }
  }

  private pick(): Waiting | undefined {
    if (this.running >= this.slots + this.smallSlots) return undefined;
    const small = this.waiting.filter((w) => w.turn.small);
    const candidates = small.length ? small : this.heavyRunning < this.slots ? this.waiting : [];
    let best: Waiting | undefined;
    for (const w of candidates) if (!best || this.before(w.turn.tenant, best.turn.tenant)) best = w;
    return best;
  }

  /** Whether customer `a`'s next job goes before customer `b`'s (the earlier arrival wins a tie, as `pick` scans in order). */
  private before(a: string, b: string) {
    const ra = this.runningOf.get(a) ?? 0;
    const rb = this.runningOf.get(b) ?? 0;
    if (ra !== rb) return ra < rb;
    return (this.servedAt.get(a) ?? 0) < (this.servedAt.get(b) ?? 0);
  }
}

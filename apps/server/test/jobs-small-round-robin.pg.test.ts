import { beforeAll, expect, it } from 'vitest';
import type { JobQueue } from '../src/lib/jobs.ts';
import { createHarness, type Harness } from './harness.ts';
import { waitFor } from './support/jobs.ts';

/**
 * Issue 36 item 3 on PostgreSQL (pg-boss): small jobs were not grouped by tenant, so an instance
 * claimed them first come, first served, and thirty of one customer's small renders held another
 * customer's one-page export behind all thirty. Now a small job with a tenant is in the tenant's
 * group: an instance runs one per tenant at a time and its next claim skips tenants at that limit.
 * The embedded runner's turns are tested in jobs-small-round-robin.test.ts. Claims are recorded
 * in order; nothing is timed.
 */
let h: Harness;
let jobs: JobQueue;
beforeAll(async () => {
  h = await createHarness({ seed: false });
  jobs = h.app.jobs.unchecked;
});

it('an instance claims small jobs by tenant in turn: the victim’s two before the attacker’s third', async () => {
  expect(jobs.backend).toBe('pg-boss');
  const claimed: string[] = [];
  const release = new Map<string, () => void>();
  jobs.define<{ id: string }>({
    name: 'test-small-rr',
    run: (p) => {
      claimed.push(p.id);
      return new Promise<void>((r) => release.set(p.id, r));
    },
  });
  try {
    // Queued together: the attacker's ten first, then the victim's two.
    await h.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 10; i++)
        await jobs.enqueue('test-small-rr', { id: `a${i}` }, { trx, customerId: 1, size: 'small' });
      for (let i = 0; i < 2; i++)
        await jobs.enqueue('test-small-rr', { id: `v${i}` }, { trx, customerId: 2, size: 'small' });
    });
    // Two slots per instance: one for each tenant.
    await waitFor('two claimed', () => claimed.length >= 2);
    // One of each tenant. Which of a tenant's: not promised — a job fetched past its group's
    // limit is given back and may lose its place (CI once saw a1 first).
    const first = [...claimed];
    expect(first.filter((id) => id.startsWith('a'))).toHaveLength(1);
    expect(first.filter((id) => id.startsWith('v'))).toHaveLength(1);
    // Both end: one slot each again, so the victim's second comes before the attacker's third.
    for (const id of first) release.get(id)!();
    await waitFor('four claimed', () => claimed.length >= 4);
    expect(claimed.slice(2).filter((id) => id.startsWith('v'))).toHaveLength(1);
    // The rest are the attacker's: all of them, each once.
    for (let n = 4; n < 12; n++) {
      for (const r of release.values()) r();
      await waitFor(`claim ${n + 1}`, () => claimed.length > n);
    }
    expect([...claimed].sort()).toEqual([...Array.from({ length: 10 }, (_, i) => `a${i}`), 'v0', 'v1']);
  } finally {
    for (const r of release.values()) r();
  }
});

import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness.ts';
import { waitFor } from '../support/jobs.ts';
import { createOrder, jpOrderBody } from '../support/orders.ts';
import { heldStore, INSTANCES_ENV } from '../support/two-instances.ts';

/**
 * Issue 36 item 2: an agent's print jobs were enqueued with no tenant key (`actor.customerId`,
 * null for agents and staff), so they passed the embedded runner's one-heavy-job-per-tenant gate
 * and got no pg-boss group: four of them held both heavy slots and demo2's one-label print waited
 * behind all of them. Each job is caught under way by holding its PDF's write at a gate, and the
 * test asserts which jobs were claimed, not how long anything took.
 */
const reached: string[] = [];
const held = heldStore('put', (hint) => {
  if (!hint.startsWith('labelA-')) return false;
  reached.push(hint);
  return true;
});

let h: Harness;
let demo: string;
let demo2: string;
let agent: string;
beforeAll(async () => {
  h = await createHarness({ env: INSTANCES_ENV, storage: held.storage });
  held.attach(h);
  [demo, demo2, agent] = await Promise.all([h.login('demo'), h.login('demo2'), h.login('agent')]);
});

async function startPrint(token: string, ids: number[]) {
  const r = await h.post('order/printLabelA', { ids }, token);
  expect(r.status).toBe(200);
  return r.body.data.jobId as number;
}
const hintOf = (jobId: number) => `labelA-${jobId}.pdf`;

describe("an agent's print jobs are fair by the agent's own key", () => {
  it("demo2's print job is claimed while the agent's later ones wait behind the agent's first", async () => {
    // One order each: a job refused for an order printed already would end without drawing.
    const [a1, a2, a3] = await Promise.all([0, 1, 2].map(() => createOrder(h.post, demo, jpOrderBody('PFA'))));
    const demo2Order = await createOrder(h.post, demo2, jpOrderBody('PFB'));
    const gate = held.closeGate();
    try {
      const first = await startPrint(agent, [a1!.id]);
      await waitFor("the agent's first job under way", () => reached.includes(hintOf(first)));
      const later = [await startPrint(agent, [a2!.id]), await startPrint(agent, [a3!.id])];
      const victim = await startPrint(demo2, [demo2Order.id]);
      // Without a key the agent's second job takes the other heavy slot and demo2's never starts
      // while the agent's are held.
      await waitFor("demo2's job under way", () => reached.includes(hintOf(victim)));
      expect(reached).toEqual([hintOf(first), hintOf(victim)]);
      expect(later.some((id) => reached.includes(hintOf(id)))).toBe(false);
    } finally {
      gate.open();
    }
    await waitFor(
      'every print job done',
      async () => {
        const rows = await h.db.selectFrom('print_jobs').select('status').execute();
        return rows.every((r) => r.status !== 'running');
      },
      60_000,
    );
  }, 90_000);
});

import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';
import { waitFor } from './support/jobs.ts';
import { heldStore, INSTANCES_ENV } from './support/two-instances.ts';

/**
 * Issue 38, a render's side: a render whose runs keep being cut short (its worker dies each time)
 * left its row "running" and its asker waiting up to the queue's four hours. Once the queue gives
 * up on it, the row is failed with `jobStoppedTooOften` and the asker answers that, in the caller's
 * language. PostgreSQL only: on SQLite a render is its asking process's own (processBound), and
 * one left by a dead process is failed at the next start with its asker gone with it.
 * The render is held under way at the worker's writing of its output.
 */
const held = heldStore('put', (hint) => hint !== 'render-input.bin');

let h: Harness;
let demo: string;
beforeAll(async () => {
  h = await createHarness({ env: INSTANCES_ENV, storage: held.storage });
  held.attach(h);
  demo = await h.login('demo');
});

for (const lang of ['en', 'zh-CN'] as const) {
  it(`a render stopped too often answers the reason (${lang})`, async () => {
    const g = held.closeGate();
    const answer = h.post('order/downloadOrderExcel', {}, demo, { 'accept-language': lang });
    await waitFor('the render under way', () => g.reached, 20_000);
    // Its last allowed run, its worker gone: the lease lapses and the supervisor fails it.
    await sql`update pgboss.job set retry_count = retry_limit, heartbeat_on = now() - interval '1 hour'
      where name in ('render-small', 'render-heavy') and state = 'active'`.execute(h.db);
    let r: Awaited<typeof answer> | undefined;
    void answer.then((x) => (r = x));
    await waitFor('the asker answered', () => r !== undefined, 30_000);
    g.open();
    expect(r!.status).toBe(500);
    expect(r!.body).toMatchObject({ code: 500, key: 'jobStoppedTooOften' });
    expect(r!.body.message).toMatch(
      lang === 'en' ? /^This job was stopped before it finished too many times/ : /^该任务多次在完成前被中断/,
    );
    // The asker removed the row; the held run, let go, finds it gone.
    await waitFor(
      'no render row left',
      async () => (await h.db.selectFrom('export_renders').select('id').execute()).length === 0,
    );
  }, 60_000);
}

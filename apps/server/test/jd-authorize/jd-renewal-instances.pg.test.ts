import { afterAll, describe, expect, it } from 'vitest';
import { type FakeJd, startFakeJd } from '../../../../e2e/support/fake-jd.ts';
import { secretBox } from '../../src/lib/secret-box.ts';
import { PURPOSE } from '../../src/modules/jd-authorize/jd-authorize.service.ts';
import { seedDemoJdAuthorize } from '../../src/seed/jd-authorize.ts';
import { slotOf } from '../../src/lib/jobs.shared.ts';
import { createHarness, secondInstance } from '../harness.ts';
import { settled } from '../support/jobs.ts';

/**
 * Issue 27: the JD renewal ran on every instance, so JD received the same refresh token once per
 * instance (a JD with reuse detection revokes the grant). Two instances on one PostgreSQL must
 * send it once per period. Several instances live on PostgreSQL (the embedded SQLite is one
 * process): this file runs in the PostgreSQL run.
 */
const KEY = 'cd'.repeat(32);
const DAY = 86_400_000;

let jd: FakeJd | undefined;
afterAll(() => jd?.close());

describe('JD renewal with two instances on one database', () => {
  it('a due token is sent to JD once, not once per instance', async () => {
    jd = await startFakeJd({ apps: {} });
    const env = { JD_OAUTH_BASE_URL: jd.url, JD_SECRET_KEY: KEY };
    // Renewal off while the due token is written, so neither instance sees it before both are up.
    const a = await createHarness({ env });
    const box = secretBox(Buffer.from(KEY, 'hex'));
    await seedDemoJdAuthorize(a.db, box, a.clock.now);
    await a.db
      .updateTable('jd_authorizations')
      .set({
        refresh_token_enc: box.seal('r-seeded-refresh-token', PURPOSE.refresh),
        access_token_enc: box.seal('a-seeded-access-token', PURPOSE.access),
        token_expires_at: new Date(a.clock.now.getTime() + DAY).toISOString(),
      })
      .execute();
    const due = (await a.db.selectFrom('jd_authorizations').select('id').execute()).length;
    expect(due).toBeGreaterThan(0);

    // Two instances start with the renewal on, at once, as a deploy starts them.
    const every = 6 * 3_600_000;
    const t0 = new Date();
    const [b, c] = await Promise.all([
      secondInstance(a, { env: { ...env, JD_RENEW_HOURS: '6', JOB_POLL_SECONDS: '0.5' } }),
      secondInstance(a, { env: { ...env, JD_RENEW_HOURS: '6', JOB_POLL_SECONDS: '0.5' } }),
    ]);
    // Each instance's start tick is not awaited by its start: each also ticks the period here, and
    // once both ticks have returned, every job either instance makes for the period is recorded.
    // Once all of them have ended, no run is still to come (issue 37: the job's recorded runs, not
    // a fixed sleep that a slow machine ends before the second run has started).
    await Promise.all([b.app.jobs.tick('jd-renewal', new Date()), c.app.jobs.tick('jd-renewal', new Date())]);
    const runs = await settled(a.db, 'jd-renewal', 1);
    const periods = slotOf(new Date(), every) - slotOf(t0, every) + 1;
    // One job for the period, not one per instance (two only if a 6-hour mark fell within the test).
    expect(runs.length).toBeLessThanOrEqual(periods);
    expect(runs).toContainEqual({ state: 'done' });
    const refreshes = jd.calls.filter((call) => call.path === '/oauth2/refresh_token').length;
    expect(refreshes).toBe(due);
  }, 120_000);
});

import { afterAll, describe, expect, it } from 'vitest';
import { type FakeJd, startFakeJd } from '../../../../e2e/support/fake-jd.ts';
import { secretBox } from '../../src/lib/secret-box.ts';
import { PURPOSE } from '../../src/modules/jd-authorize/jd-authorize.service.ts';
import { seedDemoJdAuthorize } from '../../src/seed/jd-authorize.ts';
import { createHarness, secondInstance } from '../harness.ts';

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
    await Promise.all([
      secondInstance(a, { env: { ...env, JD_RENEW_HOURS: '6', JOB_POLL_SECONDS: '0.5' } }),
      secondInstance(a, { env: { ...env, JD_RENEW_HOURS: '6', JOB_POLL_SECONDS: '0.5' } }),
    ]);
    const refreshes = () => jd!.calls.filter((c) => c.path === '/oauth2/refresh_token').length;
    for (let i = 0; i < 100 && refreshes() < due; i++) await new Promise((r) => setTimeout(r, 100));
    // Time for a second instance's run to arrive, were there one.
    await new Promise((r) => setTimeout(r, 3000));
    expect(refreshes()).toBe(due);
  });
});

import type { Database } from '../db/database.ts';
import type { SecretBox } from '../lib/secret-box.ts';
import { maskSecret, PURPOSE } from '../modules/jd-authorize/jd-authorize.service.ts';
import { NO_TOKENS } from '../modules/jd-authorize/jd-authorize.repository.ts';

/**
 * One JD app per demo customer, saved but not yet authorized, so the JD page shows a row to
 * authorize (embedded default only). The secrets are demo values, sealed like any other; the
 * e2e run's fake JD knows them (e2e/playwright.config.ts).
 */
export const DEMO_JD_APPS = {
  demo: { appKey: 'DEMOJDAPPKEY0001', appSecret: 'demo-jd-secret-0001', platformName: '京东POP店铺（演示）' },
  demo2: { appKey: 'DEMOJDAPPKEY0002', appSecret: 'demo-jd-secret-0002', platformName: '京东自营（第二客户）' },
} as const;

export async function seedDemoJdAuthorize(db: Database, box: SecretBox, now: Date) {
  const iso = now.toISOString();
  const users = await db
    .selectFrom('users')
    .select(['id', 'name', 'customer_id'])
    .where('name', 'in', Object.keys(DEMO_JD_APPS))
    .execute();
  for (const u of users) {
    const app = DEMO_JD_APPS[u.name as keyof typeof DEMO_JD_APPS];
    if (!u.customer_id) continue;
    const seen = await db
      .selectFrom('jd_authorizations')
      .select('id')
      .where('customer_id', '=', u.customer_id)
      .where('app_key', '=', app.appKey)
      .executeTakeFirst();
    if (seen) continue;
    await db
      .insertInto('jd_authorizations')
      .values({
        ...NO_TOKENS,
        customer_id: u.customer_id,
        app_key: app.appKey,
        app_secret_enc: box.seal(app.appSecret, PURPOSE.secret),
        app_secret_mask: maskSecret(app.appSecret),
        customer_code: `JD${u.name.toUpperCase()}`,
        isv_source: 'ISV-DEMO',
        dept_no: u.name === 'demo' ? 'EBU0000000000001' : 'EBU0000000000002',
        platform_id: '1',
        platform_name: app.platformName,
        created_by: u.id,
        created_at: iso,
        updated_at: iso,
      })
      .execute();
  }
}

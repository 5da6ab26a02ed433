import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeJd, startFakeJd } from '../../../../e2e/support/fake-jd.ts';
import { createHarness, type Harness } from '../harness.ts';
import { plain } from '../plain-client.ts';

/**
 * Finding 11 (issue 26): with JD_REDIRECT_URI unset, the redirect_uri sent to JD was built from
 * the request's Host header, so a forged Host sent JD's code elsewhere. It now comes from
 * configuration only (PUBLIC_URL, or JD_REDIRECT_URI); with neither, the authorization is
 * refused with a message naming the setting.
 */
let jd: FakeJd;
let configured: Harness;
let unconfigured: Harness;
const APP = { appKey: 'APPKEY-F11', appSecret: 'jdSecret-f11-0123456789' };
const fields = {
  ...APP,
  customerCode: 'JD-CUST-011',
  isvSource: 'ISV-0011',
  deptNo: 'EBU4418046514011',
  platformId: '10011',
  platformName: 'finding 11',
};

async function authorizationOf(h: Harness, token: string) {
  const r = await plain(h, 'jdAuthorize/create', fields, token);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.data.id as number;
}

/** getAuthorizeUrl with headers of the caller's choosing (a forged Host among them). */
async function authorizeUrl(h: Harness, token: string, id: number, headers: Record<string, string>) {
  const r = await h.post('jdAuthorize/getAuthorizeUrl', { id }, token, headers);
  return { ...r, data: r.status === 200 ? (r.body.data as { url: string }) : undefined };
}

beforeAll(async () => {
  jd = await startFakeJd({ apps: { [APP.appKey]: APP.appSecret } });
  configured = await createHarness({
    env: { JD_OAUTH_BASE_URL: jd.url, PUBLIC_URL: 'https://console.example.com/', TRUST_PROXY: '127.0.0.1' },
  });
  unconfigured = await createHarness({ env: { JD_OAUTH_BASE_URL: jd.url } });
});
afterAll(() => jd.close());

describe('finding 11: the JD redirect_uri comes from configuration only', () => {
  it('finding 11: a forged Host, X-Forwarded-Host or X-Forwarded-Proto does not change the redirect_uri', async () => {
    const token = await configured.login('demo');
    const id = await authorizationOf(configured, token);
    for (const headers of [
      {},
      { host: 'evil.example' },
      { host: 'evil.example:8443', 'x-forwarded-host': 'evil2.example', 'x-forwarded-proto': 'http' },
    ] as Record<string, string>[]) {
      const r = await authorizeUrl(configured, token, id, headers);
      expect(r.status, JSON.stringify(headers)).toBe(200);
      expect(new URL(r.data!.url).searchParams.get('redirect_uri'), JSON.stringify(headers)).toBe(
        'https://console.example.com/api/jdAuthorize/callback',
      );
    }
  });

  it('finding 11: without PUBLIC_URL (or JD_REDIRECT_URI) the authorization is refused, naming the setting, in both languages', async () => {
    const token = await unconfigured.login('demo');
    const id = await authorizationOf(unconfigured, token);
    const states = async () =>
      (await unconfigured.db.selectFrom('jd_oauth_states').select('state_hash').execute()).length;
    const before = await states();
    const en = await authorizeUrl(unconfigured, token, id, { host: 'evil.example', 'accept-language': 'en' });
    expect(en.status).toBe(409);
    expect(en.body.message).toMatch(/PUBLIC_URL/);
    expect(en.body.message).not.toMatch(/evil/);
    const zh = await authorizeUrl(unconfigured, token, id, { 'accept-language': 'zh-CN' });
    expect(zh.status).toBe(409);
    expect(zh.body.message).toMatch(/PUBLIC_URL/);
    expect(zh.body.message).toMatch(/[\u4e00-\u9fff]/);
    expect(zh.body.message).not.toBe(en.body.message);
    // Nothing was started: no state waits for a callback.
    expect(await states()).toBe(before);
  });
});

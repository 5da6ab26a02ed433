import fs from 'node:fs';
import path from 'node:path';
import { type CallDef, type jdAuthorize as C, jdAuthorize as jd_c } from '@console/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JD_BAD_CODE, JD_BAD_SECRET, type FakeJd, startFakeJd } from '../../../../e2e/support/fake-jd.ts';
import { dialectOf } from '../../src/db/dialect.ts';
import { logRequest } from '../../src/http/logging.ts';
import { ConfigError, testConfig } from '../../src/config.ts';
import { loadSecretKey, SECRET_KEY_FILE, secretBox } from '../../src/lib/secret-box.ts';
import { createJdClient } from '../../src/modules/jd-authorize/jd-client.ts';
import { createJdAuthorizeService } from '../../src/modules/jd-authorize/jd-authorize.service.ts';
import { DEMO_JD_APPS, seedDemoJdAuthorize } from '../../src/seed/jd-authorize.ts';
import { createHarness, type Harness } from '../harness.ts';
import { outsider } from '../items/helpers.ts';
import { plain } from '../plain-client.ts';

/**
 * JD authorizations (issue 16) against a fake JD on a real local HTTP server: the OAuth state is
 * the caller's, single use and expiring; the secret and tokens are sealed at rest (not in the
 * database file's bytes) and answered masked; renewal; the tenant matrix over every call.
 */
let h: Harness;
let jd: FakeJd;
let demo: string;
let demo2: string;
let agent: string;
let operator: string;
let other: { customerId: number; token: string };
let ids: { demo: number; demo2: number };

const SECRET = 'jdSecret-7c1e9a44b2f0d6e3';
const fields = {
  appKey: 'APPKEY-DEMO-1',
  appSecret: SECRET,
  customerCode: 'JD-CUST-001',
  isvSource: 'ISV-0001',
  deptNo: 'EBU4418046514001',
  platformId: '10001',
  platformName: '京东自营',
};
const DAY = 24 * 60 * 60 * 1000;

async function create(token: string, body: Record<string, unknown> = {}) {
  const r = await plain(h, 'jdAuthorize/create', { ...fields, ...body }, token);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.data as C.JdAuthorizeRow;
}

/** The whole dance: URL, JD's page agreed, JD's redirect to our callback, the callback's redirect, the exchange. */
async function authorize(token: string, id: number) {
  const u = await plain(h, 'jdAuthorize/getAuthorizeUrl', { id }, token);
  expect(u.status, JSON.stringify(u.body)).toBe(200);
  const callback = new URL(await jd.approve(u.data.url));
  const back = await h.app.inject({ method: 'GET', url: callback.pathname + callback.search });
  expect(back.statusCode).toBe(302);
  const target = new URL(back.headers.location as string, 'http://console');
  expect(target.pathname).toBe('/home/order/jdAuthorize');
  const back2 = new URLSearchParams(target.hash.slice(1));
  const code = back2.get('jdCode')!;
  const state = back2.get('jdState')!;
  return {
    code,
    state,
    url: u.data.url as string,
    exchange: (t = token) => plain(h, 'jdAuthorize/getJdToken', { code, state }, t),
  };
}

beforeAll(async () => {
  jd = await startFakeJd({ apps: { [fields.appKey]: SECRET, 'APPKEY-DEMO2': 'demo2-secret-xyz' } });
  h = await createHarness({ env: { JD_OAUTH_BASE_URL: jd.url, PUBLIC_URL: 'https://console.test.example' } });
  [demo, demo2, agent, operator] = await Promise.all(['demo', 'demo2', 'agent', 'operator'].map((n) => h.login(n)));
  other = await outsider(h, 'jdoutsider');
  const customers = await h.db.selectFrom('customers').select(['id', 'code']).execute();
  ids = {
    demo: customers.find((c) => c.code === 'DEMO')!.id,
    demo2: customers.find((c) => c.code === 'DEMO2')!.id,
  };
});
afterAll(() => jd.close());

describe('saving a JD app', () => {
  it('a customer saves one; every answer masks the secret; the list, info and select show it', async () => {
    const row = await create(demo);
    expect(row).toMatchObject({
      customerId: ids.demo,
      ownerCode: 'DEMO',
      appKey: fields.appKey,
      customerCode: 'JD-CUST-001',
      deptNo: fields.deptNo,
      authorized: false,
      accessTokenMasked: '',
      tokenExpiresAt: null,
      expiringSoon: false,
    });
    expect(row.appSecretMasked).toBe('jdSe********d6e3');
    const list = await plain(h, 'jdAuthorize/list', { keyword: 'appkey-demo' }, demo);
    expect(list.data.list.map((x: C.JdAuthorizeRow) => x.id)).toContain(row.id);
    const info = await plain(h, 'jdAuthorize/info', { id: row.id }, demo);
    const select = await plain(h, 'jdAuthorize/select', {}, demo);
    expect(select.data).toContainEqual({ id: row.id, label: `京东自营 (${fields.appKey})`, authorized: false });
    for (const answer of [row, list.body, info.body, select.body, list.data, info.data]) {
      expect(JSON.stringify(answer)).not.toContain(SECRET);
    }
    const stored = await h.db
      .selectFrom('jd_authorizations')
      .selectAll()
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(stored.app_secret_enc).toMatch(/^v1\./);
    expect(stored.app_secret_enc).not.toContain(SECRET);
  });

  it('bad input is a 422 on the field; a customer cannot name another customer; staff must name one in scope', async () => {
    const missing = await plain(h, 'jdAuthorize/create', { ...fields, appKey: '' }, demo);
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.data)).toEqual(['appKey']);
    const noSecret = await plain(h, 'jdAuthorize/create', { ...fields, appSecret: '' }, demo);
    expect(noSecret.status).toBe(422);
    expect(Object.keys(noSecret.body.data)).toEqual(['appSecret']);
    const forged = await plain(h, 'jdAuthorize/create', { ...fields, customerId: ids.demo2 }, demo);
    expect(forged.status).toBe(422);
    expect(Object.keys(forged.body.data)).toEqual(['customerId']);
    const none = await plain(h, 'jdAuthorize/create', fields, operator);
    expect(none.status).toBe(422);
    const outOfScope = await plain(h, 'jdAuthorize/create', { ...fields, customerId: other.customerId }, agent);
    expect(outOfScope.status).toBe(422);
    // Issue 36 #11: an operator sees every customer, so a made-up id reached the database (400 dbInvalidInput).
    const unknown = await plain(h, 'jdAuthorize/create', { ...fields, customerId: 987_654 }, operator);
    expect(unknown.status, JSON.stringify(unknown.body)).toBe(422);
    expect(unknown.body.data).toEqual({ customerId: [expect.stringMatching(/客户不存在|not found/)] });
    const byAgent = await create(agent, {
      customerId: ids.demo2,
      appKey: 'APPKEY-DEMO2',
      appSecret: 'demo2-secret-xyz',
    });
    expect(byAgent.customerId).toBe(ids.demo2);
  });

  it('an update with an empty secret keeps it; a new app key or secret drops the tokens', async () => {
    const row = await create(demo, { appKey: fields.appKey, platformName: 'keep' });
    const flow = await authorize(demo, row.id);
    expect((await flow.exchange()).data.authorized).toBe(true);
    const kept = await plain(
      h,
      'jdAuthorize/update',
      { ...fields, id: row.id, appSecret: '', platformName: 'renamed' },
      demo,
    );
    expect(kept.status).toBe(200);
    expect(kept.data).toMatchObject({ platformName: 'renamed', authorized: true, appSecretMasked: 'jdSe********d6e3' });
    const { appSecret: _omit, ...withoutSecret } = fields;
    expect((await plain(h, 'jdAuthorize/update', { ...withoutSecret, id: row.id }, demo)).data.authorized).toBe(true);
    const rekeyed = await plain(h, 'jdAuthorize/update', { ...withoutSecret, id: row.id, appKey: 'OTHER-KEY' }, demo);
    expect(rekeyed.data).toMatchObject({ appKey: 'OTHER-KEY', authorized: false, tokenExpiresAt: null });
    const stored = await h.db
      .selectFrom('jd_authorizations')
      .selectAll()
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ access_token_enc: null, refresh_token_enc: null });
  });
});

describe('the OAuth dance with JD', () => {
  it('builds JD’s authorization URL, exchanges the code for tokens and stores them with their expiry', async () => {
    const row = await create(demo, { platformName: 'dance' });
    const before = jd.calls.length;
    const flow = await authorize(demo, row.id);
    const u = new URL(flow.url);
    expect(u.origin + u.pathname).toBe(`${jd.url}/oauth2/to_login`);
    expect(Object.fromEntries(u.searchParams)).toMatchObject({
      app_key: fields.appKey,
      response_type: 'code',
      redirect_uri: 'https://console.test.example/api/jdAuthorize/callback',
      scope: 'snsapi_base',
    });
    expect(flow.state).toBe(u.searchParams.get('state'));
    // Only the state's hash is stored.
    expect(
      await h.db.selectFrom('jd_oauth_states').select('state_hash').where('state_hash', '=', flow.state).execute(),
    ).toEqual([]);

    const r = await flow.exchange();
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const granted = jd.issued.at(-1)!;
    expect(jd.calls.slice(before)).toEqual([
      {
        path: '/oauth2/access_token',
        query: { app_key: fields.appKey, app_secret: SECRET, grant_type: 'authorization_code', code: flow.code },
      },
    ]);
    expect(r.data).toMatchObject({ authorized: true, expired: false, expiringSoon: false });
    expect(new Date(r.data.tokenExpiresAt).getTime()).toBe(h.clock.now.getTime() + jd.expiresIn * 1000);
    expect(r.data.accessTokenMasked).not.toBe(granted.accessToken);
    expect(r.data.accessTokenMasked.slice(0, 4)).toBe(granted.accessToken.slice(0, 4));
    expect(JSON.stringify(r.body)).not.toContain(granted.accessToken);
    const listed = await plain(h, 'jdAuthorize/list', { status: 'valid' }, demo);
    expect(JSON.stringify(listed.data)).not.toContain(granted.accessToken);
    expect(listed.data.list.map((x: C.JdAuthorizeRow) => x.id)).toContain(row.id);
  });

  it("another user's state is refused (and stays good for its owner); a used state is refused", async () => {
    const row = await create(demo, { platformName: 'bound' });
    const flow = await authorize(demo, row.id);
    for (const t of [demo2, agent, operator]) {
      const r = await flow.exchange(t);
      expect(r.status).toBe(422);
      expect(Object.keys(r.body.data)).toEqual(['state']);
    }
    expect((await flow.exchange()).status).toBe(200);
    const again = await flow.exchange();
    expect(again.status).toBe(422);
    expect(again.body.data.state[0]).toMatch(/already used or has expired/);
  });

  it('two exchanges of one state at once: exactly one succeeds', async () => {
    const row = await create(demo, { platformName: 'race' });
    const flow = await authorize(demo, row.id);
    const answers = await Promise.all([flow.exchange(), flow.exchange(), flow.exchange()]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 422, 422]);
  });

  it('an expired state is refused', async () => {
    const row = await create(demo, { platformName: 'expired-state' });
    const flow = await authorize(demo, row.id);
    const saved = h.clock.now;
    h.clock.now = new Date(saved.getTime() + 10 * 60 * 1000 + 1);
    try {
      const r = await flow.exchange();
      expect(r.status).toBe(422);
      expect(Object.keys(r.body.data)).toEqual(['state']);
    } finally {
      h.clock.now = saved;
    }
  });

  it('JD refusing an expired or used code, or a wrong secret, is a 400 with JD’s message; nothing is stored', async () => {
    const row = await create(demo, { platformName: 'refusals' });
    const first = await authorize(demo, row.id);
    jd.expireCode(first.code);
    const expired = await first.exchange();
    expect(expired.status).toBe(400);
    expect(expired.body.message).toContain(JD_BAD_CODE.msg);
    expect(expired.body.message).toContain(String(JD_BAD_CODE.code));

    const second = await authorize(demo, row.id);
    expect((await second.exchange()).status).toBe(200);
    // The code again, with a fresh state: JD says it is used.
    const third = await authorize(demo, row.id);
    const reused = await plain(h, 'jdAuthorize/getJdToken', { code: second.code, state: third.state }, demo);
    expect(reused.status).toBe(400);
    expect(reused.body.message).toContain(JD_BAD_CODE.msg);

    const bad = await create(demo, { platformName: 'bad secret', appSecret: 'not-the-secret' });
    const flow = await authorize(demo, bad.id);
    const refused = await flow.exchange();
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain(JD_BAD_SECRET.msg);
    expect(refused.body.message).not.toContain('not-the-secret');
    expect((await plain(h, 'jdAuthorize/info', { id: bad.id }, demo)).data.authorized).toBe(false);
  });

  it('the callback passes only code and state on (or JD’s error), to a fixed console page', async () => {
    const declined = await h.app.inject({
      method: 'GET',
      url: '/api/jdAuthorize/callback?error=access_denied&state=x',
    });
    expect(declined.statusCode).toBe(302);
    expect(declined.headers.location).toBe('/home/order/jdAuthorize#jdError=access_denied');
    const hostile = await h.app.inject({
      method: 'GET',
      url: `/api/jdAuthorize/callback?code=${encodeURIComponent('<script>')}&state=abc`,
    });
    expect(hostile.headers.location).toBe('/home/order/jdAuthorize#jdError=missing_code');
  });
});

describe('renewal and the expiry warning', () => {
  it('a token within 7 days of expiry is flagged; renewal refreshes it with the stored refresh token', async () => {
    const row = await create(demo, { platformName: 'renew' });
    jd.expiresIn = 3 * 24 * 3600;
    let r;
    try {
      r = await (await authorize(demo, row.id)).exchange();
    } finally {
      jd.expiresIn = 31535999;
    }
    expect(r.data).toMatchObject({ authorized: true, expiringSoon: true, expired: false });
    const expiring = await plain(h, 'jdAuthorize/list', { status: 'expiring' }, demo);
    expect(expiring.data.list.map((x: C.JdAuthorizeRow) => x.id)).toEqual([row.id]);
    const firstGrant = jd.issued.at(-1)!;

    const renewed = await plain(h, 'jdAuthorize/renewal', { id: row.id }, demo);
    expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
    expect(jd.calls.at(-1)).toEqual({
      path: '/oauth2/refresh_token',
      query: {
        app_key: fields.appKey,
        app_secret: SECRET,
        grant_type: 'refresh_token',
        refresh_token: firstGrant.refreshToken,
      },
    });
    expect(renewed.data).toMatchObject({ authorized: true, expiringSoon: false });
    expect(new Date(renewed.data.tokenExpiresAt).getTime()).toBe(h.clock.now.getTime() + jd.expiresIn * 1000);
    // The new refresh token is the one stored: renewing again sends it.
    expect((await plain(h, 'jdAuthorize/renewal', { id: row.id }, demo)).status).toBe(200);
    expect(jd.calls.at(-1)!.query.refresh_token).toBe(jd.issued.at(-2)!.refreshToken);

    // Past its expiry the row says so (and the list's filter finds it).
    const past = new Date(h.clock.now.getTime() - DAY).toISOString();
    await h.db.updateTable('jd_authorizations').set({ token_expires_at: past }).where('id', '=', row.id).execute();
    const info = await plain(h, 'jdAuthorize/info', { id: row.id }, demo);
    expect(info.data).toMatchObject({ expired: true, expiringSoon: false });
    const expired = await plain(h, 'jdAuthorize/list', { status: 'expired' }, demo);
    expect(expired.data.list.map((x: C.JdAuthorizeRow) => x.id)).toEqual([row.id]);
  });

  it('renewing an app never authorized is a 409', async () => {
    const row = await create(demo, { platformName: 'never' });
    const r = await plain(h, 'jdAuthorize/renewal', { id: row.id }, demo);
    expect(r.status).toBe(409);
  });
});

describe('the renewal job (JD_RENEW_HOURS)', () => {
  it('renews the tokens near their expiry with their refresh tokens, leaves the others, and one refusal stops no other', async () => {
    const soon = await create(demo, { platformName: 'auto soon' });
    const later = await create(demo, { platformName: 'auto later' });
    jd.apps.set('APPKEY-ROTATED', SECRET);
    const refused = await create(demo, { platformName: 'auto refused', appKey: 'APPKEY-ROTATED' });
    jd.expiresIn = 2 * 24 * 3600;
    try {
      await (await authorize(demo, soon.id)).exchange();
      await (await authorize(demo, refused.id)).exchange();
    } finally {
      jd.expiresIn = 31535999;
    }
    await (await authorize(demo, later.id)).exchange();
    // The refused one's secret is rotated at JD since: JD refuses its refresh.
    jd.apps.set('APPKEY-ROTATED', 'rotated-at-jd-0001');
    const expiryOf = async (id: number) =>
      (
        await h.db
          .selectFrom('jd_authorizations')
          .select('token_expires_at')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).token_expires_at;
    const [laterBefore, refusedBefore] = [await expiryOf(later.id), await expiryOf(refused.id)];

    const service = createJdAuthorizeService({
      db: h.db,
      clock: () => h.clock.now,
      box: secretBox(loadSecretKey(h.config.JD_SECRET_KEY, h.dataDir)),
      jd: createJdClient(jd.url),
      redirectUri: 'https://console.test.example/api/jdAuthorize/callback',
    });
    const r = await service.renewDue();
    expect(r.failed.map((f) => f.id)).toEqual([refused.id]);
    expect(r.renewed).toBeGreaterThanOrEqual(1);
    const info = await plain(h, 'jdAuthorize/info', { id: soon.id }, demo);
    expect(info.data).toMatchObject({ authorized: true, expiringSoon: false, expired: false });
    expect(new Date(info.data.tokenExpiresAt).getTime()).toBe(h.clock.now.getTime() + jd.expiresIn * 1000);
    // The one valid for a year was not sent to JD; the refused one keeps its token and its warning.
    expect(await expiryOf(later.id)).toEqual(laterBefore);
    expect(await expiryOf(refused.id)).toEqual(refusedBefore);
    expect((await plain(h, 'jdAuthorize/info', { id: refused.id }, demo)).data).toMatchObject({ expiringSoon: true });
    // Nothing is due any more but the refused one.
    const again = await service.renewDue();
    expect(again).toEqual({ renewed: 0, failed: [expect.objectContaining({ id: refused.id })] });
  });
});

describe('secrets at rest', () => {
  it('neither the app secret nor the tokens are in the database file; the key is not in the database', async () => {
    const row = await create(demo, { platformName: 'at rest' });
    await (await authorize(demo, row.id)).exchange();
    await plain(h, 'jdAuthorize/renewal', { id: row.id }, demo);
    const secrets = [SECRET, ...jd.issued.flatMap((g) => [g.accessToken, g.refreshToken])];
    // The key the app uses: PostgreSQL requires it configured (shared by every instance); on
    // SQLite without one it is the generated key file, readable by its owner only.
    const configured = h.config.JD_SECRET_KEY?.toString('hex');
    if (!configured) expect(fs.statSync(path.join(h.dataDir, SECRET_KEY_FILE)).mode & 0o077).toBe(0);
    const key = configured ?? fs.readFileSync(path.join(h.dataDir, SECRET_KEY_FILE), 'utf8').trim();
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    const rows = await h.db.selectFrom('jd_authorizations').selectAll().execute();
    const text = JSON.stringify(rows);
    for (const p of [...secrets, key]) expect(text).not.toContain(p);
    if (dialectOf(h.db) === 'sqlite') {
      // The file and its write-ahead log, as a thief would copy them.
      const file = path.join(h.dataDir, 'test.sqlite');
      const bytes = Buffer.concat([file, `${file}-wal`].filter((f) => fs.existsSync(f)).map((f) => fs.readFileSync(f)));
      expect(bytes.includes(Buffer.from(fields.appKey))).toBe(true); // the file is the one written
      for (const p of [...secrets, key]) expect(bytes.includes(Buffer.from(p))).toBe(false);
    }
    // The sealed value opens with the key and only for its own column.
    const box = secretBox(Buffer.from(key, 'hex'));
    const stored = rows.find((r) => r.id === row.id)!;
    expect(box.open(stored.app_secret_enc, 'jd_authorizations.app_secret')).toBe(SECRET);
    expect(() => box.open(stored.app_secret_enc, 'jd_authorizations.access_token')).toThrow();
  });

  it('JD_SECRET_KEY is checked at start with a clear message; a configured key is used as given', () => {
    expect(() => testConfig({ JD_SECRET_KEY: 'short' })).toThrow(ConfigError);
    expect(() => testConfig({ JD_SECRET_KEY: 'short' })).toThrow(/JD_SECRET_KEY: want 32 bytes/);
    const hex = 'ab'.repeat(32);
    const config = testConfig({ JD_SECRET_KEY: hex });
    expect(config.JD_SECRET_KEY?.toString('hex')).toBe(hex);
    expect(loadSecretKey(config.JD_SECRET_KEY, '/nonexistent-never-created')).toEqual(Buffer.from(hex, 'hex'));
  });
});

describe('the tenant matrix', () => {
  it("demo2 reads and changes nothing of demo's; the agent and operators reach both; an outsider neither", async () => {
    const mine = await create(demo, { platformName: 'tenant' });
    const flow = await authorize(demo, mine.id);
    await flow.exchange();
    const calls: [string, Record<string, unknown>][] = [
      ['jdAuthorize/info', { id: mine.id }],
      ['jdAuthorize/update', { ...fields, id: mine.id, platformName: 'stolen' }],
      ['jdAuthorize/getAuthorizeUrl', { id: mine.id }],
      ['jdAuthorize/renewal', { id: mine.id }],
      ['jdAuthorize/delete', { id: mine.id }],
    ];
    for (const t of [demo2, other.token]) {
      for (const [p, body] of calls) {
        const r = await plain(h, p, body, t);
        expect(r.status, `${p}: ${JSON.stringify(r.body)}`).toBe(404);
      }
      const list = await plain(h, 'jdAuthorize/list', { limit: 500 }, t);
      expect(list.data.list.some((x: C.JdAuthorizeRow) => x.customerId === ids.demo)).toBe(false);
      const select = await plain(h, 'jdAuthorize/select', {}, t);
      expect(select.data.some((x: { id: number }) => x.id === mine.id)).toBe(false);
      const filtered = await plain(h, 'jdAuthorize/list', { customerId: ids.demo }, t);
      expect(filtered.data.total).toBe(0);
    }
    const after = await plain(h, 'jdAuthorize/info', { id: mine.id }, demo);
    expect(after.data).toMatchObject({ platformName: 'tenant', authorized: true });

    for (const t of [agent, operator]) {
      expect((await plain(h, 'jdAuthorize/info', { id: mine.id }, t)).status).toBe(200);
    }
    expect((await plain(h, 'jdAuthorize/info', { id: mine.id }, other.token)).status).toBe(404);
    const own = await create(other.token, { appKey: 'OUTSIDER' });
    expect((await plain(h, 'jdAuthorize/info', { id: own.id }, agent)).status).toBe(404);
    expect((await plain(h, 'jdAuthorize/info', { id: own.id }, operator)).status).toBe(200);

    // Without a token: 401 on every call.
    for (const p of [
      'list',
      'select',
      'info',
      'create',
      'update',
      'delete',
      'getAuthorizeUrl',
      'renewal',
      'getJdToken',
    ]) {
      expect((await h.post(`jdAuthorize/${p}`, {})).status).toBe(401);
    }

    // Delete: the owner's works, and its states go with it.
    expect((await plain(h, 'jdAuthorize/delete', { id: mine.id }, demo)).status).toBe(200);
    expect((await plain(h, 'jdAuthorize/info', { id: mine.id }, demo)).status).toBe(404);
    expect(
      await h.db.selectFrom('jd_oauth_states').select('state_hash').where('authorization_id', '=', mine.id).execute(),
    ).toEqual([]);
  });

  it('every call needs a JD route (permission) and travels in the AES envelope', () => {
    const defs = (Object.values(jd_c) as unknown[]).filter(
      (v): v is CallDef => typeof v === 'object' && v !== null && 'path' in v,
    );
    expect(defs.map((d) => d.path).sort()).toEqual(
      ['create', 'delete', 'getAuthorizeUrl', 'getJdToken', 'info', 'list', 'renewal', 'select', 'update'].map(
        (p) => `jdAuthorize/${p}`,
      ),
    );
    for (const d of defs) {
      expect(d.permission).toMatch(/^order\.jdAuthorize(\.create|\.update)?$/);
      // Plain, as spec §7 marks them.
      expect(d.aes).toBe(false);
    }
  });
});

describe('demo seed', () => {
  it('gives demo and demo2 one JD app each, not yet authorized, its secret sealed; twice adds nothing', async () => {
    const box = secretBox(loadSecretKey(h.config.JD_SECRET_KEY, h.dataDir));
    await seedDemoJdAuthorize(h.db, box, h.clock.now);
    await seedDemoJdAuthorize(h.db, box, h.clock.now);
    for (const [name, token] of [
      ['demo', demo],
      ['demo2', demo2],
    ] as const) {
      const list = await plain(h, 'jdAuthorize/list', { keyword: DEMO_JD_APPS[name].appKey }, token);
      expect(list.data.list).toHaveLength(1);
      expect(list.data.list[0]).toMatchObject({ authorized: false, platformName: DEMO_JD_APPS[name].platformName });
      const stored = await h.db
        .selectFrom('jd_authorizations')
        .select('app_secret_enc')
        .where('id', '=', list.data.list[0].id)
        .executeTakeFirstOrThrow();
      expect(box.open(stored.app_secret_enc, 'jd_authorizations.app_secret')).toBe(DEMO_JD_APPS[name].appSecret);
    }
  });
});

describe('logging', () => {
  it("the callback's code and state are not in the request log line; other URLs are logged whole", () => {
    const line = logRequest({ method: 'GET', url: '/api/jdAuthorize/callback?code=SECRETCODE&state=S', host: 'h' });
    expect(line.url).toBe('/api/jdAuthorize/callback');
    expect(JSON.stringify(line)).not.toContain('SECRETCODE');
    expect(logRequest({ method: 'POST', url: '/api/order/list?x=1' }).url).toBe('/api/order/list?x=1');
  });
});

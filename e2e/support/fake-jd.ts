/**
 * A stand-in for the JD open platform's OAuth 2 server (open-oauth.jd.com), over real HTTP, as
 * JD documents it (docs/decisions.md, "JD authorizations"): the login-and-agree page at
 * /oauth2/to_login that sends the browser back to redirect_uri with `code` and `state`; the
 * token answer at /oauth2/access_token (a code is good once, for 5 minutes); the refresh at
 * /oauth2/refresh_token. Refusals answer HTTP 200 with a non-zero `code` and `msg`, as JD does.
 * Used by the server tests (startFakeJd) and by the e2e run (started as a script:
 * JD_FAKE_PORT, JD_FAKE_APPS="KEY=secret,…", JD_FAKE_EXPIRES_IN seconds).
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

export const JD_BAD_SECRET = { code: 401, msg: 'app_secret is invalid' };
export const JD_BAD_CODE = { code: 402, msg: 'code is invalid: expired or already used' };
export const JD_BAD_REFRESH = { code: 403, msg: 'refresh_token is invalid' };

export interface FakeJd {
  url: string;
  /** App keys and their secrets JD knows. */
  apps: Map<string, string>;
  /** Lifetime of the access tokens it grants, in seconds. */
  expiresIn: number;
  /** Every token call received: path and query (the secret included, to assert what was sent). */
  calls: { path: string; query: Record<string, string> }[];
  /** Every access and refresh token granted, newest last. */
  issued: { accessToken: string; refreshToken: string }[];
  /** The browser's visit: the agree link followed; answers the callback URL JD redirects to. */
  approve(authorizeUrl: string): Promise<string>;
  /** Makes a code expire now. */
  expireCode(code: string): void;
  close(): Promise<void>;
}

const token = (prefix: string) => `${prefix}${randomBytes(18).toString('hex')}`;

export async function startFakeJd(opts: { port?: number; apps?: Record<string, string>; expiresIn?: number } = {}) {
  const apps = new Map(Object.entries(opts.apps ?? {}));
  const codes = new Map<string, { appKey: string; used: boolean; expiresAt: number }>();
  const refreshTokens = new Map<string, { appKey: string; openId: string }>();
  const calls: FakeJd['calls'] = [];
  const issued: FakeJd['issued'] = [];
  const fake = { expiresIn: opts.expiresIn ?? 31535999 } as FakeJd;

  const json = (res: http.ServerResponse, body: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json;charset=utf-8' });
    res.end(JSON.stringify(body));
  };
  const grant = (res: http.ServerResponse, appKey: string, openId: string) => {
    const refresh = token('r');
    const access = token('a');
    refreshTokens.set(refresh, { appKey, openId });
    issued.push({ accessToken: access, refreshToken: refresh });
    json(res, {
      access_token: access,
      expires_in: fake.expiresIn,
      refresh_token: refresh,
      scope: 'snsapi_base',
      open_id: openId,
      uid: openId.slice(0, 12),
      time: Date.now(),
      token_type: 'bearer',
      code: 0,
      xid: `o*${openId.slice(0, 10)}`,
    });
  };

  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://fake-jd');
    const q = Object.fromEntries(u.searchParams);
    if (u.pathname === '/oauth2/to_login') {
      if (!apps.has(q.app_key ?? '') || q.response_type !== 'code' || !q.redirect_uri) {
        res.writeHead(400, { 'content-type': 'text/html;charset=utf-8' });
        return res.end('<h1>app_key or redirect_uri is invalid</h1>');
      }
      if (q.confirm !== '1') {
        // JD's page: the shop's user logs in and agrees; here one link does both.
        u.searchParams.set('confirm', '1');
        res.writeHead(200, { 'content-type': 'text/html;charset=utf-8' });
        return res.end(
          `<!doctype html><title>京东开放平台授权</title><h1>京东开放平台</h1><p>应用 ${q.app_key} 申请授权</p>` +
            `<a id="agree" href="${u.pathname}${u.search.replace(/"/g, '&quot;')}">同意授权</a>`,
        );
      }
      const code = randomBytes(8).toString('hex');
      codes.set(code, { appKey: q.app_key!, used: false, expiresAt: Date.now() + 5 * 60_000 });
      const back = new URL(q.redirect_uri);
      back.searchParams.set('code', code);
      if (q.state) back.searchParams.set('state', q.state);
      res.writeHead(302, { location: back.toString() });
      return res.end();
    }
    if (u.pathname === '/oauth2/access_token' || u.pathname === '/oauth2/refresh_token') {
      calls.push({ path: u.pathname, query: q });
      const secret = apps.get(q.app_key ?? '');
      if (secret === undefined || secret !== q.app_secret) return json(res, JD_BAD_SECRET);
      if (u.pathname === '/oauth2/access_token') {
        const c = codes.get(q.code ?? '');
        if (
          q.grant_type !== 'authorization_code' ||
          !c ||
          c.used ||
          c.expiresAt <= Date.now() ||
          c.appKey !== q.app_key
        )
          return json(res, JD_BAD_CODE);
        c.used = true;
        return grant(res, q.app_key!, token('open'));
      }
      const r = refreshTokens.get(q.refresh_token ?? '');
      if (q.grant_type !== 'refresh_token' || !r || r.appKey !== q.app_key) return json(res, JD_BAD_REFRESH);
      refreshTokens.delete(q.refresh_token!);
      return grant(res, r.appKey, r.openId);
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    apps,
    calls,
    issued,
    async approve(authorizeUrl: string) {
      const u = new URL(authorizeUrl);
      u.searchParams.set('confirm', '1');
      const res = await fetch(u, { redirect: 'manual' });
      const location = res.headers.get('location');
      if (res.status !== 302 || !location) throw new Error(`JD did not redirect: ${res.status}`);
      return location;
    },
    expireCode(code: string) {
      const c = codes.get(code);
      if (c) c.expiresAt = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
  return fake;
}

// Started as a script (the e2e run's JD).
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const apps = Object.fromEntries(
    (process.env.JD_FAKE_APPS ?? '')
      .split(',')
      .filter(Boolean)
      .map((p) => p.split('=') as [string, string]),
  );
  const fake = await startFakeJd({
    port: Number(process.env.JD_FAKE_PORT ?? 8092),
    apps,
    expiresIn: Number(process.env.JD_FAKE_EXPIRES_IN ?? 31535999),
  });
  console.log(`fake JD listening on ${fake.url}`);
}

/**
 * The one adapter to the JD open platform's OAuth 2 server (jos.jd.com, "open-oauth.jd.com"),
 * through fetch. Shapes followed (docs/decisions.md, "JD authorizations"):
 *
 *   browser → GET {base}/oauth2/to_login?app_key&response_type=code&redirect_uri&state&scope=snsapi_base
 *   JD      → GET {redirect_uri}?code&state
 *   server  → GET {base}/oauth2/access_token?app_key&app_secret&grant_type=authorization_code&code
 *   server  → GET {base}/oauth2/refresh_token?app_key&app_secret&grant_type=refresh_token&refresh_token
 *
 * A success answers JSON with `access_token`, `refresh_token`, `expires_in` (seconds), `open_id`,
 * `uid`, `scope`, `token_type`, `time` (ms) and `code: 0`; a refusal answers a non-zero `code`
 * with `msg` (an expired or used code, a wrong app secret, a stale refresh token). The URLs carry
 * the app secret, as JD asks: they are never logged.
 */
export interface JdTokens {
  accessToken: string;
  refreshToken: string;
  /** Seconds the access token lives from now. */
  expiresIn: number;
  openId: string;
  uid: string;
  scope: string;
}

/** JD answered with a refusal (`code`, `msg`), or not in its shape, or not at all (code -1). */
export class JdError extends Error {
  readonly jdCode: number;
  readonly jdMessage: string;
  constructor(jdCode: number, jdMessage: string) {
    super(`JD refused (${jdCode}): ${jdMessage}`);
    this.jdCode = jdCode;
    this.jdMessage = jdMessage;
  }
}

export interface JdClient {
  authorizeUrl(appKey: string, redirectUri: string, state: string): string;
  exchangeCode(appKey: string, appSecret: string, code: string): Promise<JdTokens>;
  refresh(appKey: string, appSecret: string, refreshToken: string): Promise<JdTokens>;
}

const TIMEOUT_MS = 15_000;

export function createJdClient(baseUrl: string): JdClient {
  const base = baseUrl.replace(/\/+$/, '');
  const url = (p: string, q: Record<string, string>) => `${base}${p}?${new URLSearchParams(q).toString()}`;

  async function tokenCall(p: string, q: Record<string, string>): Promise<JdTokens> {
    let res: Response;
    try {
      res = await fetch(url(p, q), {
        signal: AbortSignal.timeout(TIMEOUT_MS),
        headers: { accept: 'application/json' },
      });
    } catch (e) {
      throw new JdError(-1, e instanceof Error ? e.name : 'unreachable');
    }
    const text = await res.text();
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      throw new JdError(-1, `HTTP ${res.status}: not JSON`);
    }
    const code = Number(body.code ?? 0);
    const access = body.access_token;
    if (code !== 0 || typeof access !== 'string' || !access) {
      throw new JdError(code || -1, String(body.msg ?? body.message ?? body.error_description ?? `HTTP ${res.status}`));
    }
    const expiresIn = Number(body.expires_in);
    return {
      accessToken: access,
      refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : '',
      expiresIn: Number.isFinite(expiresIn) && expiresIn > 0 ? Math.floor(expiresIn) : 0,
      openId: String(body.open_id ?? ''),
      uid: String(body.uid ?? ''),
      scope: String(body.scope ?? ''),
    };
  }

  return {
    authorizeUrl: (appKey, redirectUri, state) =>
      url('/oauth2/to_login', {
        app_key: appKey,
        response_type: 'code',
        redirect_uri: redirectUri,
        state,
        scope: 'snsapi_base',
      }),
    exchangeCode: (appKey, appSecret, code) =>
      tokenCall('/oauth2/access_token', {
        app_key: appKey,
        app_secret: appSecret,
        grant_type: 'authorization_code',
        code,
      }),
    refresh: (appKey, appSecret, refreshToken) =>
      tokenCall('/oauth2/refresh_token', {
        app_key: appKey,
        app_secret: appSecret,
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
      }),
  };
}

import { z } from 'zod';
import { bool } from './config-values.ts';

/**
 * The settings of what the server talks to outside itself: the v1 API's budget and webhooks
 * (issue 39), JD's open platform, the mail server for export permits, the clearance companies'
 * webhook. A part of the one configuration config.ts parses.
 */
export const integrationSettings = {
  /**
   * Requests per minute one API key may make on the v1 API (issue 39), counted in the database so
   * the budget holds however many instances serve; past it, 429 with Retry-After.
   */
  API_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
  /**
   * Webhook targets allowed although they resolve to a loopback, private, link-local or metadata
   * address (issue 39): host names, comma-separated (`localhost,hooks.internal`). Empty: none, so a
   * customer cannot point the server at its own network. Tests list their local receiver here.
   */
  WEBHOOK_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    ),
  /**
   * Webhook endpoints may be plain `http://` addresses (issue 39). Off: only `https://` is taken
   * when an endpoint is registered or edited, so events (an order's address, phone, items) never
   * cross the network in clear. The tests and a receiver on your own network turn it on.
   */
  WEBHOOK_ALLOW_HTTP: bool.default(false),
  /**
   * The first retry of a failed webhook delivery waits this long, each next one twice as long (with
   * jitter up to double), 12 retries: about 2 to 4 days in all (docs/decisions/2026-12-07-webhooks.md).
   */
  WEBHOOK_RETRY_DELAY_SECONDS: z.coerce.number().min(0).max(3600).default(45),
  /**
   * Webhook deliveries running at once per instance, in a lane of their own (no render or import
   * waits for them, nor they for one). On PostgreSQL at most DATABASE_POOL_SIZE
   * (docs/decisions/2026-12-07-webhook-delivery-lane.md).
   */
  WEBHOOK_DELIVERY_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(8),
  /**
   * Of those, how many one customer's deliveries may take at once per instance: a customer's slow
   * endpoint holds this many slots at most, the rest serve the others. At most the concurrency.
   */
  WEBHOOK_DELIVERY_PER_CUSTOMER: z.coerce.number().int().min(1).max(100).default(2),
  /**
   * The webhook relay's period: events this instance commits are relayed at once (the wake), this
   * is for the others (another instance's, a `web` instance's) and any the wake missed
   * (docs/decisions/2026-12-07-webhook-wake.md).
   */
  WEBHOOK_RELAY_SECONDS: z.coerce.number().int().min(1).max(86_400).default(1),
  /** How often JD access tokens near their expiry are renewed with their refresh token (modules/jd-authorize), also once at start; 0: never. */
  JD_RENEW_HOURS: z.coerce.number().min(0).max(576).default(6),
  /**
   * Key that encrypts JD app secrets and tokens at rest (modules/jd-authorize), and from which the
   * MAC key of render inputs is derived (modules/export-jobs/render-inputs.ts): 32 bytes as 64 hex
   * characters or base64. Never stored in the database. Required with PostgreSQL: instances do
   * not share DATA_DIR, and one that generated a key of its own could read no JD secret the others
   * wrote. SQLite, unset: a random key is generated once into DATA_DIR/jd-secret.key.
   */
  JD_SECRET_KEY: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const s = v?.trim();
      if (!s) return null;
      const key = /^[0-9a-fA-F]{64}$/.test(s) ? Buffer.from(s, 'hex') : Buffer.from(s, 'base64');
      if (key.length !== 32) {
        ctx.addIssue({ code: 'custom', message: 'want 32 bytes: 64 hex characters or 44 base64 characters' });
        return null;
      }
      return key;
    }),
  /** JD open platform's OAuth server (to_login, access_token, refresh_token live under it). */
  JD_OAUTH_BASE_URL: z.url().default('https://open-oauth.jd.com'),
  /**
   * Where users reach this server (`https://console.example.com`): the base of every absolute link
   * the server makes, today JD's OAuth callback. Configuration only, never the request's Host
   * header (finding 11 of issue 26: a forged Host sent JD's authorization code elsewhere). Unset:
   * JD authorization is refused, saying so, unless JD_REDIRECT_URI is set.
   */
  PUBLIC_URL: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const s = v?.trim();
      if (!s) return null;
      const u = URL.canParse(s) ? new URL(s) : null;
      if (!u || !/^https?:$/.test(u.protocol) || u.username || u.password || u.search || u.hash || u.pathname !== '/') {
        ctx.addIssue({ code: 'custom', message: 'want the origin users open, such as https://console.example.com' });
        return null;
      }
      return u.origin;
    }),
  /**
   * The callback JD redirects the browser to, as registered with JD for the app. Unset: PUBLIC_URL
   * followed by /api/jdAuthorize/callback.
   */
  JD_REDIRECT_URI: z.url({ protocol: /^https?$/ }).optional(),
  /**
   * Where export permits are e-mailed from (modules/export-declarations): `smtp://user:pass@host:587`
   * or `smtps://…`; empty: nothing is sent and the declarations page says so.
   */
  SMTP_URL: z
    .string()
    .default('')
    .refine((v) => v === '' || /^smtps?:\/\/[^\s]+$/.test(v), 'want smtp://… or smtps://…'),
  SMTP_FROM: z.string().default('console@localhost'),
  /**
   * A permit e-mail that meets a transient SMTP failure (a 4xx reply such as greylisting, a
   * connection refused, reset or timed out) is sent again up to SMTP_RETRIES times, the first after
   * SMTP_RETRY_SECONDS, each wait doubled (with jitter): by default 30 s, 1, 2, 4 and 8 min, past
   * a greylisting's usual 5 minutes. 0: the first failure is final. A 5xx reply is final at once.
   */
  SMTP_RETRIES: z.coerce.number().int().min(0).max(20).default(5),
  SMTP_RETRY_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /**
   * The clearance companies' webhook secrets (modules/clearance): `CODE=secret,CODE=secret`,
   * each secret at least 32 characters. A company without one cannot call the webhook.
   */
  CLEARANCE_WEBHOOK_SECRETS: z
    .string()
    .default('')
    .transform((v, ctx) => {
      const out = new Map<string, string>();
      for (const part of v
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean)) {
        const at = part.indexOf('=');
        const code = part.slice(0, at).trim();
        const secret = part.slice(at + 1).trim();
        if (at < 1 || secret.length < 32) {
          ctx.addIssue({
            code: 'custom',
            message: `"${code || part.slice(0, 8)}…": want CODE=secret of 32+ characters`,
          });
          continue;
        }
        out.set(code, secret);
      }
      return out as ReadonlyMap<string, string>;
    }),
};

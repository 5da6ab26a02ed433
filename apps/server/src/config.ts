import path from 'node:path';
import { z } from 'zod';
import { isAddressOrCidr, PROXY_NAMES } from './config-proxy.ts';

/**
 * The server's configuration, parsed once at start-up from the environment.
 * Nothing else in the server reads `process.env`.
 */
const bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'])
  .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  /** `postgres://…` switches to PostgreSQL; otherwise a SQLite file path (or `:memory:`). */
  DATABASE_URL: z.string().optional(),
  /**
   * PostgreSQL: a connection straight to the server (never through a transaction pooler) for
   * what holds a session-level lock: migrations and the demo seed's lock at start. Unset:
   * DATABASE_URL. With it, DATABASE_URL may point at PgBouncer in transaction pooling mode, where
   * a session lock taken on one statement's server connection is released on another's — or never
   * (issue 38 row 3: a restart hung, two instances starting together deadlocked).
   */
  DATABASE_DIRECT_URL: z.string().optional(),
  /** Files and the default SQLite database: `data/` at the repository root, wherever the server is started from. */
  DATA_DIR: z.string().default(path.resolve(import.meta.dirname, '../../../data')),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Demo accounts and orders; on by default for the embedded database only. */
  DEMO_SEED: bool.optional(),
  /**
   * Run the pending migrations at start (under a database lock, so instances starting together
   * are safe). false: a deployment migrates in a step of its own (`npm run migrate`), and a start
   * that finds migrations not run refuses to serve.
   */
  MIGRATE_ON_START: bool.default(true),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(5)
    .default(2 * 60 * 60),
  REFRESH_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .default(14 * 24 * 60 * 60),
  /** Failed logins allowed per account and per address within LOGIN_THROTTLE_WINDOW_SECONDS. */
  LOGIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(5),
  LOGIN_MAX_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).default(30),
  LOGIN_THROTTLE_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(15 * 60),
  /** Where the built console lives; served at /home/. */
  WEB_DIST: z.string().default(path.resolve(import.meta.dirname, '../../web/dist')),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  UPLOAD_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(30 * 1024 * 1024),
  /**
   * The reverse proxies allowed to say where a request came from (X-Forwarded-For, -Proto): their
   * addresses or CIDRs, comma-separated, or proxy-addr's `loopback`, `linklocal`, `uniquelocal`;
   * empty: none (the socket's address). The client's address is then the last X-Forwarded-For
   * entry a trusted proxy added; what the client wrote before it is ignored. Never "trust every
   * sender" (finding 6 of issue 26): the first entry, which the client writes itself, was the
   * address, and the login and tracking limits counted whatever it chose. No hop count either:
   * Fastify 5 ignores one (it cannot tell the proxy from a client that reaches the server
   * directly), so it would quietly trust no one (docs/decisions.md).
   */
  TRUST_PROXY: z
    .string()
    .default('')
    .transform((v, ctx): false | string[] => {
      const s = v.trim().toLowerCase();
      if (['', '0', 'false', 'off', 'no'].includes(s)) return false;
      const want = "the proxies' addresses or CIDRs, comma-separated (e.g. 127.0.0.1 or 10.0.0.0/8)";
      if (['true', 'yes', 'on'].includes(s)) {
        ctx.addIssue({
          code: 'custom',
          message: `trusting every sender lets any client choose its address (X-Forwarded-For); give ${want}`,
        });
        return false;
      }
      if (/^\d+$/.test(s)) {
        ctx.addIssue({
          code: 'custom',
          message: `a hop count cannot tell the proxy from a client that connects directly (Fastify ignores it); give ${want}`,
        });
        return false;
      }
      const entries = v.split(',').map((e) => e.trim());
      const bad = entries.filter((e) => !PROXY_NAMES.has(e) && !isAddressOrCidr(e));
      if (bad.length) {
        ctx.addIssue({ code: 'custom', message: `want ${want}; not ${bad.map((b) => `"${b}"`).join(', ')}` });
        return false;
      }
      return entries;
    }),
  /** Uploaded workbooks parsed at once (each in its own worker thread); more wait in a queue. */
  PARSE_WORKERS: z.coerce.number().int().min(1).max(16).default(1),
  /** A parse running longer than this is stopped and its batch failed (fractions allowed). */
  PARSE_TIMEOUT_SECONDS: z.coerce.number().positive().default(300),
  /** Heap (old generation) a parse worker may use before it is stopped and its batch failed. */
  PARSE_MEMORY_MB: z.coerce.number().int().min(32).default(768),
  /** An unconfirmed batch preview (its parsed orders, stored in DATA_DIR) is dropped this long after it was made. */
  PREVIEW_TTL_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(24 * 60),
  /** Files made for a user (generated downloads, refused-upload workbooks) are removed this many days after they were made. */
  FILE_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(7),
  /** How often the retention cleanup runs (minutes). */
  FILE_SWEEP_MINUTES: z.coerce.number().positive().default(60),
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
   * The bytes one customer's files may take in the file store (its uploads, ID card and item
   * images, files made for it); an upload past it is refused with a 507 giving the figures. 0: no
   * quota. Generous by default: a shared store (FILE_STORE=database fills PostgreSQL's disk) is
   * not one tenant's to fill (lib/files.quota.ts).
   */
  CUSTOMER_FILE_QUOTA_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(10 * 1024 * 1024 * 1024),
  /**
   * Renders (downloads, exports, PDFs) one tenant may have asked and not yet been answered, per
   * instance; past it a call answers 429 `rendersQueuedTooMany` (lib/render-bound.ts). A person
   * waits on one or two at a time; a script asking for thirty at once held every other tenant's.
   */
  RENDERS_QUEUED_PER_TENANT: z.coerce.number().int().min(1).max(1000).default(8),
  /**
   * How often storage of parcels still in the warehouse is charged for the closed months (hours;
   * the job also runs once at start). 0: never (the tests run it themselves). At most 24 days:
   * a timer cannot wait longer.
   */
  STORAGE_ACCRUAL_HOURS: z.coerce.number().min(0).max(576).default(24),
  /** How often JD access tokens near their expiry are renewed with their refresh token (modules/jd-authorize), also once at start; 0: never. */
  JD_RENEW_HOURS: z.coerce.number().min(0).max(576).default(6),
  /**
   * What this instance does with the job queue (lib/jobs.ts): `web` answers calls and enqueues
   * jobs, `worker` runs them (and the periodic jobs' schedules), `all` both.
   */
  SERVER_ROLE: z.enum(['web', 'worker', 'all']).default('all'),
  /**
   * PostgreSQL: a running job's lease (seconds, pg-boss's heartbeat; at least 10). The instance
   * running it renews it every half lease; once it lapses (the instance is gone) another instance
   * runs the job again.
   */
  JOB_LEASE_SECONDS: z.coerce.number().int().min(10).max(3600).default(30),
  /**
   * On SIGTERM, how long the instance keeps serving while `/api/ready` answers 503 `shuttingDown`,
   * before it stops accepting: the load balancer's health check takes it out first, so no call is
   * sent to it while it closes (Fastify answers those 503). Behind a balancer, set it to the
   * check's interval × fall and a second (haproxy `inter 1s fall 2`: 3). 0: stop at once.
   */
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).max(120).default(0),
  /**
   * How often an instance building a download asked for without waiting (`Prefer: respond-async`)
   * marks it alive (seconds). A build silent for 4 of these (its instance was killed or
   * redeployed) is answered as failed (`downloadInterrupted`), so the console stops waiting.
   */
  DOWNLOAD_HEARTBEAT_SECONDS: z.coerce.number().min(0.1).max(60).default(10),
  /** PostgreSQL: how often a worker looks for new jobs of each kind (seconds). */
  JOB_POLL_SECONDS: z.coerce.number().min(0.5).max(60).default(2),
  /** Entries per cache of reads kept while the SQLite data is unchanged (db/versioned-cache.ts: order-list pages, session tokens); 0 turns them off. */
  READ_CACHE_ENTRIES: z.coerce.number().int().min(0).default(2000),
  /**
   * SQLite: threads that run the heaviest reads (order-list pages and counts) on connections of
   * their own, so a slow filter does not hold the event loop every other call needs; 0 runs them
   * on the event loop like every other read.
   */
  READER_THREADS: z.coerce.number().int().min(0).max(8).default(2),
  /** PostgreSQL: connections of an instance's pool, which every write and most reads use. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(100).default(10),
  /**
   * PostgreSQL: connections kept apart for the heaviest reads (order-list pages and counts, the
   * item list), so a warehouse scan or a save never queues behind fifty users' list pages (issue
   * 29); 0 sends those reads to the one pool.
   */
  DATABASE_READ_POOL_SIZE: z.coerce.number().int().min(0).max(100).default(4),
  /**
   * PostgreSQL: how long a query waits for one of the pool's connections (or for a new one to
   * open) before it fails: a call then answers 503 `databaseUnavailable` with Retry-After and a
   * job runs again with backoff, instead of both waiting forever behind a full pool.
   */
  DATABASE_POOL_WAIT_SECONDS: z.coerce.number().min(0.1).max(600).default(10),
  /**
   * PostgreSQL: the server's `statement_timeout` and `idle_in_transaction_session_timeout` on the
   * pools' connections (seconds; 0: not sent, the server's or the role's own apply). Sent as
   * startup parameters, the only per-connection way a transaction pooler cannot leak to another
   * client: behind PgBouncer list them in `ignore_startup_parameters` and set them on its server
   * connections (README, "Several instances"). Migrations' direct connection has neither (an
   * online index build may take long).
   */
  DATABASE_STATEMENT_TIMEOUT_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  DATABASE_IDLE_IN_TRANSACTION_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  /** Noto Sans CJK (`NotoSansCJK-Regular.ttc`) for label PDFs: Debian's fonts-noto-cjk. */
  LABEL_FONT_DIR: z.string().default('/usr/share/fonts/opentype/noto'),
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
   * Where files' bytes live (lib/storage*.ts): `local` (DATA_DIR/files), `database` (the
   * file_blobs table) or `s3`. Unset: local on SQLite, database on PostgreSQL, so several
   * instances on one PostgreSQL share their files with no extra setting.
   */
  FILE_STORE: z.enum(['local', 'database', 's3']).optional(),
  /** FILE_STORE=s3: the bucket (required), an optional key prefix, and where it is. */
  S3_BUCKET: z.string().optional(),
  S3_PREFIX: z
    .string()
    .default('')
    .transform((v) => v.replace(/^\/+|\/+$/g, '')),
  S3_REGION: z.string().default('us-east-1'),
  /** An S3-compatible server's address (MinIO, Ceph, …); unset: AWS. */
  S3_ENDPOINT: z.url().optional(),
  /** Path-style addressing (`host/bucket/key`), which most S3-compatible servers want. */
  S3_FORCE_PATH_STYLE: bool.default(false),
  /** Unset: the AWS SDK's own chain (environment of the SDK, instance role). */
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
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
});

type S3Keys =
  | 'S3_BUCKET'
  | 'S3_PREFIX'
  | 'S3_REGION'
  | 'S3_ENDPOINT'
  | 'S3_FORCE_PATH_STYLE'
  | 'S3_ACCESS_KEY_ID'
  | 'S3_SECRET_ACCESS_KEY';

/** Where PostgreSQL is and how an instance's connections to it behave (db/database.ts). */
export interface PostgresConnection {
  dialect: 'postgres';
  /** Every pool's connections: the server, or a pooler in front of it. */
  url: string;
  /** Migrations' and start-up locks' connection: the server itself (DATABASE_DIRECT_URL). */
  directUrl?: string;
  poolSize?: number;
  readPoolSize?: number;
  /** Milliseconds; unset: pg's default (wait forever). */
  poolWaitMs?: number;
  /** Milliseconds, sent as startup parameters; 0 or unset: not sent. */
  statementTimeoutMs?: number;
  idleInTransactionMs?: number;
}

export type Config = Omit<
  z.output<typeof schema>,
  'DATABASE_URL' | 'DATABASE_DIRECT_URL' | 'DEMO_SEED' | 'FILE_STORE' | S3Keys
> & {
  database: { dialect: 'sqlite'; file: string; readerThreads?: number } | PostgresConnection;
  demoSeed: boolean;
  fileStore: 'local' | 'database' | 's3';
  /** FILE_STORE=s3 only. */
  s3: {
    bucket: string;
    prefix: string;
    region: string;
    endpoint?: string;
    forcePathStyle: boolean;
    credentials?: { accessKeyId: string; secretAccessKey: string };
  } | null;
};

export class ConfigError extends Error {}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const {
    DATABASE_URL,
    DATABASE_DIRECT_URL,
    DEMO_SEED,
    FILE_STORE,
    S3_BUCKET,
    S3_PREFIX,
    S3_REGION,
    S3_ENDPOINT,
    S3_FORCE_PATH_STYLE,
    S3_ACCESS_KEY_ID,
    S3_SECRET_ACCESS_KEY,
    ...rest
  } = parsed.data;
  const url = DATABASE_URL?.trim();
  const postgres = !!url && /^postgres(ql)?:\/\//.test(url);
  if (postgres && !rest.JD_SECRET_KEY) {
    throw new ConfigError(
      'Invalid configuration:\n  JD_SECRET_KEY: required with PostgreSQL (DATABASE_URL=postgres://…): ' +
        'every instance must share one key (32 bytes: 64 hex characters or 44 base64 characters, e.g. `openssl rand -hex 32`)',
    );
  }
  const directUrl = DATABASE_DIRECT_URL?.trim() || undefined;
  if (directUrl && !(postgres && /^postgres(ql)?:\/\//.test(directUrl))) {
    throw new ConfigError(
      'Invalid configuration:\n  DATABASE_DIRECT_URL: a postgres://… address of the same database, and only with ' +
        'PostgreSQL (DATABASE_URL=postgres://…)',
    );
  }
  const database = postgres
    ? ({
        dialect: 'postgres',
        url,
        directUrl: directUrl ?? url,
        poolSize: rest.DATABASE_POOL_SIZE,
        readPoolSize: rest.DATABASE_READ_POOL_SIZE,
        poolWaitMs: Math.round(rest.DATABASE_POOL_WAIT_SECONDS * 1000),
        statementTimeoutMs: rest.DATABASE_STATEMENT_TIMEOUT_SECONDS * 1000,
        idleInTransactionMs: rest.DATABASE_IDLE_IN_TRANSACTION_SECONDS * 1000,
      } as const)
    : ({
        dialect: 'sqlite',
        file: url || path.join(rest.DATA_DIR, 'console.sqlite'),
        readerThreads: rest.READER_THREADS,
      } as const);
  const fileStore = FILE_STORE ?? (database.dialect === 'postgres' ? 'database' : 'local');
  const problems: string[] = [];
  if (fileStore === 's3' && !S3_BUCKET) problems.push('  S3_BUCKET: required with FILE_STORE=s3');
  if (!S3_ACCESS_KEY_ID !== !S3_SECRET_ACCESS_KEY)
    problems.push('  S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both or neither');
  if (problems.length) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  const s3 =
    fileStore === 's3'
      ? {
          bucket: S3_BUCKET!,
          prefix: S3_PREFIX,
          region: S3_REGION,
          endpoint: S3_ENDPOINT,
          forcePathStyle: S3_FORCE_PATH_STYLE,
          credentials:
            S3_ACCESS_KEY_ID && S3_SECRET_ACCESS_KEY
              ? { accessKeyId: S3_ACCESS_KEY_ID, secretAccessKey: S3_SECRET_ACCESS_KEY }
              : undefined,
        }
      : null;
  return { ...rest, database, demoSeed: DEMO_SEED ?? database.dialect === 'sqlite', fileStore, s3 };
}

/** Configuration for tests: defaults with overrides, no environment. */
export function testConfig(overrides: Record<string, string> = {}): Config {
  // The storage accrual job off: a test that wants it turns it on or calls it (it would write
  // charges into the seeded statements while other tests read them).
  return parseConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DEMO_SEED: 'false',
    STORAGE_ACCRUAL_HOURS: '0',
    JD_RENEW_HOURS: '0',
    // PostgreSQL requires the key every instance shares: tests on it use this one (SQLite's tests
    // keep the generated key file, the embedded default).
    ...(/^postgres(ql)?:\/\//.test(overrides.DATABASE_URL?.trim() ?? '') ? { JD_SECRET_KEY: TEST_JD_SECRET_KEY } : {}),
    ...overrides,
  });
}

/** The JD secrets key of every test configuration: 32 bytes in hex, public by design. */
export const TEST_JD_SECRET_KEY = '7e57'.repeat(16);

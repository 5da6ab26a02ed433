import path from 'node:path';
import { z } from 'zod';
import { databaseOf, databaseSettings, type DatabaseConnection, isPostgresUrl } from './config-database.ts';
import { fileSettings, fileStoreOf, type FileStoreKind, type S3Settings } from './config-files.ts';
import { integrationSettings } from './config-integrations.ts';
import { isAddressOrCidr, PROXY_NAMES } from './config-proxy.ts';
import { bool, ConfigError } from './config-values.ts';

export { ConfigError } from './config-values.ts';
export type { PostgresConnection } from './config-database.ts';

/**
 * The server's configuration, parsed once at start-up from the environment.
 * Nothing else in the server reads `process.env`. The database's, the files' and the outside
 * services' settings are parts of their own (config-database.ts, config-files.ts,
 * config-integrations.ts); the instance's own — HTTP, sessions, jobs, renders — are here.
 */
const schema = z.object({
  ...databaseSettings,
  ...fileSettings,
  ...integrationSettings,
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  /** Files and the default SQLite database: `data/` at the repository root, wherever the server is started from. */
  DATA_DIR: z.string().default(path.resolve(import.meta.dirname, '../../../data')),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Demo accounts and orders; on by default for the embedded database only. */
  DEMO_SEED: bool.optional(),
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
  /** Noto Sans CJK (`NotoSansCJK-Regular.ttc`) for label PDFs: Debian's fonts-noto-cjk. */
  LABEL_FONT_DIR: z.string().default('/usr/share/fonts/opentype/noto'),
});

type Derived = 'DATABASE_URL' | 'DATABASE_DIRECT_URL' | 'DEMO_SEED' | 'FILE_STORE' | `S3_${string}`;

export type Config = Omit<z.output<typeof schema>, Extract<keyof z.output<typeof schema>, Derived>> & {
  database: DatabaseConnection;
  demoSeed: boolean;
  fileStore: FileStoreKind;
  /** FILE_STORE=s3 only. */
  s3: S3Settings | null;
};

export function parseConfig(env: Record<string, string | undefined>): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const d = parsed.data;
  const database = databaseOf(d, d.DATA_DIR, d.JD_SECRET_KEY);
  const { fileStore, s3 } = fileStoreOf(d, database.dialect);
  const {
    DATABASE_URL: _url,
    DATABASE_DIRECT_URL: _direct,
    DEMO_SEED,
    FILE_STORE: _store,
    S3_BUCKET: _bucket,
    S3_PREFIX: _prefix,
    S3_REGION: _region,
    S3_ENDPOINT: _endpoint,
    S3_FORCE_PATH_STYLE: _pathStyle,
    S3_ACCESS_KEY_ID: _keyId,
    S3_SECRET_ACCESS_KEY: _secret,
    ...rest
  } = d;
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
    ...(isPostgresUrl(overrides.DATABASE_URL) ? { JD_SECRET_KEY: TEST_JD_SECRET_KEY } : {}),
    ...overrides,
  });
}

/** The JD secrets key of every test configuration: 32 bytes in hex, public by design. */
export const TEST_JD_SECRET_KEY = '7e57'.repeat(16);

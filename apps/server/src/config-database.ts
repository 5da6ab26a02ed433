import path from 'node:path';
import { z } from 'zod';
import { bool, ConfigError } from './config-values.ts';

/**
 * The database's settings: which engine and where, its pools and timeouts, migrations at start
 * (db/database.ts). A part of the one configuration config.ts parses.
 */
export const databaseSettings = {
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
  /**
   * Run the pending migrations at start (under a database lock, so instances starting together
   * are safe). false: a deployment migrates in a step of its own (`npm run migrate`), and a start
   * that finds migrations not run refuses to serve.
   */
  MIGRATE_ON_START: bool.default(true),
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
   * PostgreSQL: a streaming replica (a hot standby) that serves the list pages, their counts and
   * the exports' reads, with read-your-own-writes: a user who has written reads from the primary
   * until the replica has replayed past their last write (db/read-replica.ts). Unset: every read
   * on the primary.
   */
  DATABASE_READ_URL: z.string().optional(),
  /** PostgreSQL with DATABASE_READ_URL: connections of the replica's pool (same wait and timeouts as the others). */
  DATABASE_REPLICA_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(4),
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
};

/** Where PostgreSQL is and how an instance's connections to it behave (db/database.ts). */
export interface PostgresConnection {
  dialect: 'postgres';
  /** Every pool's connections: the server, or a pooler in front of it. */
  url: string;
  /** Migrations' and start-up locks' connection: the server itself (DATABASE_DIRECT_URL). */
  directUrl?: string;
  poolSize?: number;
  readPoolSize?: number;
  /** A streaming replica for the list pages, counts and exports (DATABASE_READ_URL); unset: none. */
  readUrl?: string;
  replicaPoolSize?: number;
  /** The connections' `application_name` (the replica's, to tell them apart in pg_stat_activity). */
  applicationName?: string;
  /** Milliseconds; unset: pg's default (wait forever). */
  poolWaitMs?: number;
  /** Milliseconds, sent as startup parameters; 0 or unset: not sent. */
  statementTimeoutMs?: number;
  idleInTransactionMs?: number;
}

export type DatabaseConnection = { dialect: 'sqlite'; file: string; readerThreads?: number } | PostgresConnection;

type DatabaseSettings = z.output<z.ZodObject<typeof databaseSettings>>;

export const isPostgresUrl = (url: string | undefined) => !!url && /^postgres(ql)?:\/\//.test(url.trim());

/** The connection the settings describe; the SQLite file defaults into DATA_DIR. */
export function databaseOf(s: DatabaseSettings, dataDir: string, jdSecretKey: Buffer | null): DatabaseConnection {
  const url = s.DATABASE_URL?.trim();
  const postgres = isPostgresUrl(url);
  if (postgres && !jdSecretKey) {
    throw new ConfigError(
      'Invalid configuration:\n  JD_SECRET_KEY: required with PostgreSQL (DATABASE_URL=postgres://…): ' +
        'every instance must share one key (32 bytes: 64 hex characters or 44 base64 characters, e.g. `openssl rand -hex 32`)',
    );
  }
  const directUrl = s.DATABASE_DIRECT_URL?.trim() || undefined;
  if (directUrl && !(postgres && isPostgresUrl(directUrl))) {
    throw new ConfigError(
      'Invalid configuration:\n  DATABASE_DIRECT_URL: a postgres://… address of the same database, and only with ' +
        'PostgreSQL (DATABASE_URL=postgres://…)',
    );
  }
  const readUrl = s.DATABASE_READ_URL?.trim() || undefined;
  if (readUrl && !(postgres && isPostgresUrl(readUrl))) {
    throw new ConfigError(
      'Invalid configuration:\n  DATABASE_READ_URL: a postgres://… address of a streaming replica of the database, ' +
        'and only with PostgreSQL (DATABASE_URL=postgres://…); SQLite has no replica',
    );
  }
  return postgres
    ? {
        dialect: 'postgres',
        url: url!,
        directUrl: directUrl ?? url!,
        poolSize: s.DATABASE_POOL_SIZE,
        readPoolSize: s.DATABASE_READ_POOL_SIZE,
        ...(readUrl ? { readUrl, replicaPoolSize: s.DATABASE_REPLICA_POOL_SIZE } : {}),
        poolWaitMs: Math.round(s.DATABASE_POOL_WAIT_SECONDS * 1000),
        statementTimeoutMs: s.DATABASE_STATEMENT_TIMEOUT_SECONDS * 1000,
        idleInTransactionMs: s.DATABASE_IDLE_IN_TRANSACTION_SECONDS * 1000,
      }
    : { dialect: 'sqlite', file: url || path.join(dataDir, 'console.sqlite'), readerThreads: s.READER_THREADS };
}

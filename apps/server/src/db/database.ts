import fs from 'node:fs';
import path from 'node:path';
import { type CompiledQuery, Kysely, PostgresDialect } from 'kysely';
import type { Config } from '../config.ts';
import { registerSignal, signallingDialect } from './commit-signal.ts';
import { pgClientOptions, pgDirectOptions } from './pg-connection.ts';
import { pg } from './pg-types.ts';
import {
  currentCallReads,
  isWriteStatement,
  markWriteCommitting,
  noteWritePosition,
  runAsCallOf,
} from './read-replica.ts';
import { createReplicaReads, type ReplicaReads } from './replica-reads.ts';
import type { DB } from './schema.ts';
import { NodeSqliteDialect } from './sqlite-dialect.ts';

export type Database = Kysely<DB>;

export function createDatabase(db: Config['database']): Database {
  if (db.dialect === 'postgres') {
    const pool = listenedPool({ ...pgClientOptions(db), max: db.poolSize ?? 10 });
    // The heaviest reads' own connections (readOffLoop): a write never waits for a connection
    // behind them (issue 29: a scan waited 1.1 s at p99 behind 50 users' list pages).
    const reads = db.readPoolSize ? listenedPool({ ...pgClientOptions(db), max: db.readPoolSize }) : undefined;
    // A streaming replica (DATABASE_READ_URL): the same wait and timeouts, named so that its
    // sessions can be told apart in pg_stat_activity. The primary pool's statements then mark the
    // call they run for as having written (read-replica.ts).
    const replica = db.readUrl
      ? listenedPool({
          ...pgClientOptions({ ...db, url: db.readUrl, applicationName: REPLICA_APPLICATION_NAME }),
          max: db.replicaPoolSize ?? 4,
        })
      : undefined;
    if (replica) pool.on('connect', markWrites);
    const kysely = kyselyOn(pool, reads, replica);
    connections.set(kysely, db);
    if (reads) readPools.set(kysely, reads);
    if (replica) replicas.set(kysely, createReplicaReads(kysely, replica));
    return kysely;
  }
  if (db.file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(db.file)), { recursive: true });
  const dialect = new NodeSqliteDialect(db.file, db.readerThreads ?? 0);
  const signalling = signallingDialect(dialect);
  const kysely = new Kysely<DB>({ dialect: signalling.dialect });
  registerSignal(kysely, signalling.signal);
  sqliteDialects.set(kysely, dialect);
  connections.set(kysely, db);
  return kysely;
}

/**
 * The database as the start sees it (migrations, the demo seed under its lock; start.ts): on
 * PostgreSQL a small pool of its own on DATABASE_DIRECT_URL, never through a transaction pooler
 * — a session advisory lock (withDatabaseLock) lives on one server connection, which a pooler
 * in transaction mode lends to other clients between statements (issue 38 row 3). Two
 * connections: one keeps the lock, the other does the work. SQLite: `db` itself. The caller
 * destroys what it gets when it is not `db`.
 */
export function startDatabase(config: Config['database'], db: Database): Database {
  if (config.dialect !== 'postgres') return db;
  const kysely = kyselyOn(listenedPool({ ...pgDirectOptions(config), max: 2 }));
  connections.set(kysely, { ...config, url: config.directUrl ?? config.url });
  return kysely;
}

function listenedPool(options: pg.PoolConfig): pg.Pool {
  const p = new pg.Pool(options);
  // An idle connection that PostgreSQL ends (a restart, a failover, an administrator) is reported
  // as an 'error' event on the pool, which ends the process when nobody listens (it ended a PostgreSQL
  // test run once, 57P01). The pool has already dropped that client and the next query opens
  // another; a query that was running fails with its own error.
  p.on('error', connectionLost);
  // A checked-out connection is not covered by that: pg-pool removes its idle listener while
  // the client is lent out, so PostgreSQL ending it mid-transaction (57P01 on a restart or a
  // failover) was an unheard 'error' event on the client and ended the process (issue 38
  // row 0). Each client gets its own listener once, when the pool opens it; the query or
  // transaction in flight fails with its own error, and the pool discards the client on release.
  p.on('connect', (client) => client.on('error', connectionLost));
  return p;
}

/** The replica pool's `application_name` (its connections in pg_stat_activity, on the replica). */
export const REPLICA_APPLICATION_NAME = 'console-replica-reads';

/** A primary connection's statements that write mark the console call they run for (if any). */
function markWrites(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (...args: unknown[]) => {
    const store = currentCallReads();
    if (store && !store.wrote) {
      const a = args[0] as string | { text?: unknown } | undefined;
      const text = typeof a === 'string' ? a : typeof a?.text === 'string' ? a.text : null;
      if (text !== null && isWriteStatement(text)) store.wrote = true;
    }
    return query(...args);
  };
}

function kyselyOn(pool: pg.Pool, reads?: pg.Pool, replica?: pg.Pool): Database {
  // Kysely ends the pool it was given on destroy() (once it has run a query: a server's
  // migrations run first): the read pool ends with it.
  const both = {
    // What Kysely reads to cancel a query from another connection (postgres-driver.js).
    Client: pg.Client,
    options: pool.options,
    connect: () => pool.connect(),
    end: async () => {
      await Promise.all([pool.end(), reads?.end(), replica?.end()]);
    },
  };
  const signalling = signallingDialect(new PostgresDialect({ pool: both }));
  const kysely = new Kysely<DB>({ dialect: signalling.dialect });
  registerSignal(kysely, signalling.signal);
  return kysely;
}

/** The message only: pg's errors name no password, but the connection string must never reach a log. */
function connectionLost(err: Error): void {
  process.emitWarning(`database connection lost: ${err.message}`);
}

const connections = new WeakMap<Kysely<any>, Config['database']>();
/**
 * Where a database is, so a worker thread can open a connection of its own to it (the
 * workbook worker reads its rows there, off the event loop).
 */
export function connectionOf(db: Kysely<any>): Config['database'] | undefined {
  return connections.get(db);
}

const sqliteDialects = new WeakMap<Kysely<any>, NodeSqliteDialect>();
const readPools = new WeakMap<Kysely<any>, pg.Pool>();
const replicas = new WeakMap<Kysely<any>, ReplicaReads>();

/**
 * A number that changes whenever any connection — this process's writer or another process —
 * commits to the database, read where reads are served (SQLite's `data_version`, on a kept statement). A cached
 * read stays valid while it is unchanged. PostgreSQL has nothing this cheap: null there, and
 * callers don't cache. Read it *before* the read it guards: a commit in between then only makes
 * the cached entry look older than it is (a miss), never newer.
 */
export function dataVersionOf(db: Kysely<any>): () => number | null {
  const dialect = sqliteDialects.get(db);
  return dialect ? () => dialect.dataVersion() : () => null;
}

/**
 * Runs a plain read (never inside a transaction) where it holds the event loop least: on
 * SQLite, on one of the reader threads when there are any (node:sqlite runs a statement
 * synchronously: a 200 ms list filter on the event loop stalled every call for 200 ms); on
 * PostgreSQL, on the read pool's connections, apart from the ones writes use.
 */
export async function readOffLoop<R>(db: Kysely<any>, query: CompiledQuery<R>): Promise<R[]> {
  const threads = sqliteDialects.get(db)?.readerThreads();
  if (threads) return threads.all<R>(query.sql, query.parameters);
  const replica = replicas.get(db);
  if (replica) {
    const rows = await replica.read<R>(query);
    if (rows) return rows;
  }
  const reads = readPools.get(db);
  if (reads) return (await reads.query(query.sql, query.parameters as unknown[])).rows as R[];
  return (await db.executeQuery(query)).rows;
}

/**
 * Runs a list page's read (or its count) where read-your-own-writes allows: on the replica when
 * this console call's reader may read it (db/replica-reads.ts, once per call), else as any other
 * read. Without a replica (SQLite, or no DATABASE_READ_URL): exactly `db.executeQuery`, on the
 * connections every read uses — unlike `readOffLoop`, it moves nothing to reader threads or the
 * read pool. For the list pages other than the order and item lists (paged.ts `pageOf`'s
 * `routed`, the batch list): their reads move to the replica, nothing else of them changes.
 */
export async function readRouted<R>(db: Kysely<any>, query: CompiledQuery<R>): Promise<R[]> {
  const rows = await replicas.get(db)?.read<R>(query);
  return rows ?? (await db.executeQuery(query)).rows;
}

/**
 * Runs a console call of `userId`'s (none: an unauthenticated call) so that its routed reads
 * may go to the replica, and notes its writes' position after it (read-your-own-writes,
 * db/read-replica.ts). Without a replica: the call as it is.
 */
export async function asCallOf<T>(db: Kysely<any>, userId: number | null, fn: () => Promise<T>): Promise<T> {
  if (userId === null || !replicas.has(db)) return fn();
  const store = { userId, wrote: false };
  try {
    return await runAsCallOf(store, fn);
  } finally {
    // Even when the call failed: what it committed before failing is the user's write too.
    if (store.wrote) {
      await noteWritePosition(db, userId).catch((e: unknown) =>
        // The write stands; only the next read may be the replica's, a moment behind it.
        process.emitWarning(`write position not noted: ${(e as Error).message}`),
      );
    }
  }
}

/**
 * A job's writes for the user who asked it (a batch's commit, an address batch, an item import),
 * noted as a console call's are: `markJobWrite` as the last statement of the job's transaction,
 * `settleJobWrite` once it has committed (read-replica.ts `markWriteCommitting`: why both). The
 * user's next routed read then waits for the replica to replay the job's rows, or reads the
 * primary. Without a replica: nothing.
 */
export async function markJobWrite(db: Kysely<any>, trx: Kysely<any>, userId: number): Promise<void> {
  if (replicas.has(db)) await markWriteCommitting(trx, userId);
}
export async function settleJobWrite(db: Kysely<any>, userId: number): Promise<void> {
  if (!replicas.has(db)) return;
  // Not noted (the primary away): the mark stays, and the user's next routed read notes it.
  await noteWritePosition(db, userId).catch((e: unknown) =>
    process.emitWarning(`write position not noted: ${(e as Error).message}`),
  );
}

/** Whether this call's reader may read the replica now (no replica: false). The exports' rule. */
export async function mayReadReplica(db: Kysely<any>): Promise<boolean> {
  return (await replicas.get(db)?.serves(true)) ?? false;
}

/** How many routed reads each side served (tests, and an operator's question "is it used?"). */
export function routedReads(db: Kysely<any>): { replica: number; primary: number } {
  return replicas.get(db)?.served ?? { replica: 0, primary: 0 };
}

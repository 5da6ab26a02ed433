import { type Kysely, PostgresAdapter, sql, type RawBuilder } from 'kysely';

/** The few places where SQLite and PostgreSQL need different SQL, in one file. */
export type DialectName = 'sqlite' | 'postgres';

export function dialectOf(db: Kysely<any>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** Column types for migrations. Times are UTC: timestamptz on PostgreSQL, ISO text on SQLite. */
export function types(db: Kysely<any>) {
  const pg = dialectOf(db) === 'postgres';
  return {
    id: (pg ? 'serial' : 'integer') as 'integer',
    time: (pg ? 'timestamptz' : 'text') as 'text',
    json: (pg ? 'jsonb' : 'text') as 'text',
    blob: (pg ? 'bytea' : 'blob') as 'blob',
    big: 'bigint' as const,
  };
}

/** The calendar day (YYYY-MM-DD) of a UTC timestamp as seen in China (UTC+8, spec §9). */
export function chinaDay(db: Kysely<any>, column: string): RawBuilder<string> {
  return dialectOf(db) === 'postgres'
    ? sql<string>`to_char(${sql.ref(column)} at time zone 'Asia/Shanghai', 'YYYY-MM-DD')`
    : sql<string>`substr(datetime(${sql.ref(column)}, '+8 hours'), 1, 10)`;
}

/** Case-insensitive LIKE on both engines. */
export function ilike(db: Kysely<any>) {
  return dialectOf(db) === 'postgres' ? ('ilike' as const) : ('like' as const);
}

/** A user's text inside a LIKE pattern: its backslash, `%` and `_` match themselves (see `likeSql`). */
const likeEscaped = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A "contains" pattern of a user's text, and a "starts with" one: its wildcards match themselves. */
export const likeContaining = (s: string) => `%${likeEscaped(s)}%`;
export const likeStartingWith = (s: string) => `${likeEscaped(s)}%`;

/** `column <op> pattern`, with the backslash as the escape `likeEscaped` writes. */
export const likeSql = (column: string, op: 'like' | 'ilike', pattern: string) =>
  sql<boolean>`${sql.ref(column)} ${sql.raw(op)} ${pattern} escape '\\'`;

/**
 * Serialises transactions that take the same key until they end: a check-then-insert that must
 * not interleave (two overlapping number segments). PostgreSQL takes a transaction-scoped
 * advisory lock; SQLite needs nothing, its writers are one at a time from BEGIN IMMEDIATE on.
 */
export async function lockForTransaction(db: Kysely<any>, key: string): Promise<void> {
  if (dialectOf(db) === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(db);
}

/**
 * Runs `fn` while holding a lock named `key` that every process on the same PostgreSQL database
 * sees (a session advisory lock on a connection kept for it): start-up steps that check and then
 * write, such as the demo seed, run once when several instances start together. `fn` uses the
 * pool's other connections. SQLite runs `fn` as it is: its file is served by one instance.
 * Only on a database that is the server itself (startDatabase, on DATABASE_DIRECT_URL): through a
 * pooler in transaction mode the unlock may run on another server connection than the lock, and
 * the lock stays on a connection lent to other clients (issue 38 row 3).
 */
export async function withDatabaseLock<T>(db: Kysely<any>, key: string, fn: () => Promise<T>): Promise<T> {
  if (dialectOf(db) !== 'postgres') return fn();
  return db.connection().execute(async (conn) => {
    // Tried and retried rather than waited for in `pg_advisory_lock`: a session waiting inside a
    // statement holds a snapshot, and `CREATE INDEX CONCURRENTLY` (a migration run under this
    // lock, db/online-index.ts) waits for every older snapshot of the database to end — so an
    // instance waiting here would wait for the migration that waits for it, a cycle PostgreSQL
    // cannot see (the lock's holder is another, idle, connection). Between tries nothing is held.
    while (!(await sql<{ ok: boolean }>`select pg_try_advisory_lock(hashtext(${key})) as ok`.execute(conn)).rows[0]!.ok)
      await new Promise((resolve) => setTimeout(resolve, 100));
    try {
      return await fn();
    } finally {
      await sql`select pg_advisory_unlock(hashtext(${key}))`.execute(conn);
    }
  });
}

/**
 * The value `commitWaitsForStandby` gives `synchronous_commit`. `on`, not `remote_apply`: `on`
 * waits until a synchronous standby has flushed the commit record to its disk, which is what a
 * promoted standby replays before it serves, so a number committed here cannot be handed out
 * again after a failover. `remote_apply` waits further, until the standby has replayed it for its
 * own readers: a longer wait that buys nothing for a failover. `remote_write` would lose it when
 * the standby's OS crashes with the primary.
 */
export const NUMBER_COMMIT_SYNC = 'on';

/**
 * Makes the commit of the transaction `trx` wait for the synchronous standby, whatever the
 * deployment lowered `synchronous_commit` to for speed (globally or for its role): the
 * transactions that hand out waybill and document numbers call it, so a number acknowledged by
 * the old primary is on the new one after a failover and never issued twice (issue 38 item 5).
 * `SET LOCAL` ends with the transaction and is read at COMMIT, so calling it anywhere before
 * COMMIT is enough. It waits only when `synchronous_standby_names` names a standby: without one,
 * nothing waits (the start warns, replication.ts). SQLite: nothing (no replication).
 */
export async function commitWaitsForStandby(trx: Kysely<any>): Promise<void> {
  if (dialectOf(trx) !== 'postgres') return;
  if (!trx.isTransaction) throw new Error('commitWaitsForStandby: only inside a transaction (SET LOCAL)');
  await sql`set local synchronous_commit = ${sql.lit(NUMBER_COMMIT_SYNC)}`.execute(trx);
}

import { AsyncLocalStorage } from 'node:async_hooks';
import { type Kysely, sql } from 'kysely';

/**
 * Read-your-own-writes over a streaming replica (issue 38 item 4, `DATABASE_READ_URL`). A reader
 * who has written reads from the primary until the replica has replayed past that write's
 * position in the WAL; a reader with no write noted reads from the replica. Positions, not a time
 * window after a write: a replica's lag has no bound (a long query on it, a network stall), so any
 * window can be too short and the user misses their own write.
 *
 * Wired (db/database.ts): each console call runs in a `CallReads` context (http/register-call.ts);
 * a statement that writes, on the primary pool's connections, marks it; after the call the
 * primary's WAL position is noted in the user's `write_positions` row (`noteWritePosition`), on
 * the primary, so whichever instance serves the next call reads it (`notedWritePosition`). The
 * routed reads (`readOffLoop`'s: the order list and its count, the item list; the exports'
 * queries) ask `replicaServes` with it. `createReadRouting` is the same rule over an in-memory
 * note, kept for the rule's own tests.
 */

/** What a console call's routed reads need: whose they are, and whether the call itself wrote. */
export interface CallReads {
  userId: number;
  /** A statement of this call that writes ran on the primary (not yet noted). */
  wrote: boolean;
  /** This call's answer to "may the replica serve?", asked once per call. */
  decision?: Promise<boolean>;
}
const callReads = new AsyncLocalStorage<CallReads>();
export const runAsCallOf = <T>(store: CallReads, fn: () => Promise<T>): Promise<T> => callReads.run(store, fn);
export const currentCallReads = (): CallReads | undefined => callReads.getStore();

/**
 * Whether a statement may change data, by its first word: anything but a plain read or a
 * transaction's control. Generous on purpose: a read taken for a write (`with …`, a `select` in a
 * transaction that then commits nothing) only costs the reader a read on the primary; a write
 * taken for a read would show them a list without their write.
 */
export function isWriteStatement(text: string): boolean {
  const first = /^[\s(]*([A-Za-z]+)/.exec(text.replace(/^\s*(--[^\n]*\n|\/\*[\s\S]*?\*\/)\s*/g, ''))?.[1];
  return !first || !READ_WORDS.has(first.toLowerCase());
}
const READ_WORDS = new Set([
  'select',
  'show',
  'values',
  'explain',
  'begin',
  'start',
  'commit',
  'rollback',
  'savepoint',
  'release',
  'set',
  'declare',
  'fetch',
  'close',
]);

/**
 * What a job's transaction that writes for a user notes in their row, just before it commits
 * (`markWriteCommitting`): "a write of theirs has committed at a position not known yet". No real
 * position is this high, so a reader who finds it reads the primary, and the next note replaces it.
 * Why not the position then: taken inside the transaction it is before the commit's own record,
 * and a replica replayed that far has not applied the commit; taken after the commit, there is a
 * moment when the job's `done` is visible (the user's poll reads the primary) and the position
 * not yet noted, and the user's next list may come from a replica without the job's rows.
 */
export const WRITE_COMMITTING = 'FFFFFFFF/FFFFFFFF';

/**
 * Notes where the primary's WAL stands now for `userId` (after a call of theirs wrote, or after a
 * job of theirs committed), keeping the higher of it and what was noted (two calls of one user may
 * end in either order), and replacing a `WRITE_COMMITTING` mark. The position is taken in the
 * update itself, after the row's lock: a job's transaction holding it (its mark, just before its
 * commit) is waited for, and the position taken then is past that commit. On the primary, in one
 * statement; answers the position noted.
 */
export async function noteWritePosition(primary: Kysely<any>, userId: number): Promise<string> {
  const r = await sql<{ lsn: string }>`
    insert into write_positions (user_id, wal_lsn) values (${userId}, pg_current_wal_insert_lsn()::text)
    on conflict (user_id) do update
      set wal_lsn = greatest(
        nullif(write_positions.wal_lsn, ${WRITE_COMMITTING})::pg_lsn,
        pg_current_wal_insert_lsn()
      )::text
    returning wal_lsn as lsn`.execute(primary);
  return r.rows[0]!.lsn;
}

/**
 * Inside a job's transaction that writes for `userId` (a batch's commit, an address batch, an item
 * import: the user who asked), as its last statement: marks their row `WRITE_COMMITTING`, so the
 * commit that makes the job's rows visible makes the mark visible with them. The row's lock is
 * held from here to the commit only (a user's own note meanwhile waits that long). After the
 * commit the job notes the real position (`noteWritePosition`); should its process die first, the
 * reader who finds the mark notes it (replica-reads.ts).
 */
export async function markWriteCommitting(trx: Kysely<any>, userId: number): Promise<void> {
  await sql`
    insert into write_positions (user_id, wal_lsn) values (${userId}, ${WRITE_COMMITTING})
    on conflict (user_id) do update set wal_lsn = excluded.wal_lsn`.execute(trx);
}

/** `userId`'s last noted write position, or null when none was ever noted. Read on the primary. */
export async function notedWritePosition(primary: Kysely<any>, userId: number): Promise<string | null> {
  const r = await sql<{ lsn: string }>`select wal_lsn as lsn from write_positions where user_id = ${userId}`.execute(
    primary,
  );
  return r.rows[0]?.lsn ?? null;
}

/** A WAL position as PostgreSQL prints it (`16/B374D848`: two hex halves), as a number. */
export function lsnValue(lsn: string): bigint {
  const m = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(lsn);
  if (!m) throw new Error(`not a WAL position: ${lsn}`);
  return (BigInt(`0x${m[1]}`) << 32n) + BigInt(`0x${m[2]}`);
}

/**
 * Whether the replica may serve a reader: it has replayed at least as far as the reader's last
 * write (none noted: it may). An unknown replay position (null: the address is not a replica in
 * recovery, or it did not answer) never serves a reader who wrote: the primary is always right.
 */
export function replicaServes(written: string | null, replayed: string | null): boolean {
  if (written === null) return true;
  if (replayed === null) return false;
  return lsnValue(replayed) >= lsnValue(written);
}

/** Each reader's last write position, kept at its highest (a later, lower note is an older commit). */
export function createWritePositions() {
  const last = new Map<number, string>();
  return {
    note(readerId: number, lsn: string) {
      const was = last.get(readerId);
      if (was === undefined || lsnValue(lsn) > lsnValue(was)) last.set(readerId, lsn);
    },
    of: (readerId: number) => last.get(readerId) ?? null,
    /** Once the replica has replayed past it, the note has served its purpose. */
    forget(readerId: number, lsn: string) {
      if (last.get(readerId) === lsn) last.delete(readerId);
    },
  };
}
export type WritePositions = ReturnType<typeof createWritePositions>;

/**
 * The primary's WAL position now: after a commit returns, at or past that commit's record. The
 * insert position, not `pg_current_wal_lsn()` (the write position): with `synchronous_commit` off
 * a commit returns while its record is still in the WAL buffers, behind the write position, and a
 * replica replayed that far has not got it (the PostgreSQL test, whose databases commit so, saw it).
 */
export async function writePosition(primary: Kysely<any>): Promise<string> {
  const r = await sql<{ lsn: string }>`select pg_current_wal_insert_lsn()::text as lsn`.execute(primary);
  return r.rows[0]!.lsn;
}

/** How far the replica has replayed; null when it is not in recovery (not a replica). */
export async function replayPosition(replica: Kysely<any>): Promise<string | null> {
  const r = await sql<{ lsn: string | null }>`select pg_last_wal_replay_lsn()::text as lsn`.execute(replica);
  return r.rows[0]?.lsn ?? null;
}

export interface ReadRouting<D> {
  /** Notes, after a write of `readerId`'s committed on the primary, where the WAL then stood. */
  wrote(readerId: number): Promise<void>;
  /** Where `readerId` reads now: the replica once it has replayed past their last write, else the primary. */
  reader(readerId: number): Promise<Kysely<D>>;
}

/**
 * Picks the database each reader reads from. `replayed` asks the replica its position (the
 * adapter's boundary: tests hold it back to stand for a lagging replica); a replica that fails to
 * answer sends the reader to the primary.
 */
export function createReadRouting<D>(deps: {
  primary: Kysely<D>;
  replica: Kysely<D>;
  positions?: WritePositions;
  written?: (primary: Kysely<D>) => Promise<string>;
  replayed?: (replica: Kysely<D>) => Promise<string | null>;
}): ReadRouting<D> {
  const { primary, replica } = deps;
  const positions = deps.positions ?? createWritePositions();
  const written = deps.written ?? writePosition;
  const replayed = deps.replayed ?? replayPosition;
  return {
    async wrote(readerId) {
      positions.note(readerId, await written(primary));
    },
    async reader(readerId) {
      const mine = positions.of(readerId);
      if (mine === null) return replica;
      const at = await replayed(replica).catch(() => null);
      if (!replicaServes(mine, at)) return primary;
      positions.forget(readerId, mine);
      return replica;
    },
  };
}

import { type Kysely, sql } from 'kysely';

/**
 * Read-your-own-writes over a streaming replica (issue 38 item 4, `DATABASE_READ_URL`): the rule,
 * not yet a setting. A reader who has written reads from the primary until the replica has
 * replayed past that write's position in the WAL; a reader with no write noted reads from the
 * replica. Positions, not a time window after a write: a replica's lag has no bound (a long query
 * on it, a network stall), so any window can be too short and the user misses their own write.
 *
 * Not wired yet: no read of the app goes through `reader` (the list pages, counts and exports
 * still read the primary), and the positions are this instance's own (`createWritePositions`).
 * Across instances the position has to travel with the reader (a header the console sends back,
 * or a row on the primary) before the setting can be offered.
 */

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

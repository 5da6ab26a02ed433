import type { CompiledQuery, Kysely } from 'kysely';
import type { pg } from './pg-types.ts';
import {
  currentCallReads,
  notedWritePosition,
  noteWritePosition,
  replicaServes,
  WRITE_COMMITTING,
} from './read-replica.ts';
import { isTransientDatabaseError } from './transient-errors.ts';

/**
 * The routed reads of one database with a replica (DATABASE_READ_URL; db/database.ts): whether
 * the current console call's reader may read the replica, and the read itself, on the replica's
 * pool when it may. When in doubt, the primary: a read outside a console call (a job, a v1 call),
 * a call that has itself written, a reader whose last write the replica has not replayed, a
 * replica that does not answer its position — and a replica that fails the read with a transient
 * error (down, restarting, a query cancelled by a conflict with recovery) has it run again on
 * the primary.
 */
export function createReplicaReads(primary: Kysely<any>, replica: pg.Pool) {
  const served = { replica: 0, primary: 0 };
  const replayed = async (): Promise<string | null> =>
    (await replica.query<{ lsn: string | null }>('select pg_last_wal_replay_lsn()::text as lsn')).rows[0]?.lsn ?? null;

  /**
   * `always`: ask the replica its position even for a reader with no write noted (the exports:
   * their worker opens its own connection to the address chosen here, and a replica that does
   * not answer now sends it to the primary rather than failing the export).
   */
  async function serves(always = false): Promise<boolean> {
    const store = currentCallReads();
    if (!store || store.wrote) return false;
    const decide = async () => {
      let mine = await notedWritePosition(primary, store.userId);
      if (mine === null && !always) return true;
      // A job of theirs committed and its process died before noting where: the position now,
      // past that commit (seen here, so committed), noted for the next read too.
      if (mine === WRITE_COMMITTING) mine = await noteWritePosition(primary, store.userId);
      return replicaServes(mine, await replayed());
    };
    // Once per call: the answer only grows truer (the replica replays on), and a write of the
    // call's own is seen above.
    if (always) return decide().catch(() => false);
    store.decision ??= decide().catch(() => false);
    return store.decision;
  }

  return {
    served,
    serves,
    /** The rows from the replica, or null: the caller reads the primary. */
    async read<R>(query: CompiledQuery<R>): Promise<R[] | null> {
      if (await serves()) {
        try {
          const rows = (await replica.query(query.sql, query.parameters as unknown[])).rows as R[];
          served.replica++;
          return rows;
        } catch (e) {
          if (!isTransientDatabaseError(e)) throw e;
        }
      }
      served.primary++;
      return null;
    },
  };
}
export type ReplicaReads = ReturnType<typeof createReplicaReads>;

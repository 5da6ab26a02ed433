import { type Kysely, sql } from 'kysely';

/**
 * What the start reads of PostgreSQL's replication, to warn when waybill numbers are not safe
 * across a failover (issue 38 item 5): the allocating transactions ask for a synchronous commit
 * (dialect.ts commitWaitsForStandby), which waits only for a standby `synchronous_standby_names`
 * names. With standbys that are all asynchronous, a failover can lose numbers the old primary
 * acknowledged, and the new one hands them out again.
 */
export interface StandbyRow {
  /** The standby's `application_name` (what `synchronous_standby_names` lists). */
  name: string | null;
  /** `streaming`, `catchup`, `startup`, `backup`…; null when this role may not read it. */
  state: string | null;
  /** `sync`, `quorum`, `potential` or `async`; null when this role may not read it. */
  syncState: string | null;
}

/**
 * The physical standbys connected to this primary (`pg_stat_replication`), without logical
 * subscribers (a change-data consumer is no failover target). A role without `pg_read_all_stats`
 * (or `pg_monitor`) sees the rows of other roles with their state null; one that cannot read the
 * view at all fails here, and the caller says nothing.
 */
export async function standbys(db: Kysely<any>): Promise<StandbyRow[]> {
  const { rows } = await sql<StandbyRow>`
    select r.application_name as "name", r.state as "state", r.sync_state as "syncState"
    from pg_stat_replication r
    where not exists (
      select 1 from pg_replication_slots s where s.active_pid = r.pid and s.slot_type = 'logical'
    )`.execute(db);
  return rows;
}

/**
 * The start's warning, or null. Null when there is no standby (nothing replicates: a failover is
 * a restore, not this server's concern), when one is `sync` or `quorum` (the allocating commits
 * wait for it), or when a standby's state cannot be read (this role may not see it: saying
 * "none is synchronous" would be a guess). A base backup being taken (`backup`) is no standby.
 */
export function syncStandbyWarning(rows: readonly StandbyRow[]): string | null {
  const live = rows.filter((r) => r.state !== 'backup');
  if (!live.length) return null;
  if (live.some((r) => r.syncState === null)) return null;
  if (live.some((r) => r.syncState === 'sync' || r.syncState === 'quorum')) return null;
  const names = live.map((r) => r.name || '(unnamed)').join(', ');
  return (
    `PostgreSQL has ${live.length} standby(s) (${names}) but none is synchronous: after a failover the new ` +
    'primary may issue again waybill and document numbers the old one had acknowledged. On the primary, set ' +
    "synchronous_standby_names to name the failover standby (for example 'FIRST 1 (" +
    `${live[0]!.name || 'standby1'})'). The transactions that hand out numbers then wait for it (they set ` +
    'synchronous_commit to on for themselves); synchronous_commit = on for every transaction also keeps every other ' +
    'acknowledged write across a failover.'
  );
}

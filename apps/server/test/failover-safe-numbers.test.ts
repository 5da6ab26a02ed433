import { type Kysely, sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { NUMBER_COMMIT_SYNC } from '../src/db/dialect.ts';
import { standbys, syncStandbyWarning } from '../src/db/replication.ts';
import type { DB } from '../src/db/schema.ts';
import { reserveWaybills, type WaybillKey } from '../src/domain/order-writer.ts';
import { allocateWaybills } from '../src/domain/waybills.ts';
import { documentNumber } from '../src/lib/document-numbers.ts';
import { prepareDatabase } from '../src/start.ts';
import { createHarness, type Harness } from './harness.ts';

/**
 * Issue 38 item 5 (row 7): with asynchronous replication, a failover lost the last moves of the
 * waybill counter that the old primary had acknowledged, and the new primary handed the same
 * numbers out again: two parcels, one number. The transactions that hand out numbers now ask for
 * a synchronous commit for themselves (`SET LOCAL synchronous_commit = on`), so a deployment that
 * lowered synchronous_commit for speed (here: for the transaction, as a role setting would) still
 * waits for its synchronous standby there. Read from inside the allocating transaction, after the
 * allocation: the value its COMMIT will use.
 */
const pg = Boolean(process.env.TEST_DATABASE_URL);
let h: Harness;
/** A channel of the migrations' own, with a segment of this test's (no demo data). */
let ch: string;
beforeAll(async () => {
  h = await createHarness({ seed: false });
  ch = (await h.db.selectFrom('channels').select('code').orderBy('code').executeTakeFirstOrThrow()).code;
  await h.db
    .insertInto('number_segments')
    .values({
      channel_code: ch,
      customer_id: null,
      name: 'FO',
      prefix: 'FO',
      scheme: 'plain',
      next_seq: 1,
      last_seq: 1e6,
    })
    .execute();
});

/** The transaction's synchronous_commit, as its COMMIT will read it. */
const syncCommit = async (trx: Kysely<DB>) =>
  (await sql<{ v: string }>`select current_setting('synchronous_commit') as v`.execute(trx)).rows[0]!.v;

/** Runs `work` in a transaction whose synchronous_commit the deployment lowered; what it is after the work. */
async function afterWork(work: (trx: Kysely<DB>) => Promise<unknown>) {
  return h.db.transaction().execute(async (trx) => {
    await sql`set local synchronous_commit = 'local'`.execute(trx);
    expect(await syncCommit(trx)).toBe('local');
    await work(trx);
    return syncCommit(trx);
  });
}

// Each engine's own cases are defined on that engine only, not shown as skipped on the other.
if (pg)
  describe('PostgreSQL: a transaction that hands out numbers commits synchronously', () => {
    it(`waybill numbers (allocateWaybills): synchronous_commit is ${NUMBER_COMMIT_SYNC}`, async () => {
      expect(NUMBER_COMMIT_SYNC).toBe('on');
      expect(await afterWork((trx) => allocateWaybills(trx, ch, 3))).toBe('on');
    });

    it('a batch commit’s reservation and a create’s (reserveWaybills): on', async () => {
      const orders: WaybillKey[] = [
        { channel: ch as WaybillKey['channel'], customerId: null as never, numberSegmentId: null },
      ];
      expect(await afterWork((trx) => reserveWaybills(trx, orders, new Date().toISOString()))).toBe('on');
    });

    it('document numbers (label-B batches, storage orders, shipments…): on', async () => {
      expect(await afterWork((trx) => documentNumber(trx, 'LB', new Date()))).toBe('on');
    });

    it('outside a transaction both still work (each runs in one of its own)', async () => {
      expect((await allocateWaybills(h.db, ch, 2)).numbers).toHaveLength(2);
      expect(await documentNumber(h.db, 'SO', new Date())).toMatch(/^SO\d{19}$/);
    });

    it('the start reads pg_stat_replication without failing, and says nothing without standbys', async () => {
      expect(await standbys(h.db)).toEqual([]);
      const warnings: string[] = [];
      await prepareDatabase(h.config, h.db, { warn: (m) => warnings.push(m) });
      expect(warnings).toEqual([]);
    });
  });

if (!pg)
  describe('SQLite: nothing to wait for', () => {
    it('numbers are handed out as before, inside a transaction and outside', async () => {
      const a = await h.db.transaction().execute((trx) => allocateWaybills(trx, ch, 2));
      expect(a.numbers).toHaveLength(2);
      expect((await allocateWaybills(h.db, ch, 1)).numbers).toHaveLength(1);
    });
  });

describe('the start warning when PostgreSQL has standbys but none is synchronous', () => {
  const row = (name: string | null, syncState: string | null, state: string | null = 'streaming') => ({
    name,
    state,
    syncState,
  });

  it('no standby: nothing to say', () => {
    expect(syncStandbyWarning([])).toBeNull();
  });

  it('only asynchronous standbys: a warning naming the settings and the standbys', () => {
    const w = syncStandbyWarning([row('replica1', 'async'), row('replica2', 'async')]);
    expect(w).toContain('synchronous_standby_names');
    expect(w).toContain('synchronous_commit');
    expect(w).toContain('replica1, replica2');
    expect(w).toContain("'FIRST 1 (replica1)'");
  });

  it('a potential standby is not yet a synchronous one', () => {
    expect(syncStandbyWarning([row('replica1', 'potential')])).not.toBeNull();
  });

  it('one sync or quorum standby among others: nothing to say', () => {
    expect(syncStandbyWarning([row('a', 'async'), row('b', 'sync')])).toBeNull();
    expect(syncStandbyWarning([row('a', 'quorum'), row('b', 'quorum')])).toBeNull();
  });

  it('a role that cannot read the state (columns null): nothing said rather than a guess', () => {
    expect(syncStandbyWarning([row('a', null, null)])).toBeNull();
  });

  it('a base backup being taken is no standby', () => {
    expect(syncStandbyWarning([row('pg_basebackup', 'async', 'backup')])).toBeNull();
    expect(syncStandbyWarning([row('pg_basebackup', 'async', 'backup'), row('r', 'async')])).toContain('(r)');
  });
});

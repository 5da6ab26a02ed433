import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { startDatabase } from '../../src/db/database.ts';
import { DEMO_PASSWORD } from '../../src/seed/demo.ts';
import { createHarness } from '../harness.ts';

/**
 * Issue 38 item 4 (row 5): the pools' connections wait for a free connection a bounded time and
 * carry `statement_timeout` and `idle_in_transaction_session_timeout`, set with the connection
 * (startup parameters: db/pg-connection.ts); migrations' direct connection carries neither.
 * Before, a call that found every connection taken waited as long as they were held, and no
 * statement or open transaction had a limit.
 */
describe('PostgreSQL pool settings', () => {
  it('a call that finds every connection taken answers 503 databaseUnavailable once the pool wait is over', async () => {
    const h = await createHarness({
      env: { DATABASE_POOL_SIZE: '2', DATABASE_READ_POOL_SIZE: '0', DATABASE_POOL_WAIT_SECONDS: '0.5' },
    });
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const holding: Promise<void>[] = [];
    const held: Promise<void>[] = [];
    for (let i = 0; i < 2; i++) {
      let taken!: () => void;
      held.push(new Promise<void>((r) => (taken = r)));
      holding.push(
        h.db.transaction().execute(async (trx) => {
          await sql`select 1`.execute(trx);
          taken();
          await released;
        }),
      );
    }
    await Promise.all(held);
    // Without a pool wait the call would answer only once the connections come back: they are
    // given back when it answers, or after 20 s at the latest, so a missing limit shows as a 200.
    const bound = setTimeout(release, 20_000);
    const r = await h.post('login', { name: 'demo', password: 'x' }, undefined, { 'accept-language': 'en' });
    clearTimeout(bound);
    release();
    await Promise.all(holding);
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ code: 503, key: 'databaseUnavailable' });
    expect(JSON.stringify(r.body)).not.toMatch(/timeout exceeded/);
    expect(r.headers['retry-after']).toBeDefined();
    // And the pool serves again once they are back.
    expect((await h.post('login', { name: 'demo', password: DEMO_PASSWORD })).status).toBe(200);
  });

  it('sends the statement and idle-in-transaction limits with every pooled connection, none with the direct one', async () => {
    const h = await createHarness({
      seed: false,
      env: { DATABASE_STATEMENT_TIMEOUT_SECONDS: '1', DATABASE_IDLE_IN_TRANSACTION_SECONDS: '7' },
    });
    const shown = async (db: typeof h.db) => ({
      statement: (await sql<{ statement_timeout: string }>`show statement_timeout`.execute(db)).rows[0]!
        .statement_timeout,
      idle: (
        await sql<{ idle_in_transaction_session_timeout: string }>`show idle_in_transaction_session_timeout`.execute(db)
      ).rows[0]!.idle_in_transaction_session_timeout,
    });
    expect(await shown(h.db)).toEqual({ statement: '1s', idle: '7s' });
    const failure = await sql`select pg_sleep(5)`.execute(h.db).then(
      () => null,
      (e: { code?: string }) => e.code,
    );
    expect(failure).toBe('57014'); // query_canceled: the statement timeout
    const direct = startDatabase(h.config.database, h.db);
    try {
      expect(await shown(direct)).toEqual({ statement: '0', idle: '0' });
    } finally {
      await direct.destroy();
    }
  });
});

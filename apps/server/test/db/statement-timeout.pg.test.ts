import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { appErrorOfDatabase } from '../../src/http/error-handler.ts';
import { createHarness, type Harness } from '../harness.ts';
import { answerTo } from '../support/error-answer.ts';

/**
 * A statement PostgreSQL stops (57014: `statement_timeout`, DATABASE_STATEMENT_TIMEOUT_SECONDS, or
 * a cancel) is a 503 `databaseTimeout` in the caller's language, never a 500 (issue 38). PostgreSQL
 * only: SQLite has no statement timeout.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});

describe('a statement timeout', () => {
  it('is a 503 databaseTimeout without the database text, in zh and en', async () => {
    const error = await h.db
      .transaction()
      .execute(async (trx) => {
        await sql`set local statement_timeout = 50`.execute(trx);
        await sql`select pg_sleep(5)`.execute(trx);
      })
      .then(
        () => {
          throw new Error('expected the statement to be stopped');
        },
        (e: unknown) => e,
      );
    expect((error as { code?: string }).code).toBe('57014');
    expect(appErrorOfDatabase(error)?.key).toBe('databaseTimeout');
    const en = await answerTo(error, 'en');
    expect(en).toMatchObject({ status: 503, body: { code: 503, key: 'databaseTimeout', data: null } });
    expect(en.body.message).toMatch(/took too long/);
    expect(JSON.stringify(en.body)).not.toMatch(/statement|57014|cancel/i);
    expect((await answerTo(error, 'zh-CN')).body.message).toMatch(/数据库处理时间过长/);
  });
});

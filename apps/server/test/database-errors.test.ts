import { DatabaseSync } from 'node:sqlite';
import path from 'node:path';
import { sql } from 'kysely';
import pgDriver from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { dialectOf } from '../src/db/dialect.ts';
import { appErrorOfDatabase } from '../src/http/error-handler.ts';
import { createHarness, type Harness } from './harness.ts';
import { answerTo } from './support/error-answer.ts';

/**
 * Finding 17: ids past PostgreSQL's integer are refused by the contract (422 on the
 * field), and database errors are answered by class in one place — invalid input 400,
 * a unique violation 422 on the field in the user's language, a serialization failure
 * or a busy database 409, anything else 500 with an errorId — on both engines. The
 * errors below are real ones, raised by the test's own database.
 */
let h: Harness;
let token: string;
let pg: boolean;

beforeAll(async () => {
  h = await createHarness();
  token = await h.login('demo');
  pg = dialectOf(h.db) === 'postgres';
});

async function failure(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (e) {
    return e;
  }
  throw new Error('expected the database to refuse');
}

/** The same order number again for the same customer: every other unique column fresh. */
const uniqueViolation = async () => {
  const { id: _id, ...row } = await h.db.selectFrom('orders').selectAll().executeTakeFirstOrThrow();
  return failure(() =>
    h.db
      .insertInto('orders')
      .values({ ...row, system_no: `S${Date.now()}`, waybill_no: null })
      .execute(),
  );
};

describe('finding 17: ids are bounded and database errors are answered by class', () => {
  it.each([
    ['order/order', 'id', 3_000_000_000],
    ['order/items', 'orderId', 2_147_483_648],
    ['order/order', 'id', 2 ** 63],
    ['notification/info', 'id', 2_147_483_648],
    ['order/batch/progress', 'id', '9223372036854775808'],
    ['order/idCard/image', 'id', 2_147_483_648],
  ])('%s with %s = %s is a 422 on the field', async (call, field, value) => {
    const r = await h.post(call, { [field]: value, side: 'front' }, token, { 'accept-language': 'en' });
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.data)).toEqual([field]);
    expect(r.body.data[field][0]).toMatch(/2147483647/);
  });

  it('a unique violation is a 422 on the field, in the caller language', async () => {
    const e = await uniqueViolation();
    const en = await answerTo(e, 'en');
    expect(en).toMatchObject({
      status: 422,
      body: { code: 422, data: { orderNo: ['This order number already exists.'] } },
    });
    const zh = await answerTo(e, 'zh-CN');
    expect(zh.body.data.orderNo).toEqual(['该订单号已存在。']);
    expect(JSON.stringify(en.body)).not.toMatch(/constraint|duplicate key|orders/i);
    // A column users do not type gets the general message, under its own name.
    const c = await h.db.selectFrom('customers').select('code').executeTakeFirstOrThrow();
    const other = await failure(() =>
      sql`insert into customers (code, name, created_at) values (${c.code}, 'x', '2026-01-01T00:00:00Z')`.execute(h.db),
    );
    expect((await answerTo(other)).body.data).toEqual({ code: ['This value already exists.'] });
  });

  it('invalid input and out-of-range values are a 400 without the database text', async () => {
    const e = pg
      ? await failure(() => sql`select ${'3000000000'}::integer`.execute(h.db))
      : await failure(() => sql`select zeroblob(2000000000)`.execute(h.db));
    const r = await answerTo(e);
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/out of range/);
    expect(JSON.stringify(r.body)).not.toMatch(/integer|zeroblob|too big/i);
    if (pg) {
      const nul = await failure(() => sql`select ${'a\u0000b'}::text`.execute(h.db));
      expect((await answerTo(nul)).status).toBe(400);
    }
  });

  it('a serialization failure or a busy database is a 409 to try again', async () => {
    let e: unknown;
    if (pg) {
      const order = await h.db.selectFrom('orders').select('id').executeTakeFirstOrThrow();
      e = await failure(() =>
        h.db
          .transaction()
          .setIsolationLevel('repeatable read')
          .execute(async (trx) => {
            await trx.selectFrom('orders').select('remark').where('id', '=', order.id).execute();
            await h.db.updateTable('orders').set({ remark: 'first' }).where('id', '=', order.id).execute();
            await trx.updateTable('orders').set({ remark: 'second' }).where('id', '=', order.id).execute();
          }),
      );
      expect((e as { code: string }).code).toBe('40001');
    } else {
      const file = path.join(h.dataDir, 'test.sqlite');
      const holder = new DatabaseSync(file);
      const other = new DatabaseSync(file);
      other.exec('PRAGMA busy_timeout = 0');
      holder.exec('BEGIN IMMEDIATE');
      try {
        e = await failure(async () => other.exec('BEGIN IMMEDIATE'));
      } finally {
        holder.exec('ROLLBACK');
        holder.close();
        other.close();
      }
    }
    const r = await answerTo(e, 'en');
    expect(r).toMatchObject({ status: 409, body: { code: 409 } });
    expect(r.body.message).toMatch(/try again/);
  });

  it('a lost or unreachable database is a 503 databaseUnavailable with Retry-After, never a 500 (issue 38)', async () => {
    // Real errors of the driver: on PostgreSQL the test's own transaction is ended by the server
    // (57P01, what a restart or a failover does); on both, a connection refused (ECONNREFUSED, the
    // address of a database that is down).
    const errors: unknown[] = [];
    if (pg) {
      errors.push(
        await failure(() =>
          h.db.transaction().execute(async (trx) => {
            const { pid } = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]!;
            await sql`select pg_terminate_backend(${pid})`.execute(h.db);
            await sql`select pg_sleep(5)`.execute(trx);
          }),
        ),
      );
    }
    const down = new pgDriver.Client({ host: '127.0.0.1', port: 1, user: 'secret-user', password: 'secret-pass' });
    errors.push(await failure(() => down.connect()));
    for (const e of errors) {
      expect(appErrorOfDatabase(e)?.key).toBe('databaseUnavailable');
      const r = await answerTo(e, 'en');
      expect(r).toMatchObject({ status: 503, body: { code: 503, key: 'databaseUnavailable', data: null } });
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
      expect(r.body.message).toMatch(/database cannot be reached/);
      // Nothing of the driver's own text: no address, no user, no SQLSTATE.
      expect(JSON.stringify(r.body)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|secret|terminat|57P01/i);
      const zh = await answerTo(e, 'zh-CN');
      expect(zh.body.message).toMatch(/数据库暂时无法访问/);
    }
  });

  it('anything else stays a 500 with an errorId', async () => {
    const e = await failure(() => sql`select * from no_such_table`.execute(h.db));
    expect(appErrorOfDatabase(e)).toBeNull();
    const r = await answerTo(e);
    expect(r.status).toBe(500);
    expect(r.body.data.errorId).toMatch(/^[0-9a-f-]{36}$/);
  });
});

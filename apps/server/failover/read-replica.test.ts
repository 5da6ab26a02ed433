import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.ts';
import { testConfig } from '../src/config.ts';
import { createDatabase, type Database, routedReads } from '../src/db/database.ts';
import { lsnValue, WRITE_COMMITTING } from '../src/db/read-replica.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { readSheetRows } from '../src/lib/sheet-rows.ts';
import { DEMO_PASSWORD, seedDemo } from '../src/seed/demo.ts';
import { baseRow, fastFill, multipart } from '../test/batches/helpers.ts';
import { jpOrderBody } from '../test/support/orders.ts';
import { type PgPair, startPgPair } from './pg-pair.ts';

/**
 * Issue 38 item 4, `DATABASE_READ_URL` over a REAL streaming replica (the failover drill's pair:
 * Debian's initdb and pg_basebackup -R, failover/pg-pair.ts): two instances on one database, A
 * and B (B with a module graph of its own, as another process: nothing of A's memory is B's),
 * both given the standby as their replica. The standby's replay is paused and resumed by the test
 * (`pg_wal_replay_pause()`), so "the replica has not replayed the write yet" is a state, not a
 * race. Which side served a list is proven twice: by what the list holds (the paused replica
 * lacks the write) and by each instance's routed-read counters (`routedReads`).
 */
const DB = 'console';
const JD_SECRET_KEY = 'c4'.repeat(32);
let pair: PgPair | undefined;
const closing: (() => Promise<unknown>)[] = [];
let a: FastifyInstance;
let b: FastifyInstance;
let dbA: Database;
let reads: { a: () => { replica: number; primary: number }; b: () => { replica: number; primary: number } };

async function query<T extends pg.QueryResultRow>(port: number, text: string, db = DB): Promise<T[]> {
  const c = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/${db}` });
  c.on('error', () => {});
  await c.connect();
  try {
    return (await c.query<T>(text)).rows;
  } finally {
    await c.end().catch(() => {});
  }
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Polls until `check` holds (a positive wait: it fails the test only when the state never comes). */
async function until(what: string, check: () => Promise<boolean>, ms = 30_000) {
  const end = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > end) throw new Error(`not in ${ms} ms: ${what}`);
    await sleep(50);
  }
}
const primaryAt = async () =>
  (await query<{ l: string }>(pair!.primary.port, 'select pg_current_wal_insert_lsn()::text as l'))[0]!.l;
const replayedAt = async () =>
  (await query<{ l: string }>(pair!.standby.port, 'select pg_last_wal_replay_lsn()::text as l'))[0]!.l;

async function post(app: FastifyInstance, p: string, body: unknown, token?: string) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/${p}`,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    payload: JSON.stringify(body),
  });
  return { status: res.statusCode, body: res.json() };
}
async function login(app: FastifyInstance, name: string): Promise<string> {
  const r = await post(app, 'login', { name, password: DEMO_PASSWORD });
  expect(r.status).toBe(200);
  return r.body.data.access_token;
}
/** The order list filtered to these numbers, and which side served its routed reads (page and count). */
async function list(app: FastifyInstance, side: 'a' | 'b', token: string, numbers: string[]) {
  const before = reads[side]();
  const r = await post(app, 'order/orderList', { offset: 0, limit: 20, numbers }, token);
  expect(r.status).toBe(200);
  const after = reads[side]();
  return {
    orderNos: (r.body.data.list as { orderNo: string }[]).map((o) => o.orderNo),
    total: r.body.data.total as number,
    served: { replica: after.replica - before.replica, primary: after.primary - before.primary },
  };
}

/** Whether the order export of these numbers (a workbook read back) holds `orderNo`. */
async function exportHolds(app: FastifyInstance, token: string, orderNo: string): Promise<boolean> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/order/downloadOrderExcel',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    payload: JSON.stringify({ numbers: [orderNo] }),
  });
  expect(res.statusCode).toBe(200);
  return JSON.stringify(await readSheetRows(res.rawPayload, 100)).includes(orderNo);
}

const progress = async (token: string, id: number) => (await post(a, 'order/batch/progress', { id }, token)).body.data;
const settled = (token: string, id: number, status: string) =>
  until(`batch ${id} ${status}`, async () => (await progress(token, id)).status === status);

/** A batch of these order numbers uploaded through A and parsed (a job too, writing no order): its id. */
async function previewBatch(token: string, numbers: string[]): Promise<number> {
  const template = await a.inject({
    method: 'POST',
    url: '/api/download/importOrder',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    payload: '{}',
  });
  expect(template.statusCode).toBe(200);
  const rows = numbers.map((n, i) => baseRow(i + 1, { orderNo: n }));
  const body = multipart({ channel: 'JP' }, { name: 'o.xlsx', data: await fastFill(template.rawPayload, rows) });
  const up = await a.inject({
    method: 'POST',
    url: '/api/order/batch/createImport',
    headers: { 'content-type': body.contentType, authorization: `Bearer ${token}` },
    payload: body.payload,
  });
  expect(up.statusCode, up.body).toBe(200);
  const id = up.json().data.id as number;
  await settled(token, id, 'preview');
  return id;
}

/** The batch list filtered to one batch number (a page of one: its count is read too), and which side served. */
async function batchList(app: FastifyInstance, side: 'a' | 'b', token: string, batchNo: string) {
  const before = reads[side]();
  const r = await post(app, 'order/batches', { offset: 0, limit: 1, batchNo }, token);
  expect(r.status).toBe(200);
  const after = reads[side]();
  return {
    batchNos: (r.body.data.list as { batchNo: string }[]).map((x) => x.batchNo),
    total: r.body.data.total as number,
    served: { replica: after.replica - before.replica, primary: after.primary - before.primary },
  };
}

const pauseReplay = async () => {
  await query(pair!.standby.port, 'select pg_wal_replay_pause()');
  await until(
    'the standby pauses its replay',
    async () =>
      (await query<{ s: string }>(pair!.standby.port, 'select pg_get_wal_replay_pause_state() as s'))[0]!.s ===
      'paused',
  );
};

beforeAll(async () => {
  // Asynchronous: the second test stops the standby, which a synchronous one would stop every commit for.
  pair = await startPgPair({ synchronous: false });
  closing.push(() => pair!.stop());
  await query(pair.primary.port, `create database ${DB}`, 'postgres');
  const env = (dir: string) => ({
    DATABASE_URL: `postgres://postgres@127.0.0.1:${pair!.primary.port}/${DB}`,
    DATABASE_READ_URL: `postgres://postgres@127.0.0.1:${pair!.standby.port}/${DB}`,
    DATABASE_POOL_WAIT_SECONDS: '2',
    JD_SECRET_KEY,
    DATA_DIR: dir,
    WEB_DIST: path.join(dir, 'no-web'),
    FILE_STORE: 'database',
  });
  const dirA = fs.mkdtempSync(path.join(os.tmpdir(), 'replica-a-'));
  dbA = createDatabase(testConfig(env(dirA)).database);
  await migrateToLatest(dbA);
  await seedDemo(dbA, { orders: 10 });
  a = await buildApp({ config: testConfig(env(dirA)), db: dbA });
  await a.ready();
  await a.jobs.start();
  closing.push(async () => {
    await a.close();
    await dbA.destroy();
    fs.rmSync(dirA, { recursive: true, force: true });
  });
  // B: another process's modules (as test/harness.ts secondInstance does).
  vi.resetModules();
  const fresh = {
    app: (await import('../src/app.ts')) as typeof import('../src/app.ts'),
    config: (await import('../src/config.ts')) as typeof import('../src/config.ts'),
    database: (await import('../src/db/database.ts')) as typeof import('../src/db/database.ts'),
  };
  const dirB = fs.mkdtempSync(path.join(os.tmpdir(), 'replica-b-'));
  const configB = fresh.config.testConfig(env(dirB));
  const dbB = fresh.database.createDatabase(configB.database);
  b = await fresh.app.buildApp({ config: configB, db: dbB });
  await b.ready();
  await b.jobs.start();
  closing.push(async () => {
    await b.close();
    await dbB.destroy();
    fs.rmSync(dirB, { recursive: true, force: true });
  });
  reads = { a: () => ({ ...routedReads(dbA) }), b: () => ({ ...fresh.database.routedReads(dbB) }) };
  // The replica has the schema and the demo data before the test holds its replay.
  const seeded = await primaryAt();
  await until('the standby replays the seed', async () => lsnValue(await replayedAt()) >= lsnValue(seeded));
}, 180_000);

afterAll(async () => {
  // Each close bounded: the database pair is stopped even when an app's close hangs.
  for (const close of closing.reverse()) await Promise.race([close().catch(() => {}), sleep(15_000)]);
}, 90_000);

describe('DATABASE_READ_URL: the list pages on a streaming replica, with read-your-own-writes', () => {
  let orderNo = '';

  it('a user who wrote through A reads their write through B from the primary while the replica lags; then from the replica once it has replayed it; a reader with no write reads the replica', async () => {
    const writer = await login(a, 'demo');
    const reader = await login(b, 'operator');
    await query(pair!.standby.port, 'select pg_wal_replay_pause()');
    await until(
      'the standby pauses its replay',
      async () =>
        (await query<{ s: string }>(pair!.standby.port, 'select pg_get_wal_replay_pause_state() as s'))[0]!.s ===
        'paused',
    );

    const made = await post(a, 'order/createImport', jpOrderBody('RR'), writer);
    expect(made.status).toBe(200);
    orderNo = made.body.data.orderNo;

    // The writer, on the other instance, at once: the primary serves, the write is there.
    const mine = await list(b, 'b', writer, [orderNo]);
    expect(mine.orderNos).toEqual([orderNo]);
    expect(mine.served).toEqual({ replica: 0, primary: 2 });

    // A reader with no write: the replica, which has not replayed the order (paused before it).
    const theirs = await list(b, 'b', reader, [orderNo]);
    expect(theirs.served).toEqual({ replica: 2, primary: 0 });
    expect(theirs.orderNos).toEqual([]);
    // The exports' queries likewise (their workbook worker's own connection, on the instance
    // that renders): the writer's holds the order, the other reader's, from the replica, not yet.
    expect(await exportHolds(b, writer, orderNo)).toBe(true);
    expect(await exportHolds(b, reader, orderNo)).toBe(false);

    // Replay resumes; once the standby is past the writer's noted position, the same list of the
    // writer's comes from the replica, with the write.
    await query(pair!.standby.port, 'select pg_wal_replay_resume()');
    const noted = (await query<{ l: string }>(pair!.primary.port, 'select wal_lsn as l from write_positions'))[0]!.l;
    await until('the standby replays past the write', async () => lsnValue(await replayedAt()) >= lsnValue(noted));
    const later = await list(b, 'b', writer, [orderNo]);
    expect(later.served).toEqual({ replica: 2, primary: 0 });
    expect(later.orderNos).toEqual([orderNo]);
    const theirsLater = await list(a, 'a', reader, [orderNo]);
    expect(theirsLater.served).toEqual({ replica: 2, primary: 0 });
    expect(theirsLater.orderNos).toEqual([orderNo]);
    expect(await exportHolds(a, reader, orderNo)).toBe(true);
  }, 60_000);

  it("a batch's commit job notes its orders for the user who confirmed it: their list waits for the replica to replay the commit; a mark left by a job that died before noting is noted by the reader", async () => {
    const writer = await login(a, 'demo');
    const writerId = (await query<{ id: number }>(pair!.primary.port, "select id from users where name = 'demo'"))[0]!
      .id;
    const positionOf = async () =>
      (
        await query<{ l: string }>(
          pair!.primary.port,
          `select wal_lsn as l from write_positions where user_id = ${writerId}`,
        )
      )[0]!.l;
    const numbers = [1, 2, 3].map((i) => `RJ-${i}`);
    const batchId = await previewBatch(writer, numbers);

    // The commit job held at its first order (a lock the test takes), so the replica can replay
    // everything the confirm call wrote and noted, and be paused before the job's commit.
    const locker = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${pair!.primary.port}/${DB}` });
    locker.on('error', () => {});
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('lock table orders in share mode');
      expect((await post(a, 'order/batch/confirm', { id: batchId, confirmations: [] }, writer)).status).toBe(200);
      await until(
        'the commit job waits for the orders table',
        async () =>
          Number(
            (
              await query<{ n: string }>(
                pair!.primary.port,
                "select count(*) as n from pg_locks where relation = 'orders'::regclass and not granted",
              )
            )[0]!.n,
          ) > 0,
      );
      const confirmed = await positionOf();
      await until('the standby replays the confirm', async () => lsnValue(await replayedAt()) >= lsnValue(confirmed));
      await query(pair!.standby.port, 'select pg_wal_replay_pause()');
      await until(
        'the standby pauses its replay',
        async () =>
          (await query<{ s: string }>(pair!.standby.port, 'select pg_get_wal_replay_pause_state() as s'))[0]!.s ===
          'paused',
      );
      await locker.query('rollback');
    } finally {
      await locker.end().catch(() => {});
    }
    await settled(writer, batchId, 'done');

    // The writer, on the other instance, once the batch shows done: the primary, with the orders.
    const mine = await list(b, 'b', writer, numbers);
    expect(mine.orderNos.sort()).toEqual(numbers);
    expect(mine.served).toEqual({ replica: 0, primary: 2 });

    // Replayed past the job's noted position: the replica, with the orders.
    await query(pair!.standby.port, 'select pg_wal_replay_resume()');
    await until('the job notes its position', async () => (await positionOf()) !== WRITE_COMMITTING);
    const noted = await positionOf();
    await until('the standby replays the commit', async () => lsnValue(await replayedAt()) >= lsnValue(noted));
    const later = await list(b, 'b', writer, numbers);
    expect(later.served).toEqual({ replica: 2, primary: 0 });
    expect(later.orderNos.sort()).toEqual(numbers);

    // A job that committed and died before noting where: its mark stays. The reader who finds it
    // reads the primary and notes the position then (past the commit), so the replica serves
    // again once it has replayed that far, not never.
    await query(pair!.standby.port, 'select pg_wal_replay_pause()');
    await until(
      'the standby pauses its replay',
      async () =>
        (await query<{ s: string }>(pair!.standby.port, 'select pg_get_wal_replay_pause_state() as s'))[0]!.s ===
        'paused',
    );
    await query(
      pair!.primary.port,
      `update write_positions set wal_lsn = '${WRITE_COMMITTING}' where user_id = ${writerId}`,
    );
    const marked = await list(a, 'a', writer, numbers);
    expect(marked.served).toEqual({ replica: 0, primary: 2 });
    expect(marked.orderNos.sort()).toEqual(numbers);
    const resolved = await positionOf();
    expect(resolved).not.toBe(WRITE_COMMITTING);
    await query(pair!.standby.port, 'select pg_wal_replay_resume()');
    await until('the standby replays past it', async () => lsnValue(await replayedAt()) >= lsnValue(resolved));
    expect((await list(a, 'a', writer, numbers)).served).toEqual({ replica: 2, primary: 0 });
  }, 90_000);

  it('the other list pages (here the batch list, its page and its count) on the replica with read-your-own-writes: the maker of a new batch reads the primary until the replica has it, another reader the replica', async () => {
    const writer = await login(a, 'demo');
    const reader = await login(b, 'operator');
    await pauseReplay();
    const id = await previewBatch(writer, ['RL-1']);
    const { batchNo } = await progress(writer, id);
    expect(batchNo).toBeTruthy();

    const mine = await batchList(b, 'b', writer, batchNo);
    expect(mine.batchNos).toEqual([batchNo]);
    expect(mine.served).toEqual({ replica: 0, primary: 2 });
    const theirs = await batchList(b, 'b', reader, batchNo);
    expect(theirs).toEqual({ batchNos: [], total: 0, served: { replica: 1, primary: 0 } });

    await query(pair!.standby.port, 'select pg_wal_replay_resume()');
    const noted = (
      await query<{ l: string }>(
        pair!.primary.port,
        "select wal_lsn as l from write_positions join users on users.id = user_id where users.name = 'demo'",
      )
    )[0]!.l;
    await until('the standby replays past the batch', async () => lsnValue(await replayedAt()) >= lsnValue(noted));
    const later = await batchList(b, 'b', writer, batchNo);
    expect(later).toEqual({ batchNos: [batchNo], total: 1, served: { replica: 2, primary: 0 } });
    expect((await batchList(a, 'a', reader, batchNo)).batchNos).toEqual([batchNo]);
  }, 90_000);

  it('a replica that is down: the list is read from the primary, and answers', async () => {
    expect(orderNo).not.toBe('');
    pair!.stopStandby();
    const reader = await login(a, 'operator');
    const r = await list(a, 'a', reader, [orderNo]);
    expect(r.orderNos).toEqual([orderNo]);
    expect(r.served).toEqual({ replica: 0, primary: 2 });
  }, 60_000);
});

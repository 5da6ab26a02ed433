import { DatabaseSync } from 'node:sqlite';
import { expect, it } from 'vitest';
import { isTransientDatabaseError } from '../../src/db/transient-errors.ts';

/** What the job queue retries and the HTTP handler answers 503 to: the connection's failures, never the data's. */
it('calls connection losses, restarts, failovers and lock waits transient', () => {
  for (const code of ['57P01', '57P02', '57P03', '08006', '08001', '08P01', '53300', '40001', '40P01'])
    expect(isTransientDatabaseError({ code, severity: 'FATAL' }), code).toBe(true);
  for (const code of ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT'])
    expect(isTransientDatabaseError(Object.assign(new Error('socket'), { code })), code).toBe(true);
  expect(isTransientDatabaseError(new Error('Connection terminated unexpectedly'))).toBe(true);
  expect(isTransientDatabaseError(new Error('timeout exceeded when trying to connect'))).toBe(true);
  expect(isTransientDatabaseError(new Error('wrapped', { cause: { code: '57P01', severity: 'FATAL' } }))).toBe(true);
  expect(isTransientDatabaseError(new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })]))).toBe(
    true,
  );
});

it('never calls a data error, a constraint or a bug transient', () => {
  for (const code of ['23505', '23503', '22P02', '42P01', '42703', '54000'])
    expect(isTransientDatabaseError({ code, severity: 'ERROR' }), code).toBe(false);
  expect(isTransientDatabaseError(new TypeError('x is undefined'))).toBe(false);
  expect(isTransientDatabaseError(null)).toBe(false);
  expect(isTransientDatabaseError('57P01')).toBe(false);
});

it('knows a busy SQLite from a broken one, by the real errors node:sqlite throws', () => {
  const db = new DatabaseSync(':memory:');
  db.exec('create table t (id integer primary key)');
  db.exec('insert into t values (1)');
  let unique: unknown;
  try {
    db.exec('insert into t values (1)');
  } catch (e) {
    unique = e;
  }
  expect(isTransientDatabaseError(unique)).toBe(false);
  expect(isTransientDatabaseError({ code: 'ERR_SQLITE_ERROR', errcode: 5 })).toBe(true);
  expect(isTransientDatabaseError({ code: 'ERR_SQLITE_ERROR', errcode: 517 })).toBe(true);
  db.close();
});

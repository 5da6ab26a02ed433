import { describe, expect, it } from 'vitest';
import { isWriteStatement } from '../../src/db/read-replica.ts';

/**
 * Which statements mark a console call as having written (db/read-replica.ts, DATABASE_READ_URL):
 * a write taken for a read would let the writer read a replica without their write, so anything
 * that is not plainly a read or a transaction's control counts as a write.
 */
describe('isWriteStatement', () => {
  it('reads and transaction control are not writes', () => {
    for (const text of [
      'select * from orders',
      '  SELECT 1',
      '(select 1) union all (select 2)',
      'begin',
      'commit',
      'rollback',
      'savepoint a',
      'release savepoint a',
      'show statement_timeout',
      '-- a comment\nselect 1',
      '/* a note */ select 1',
    ])
      expect(isWriteStatement(text), text).toBe(false);
  });
  it('anything that may change data is', () => {
    for (const text of [
      'insert into orders (id) values ($1)',
      'update orders set status = $1',
      'delete from orders',
      'with moved as (update orders set x = 1 returning id) select * from moved',
      'merge into t using s on true when matched then do nothing',
      'truncate orders',
      'lock table orders',
      'copy orders from stdin',
      'create table x (id int)',
      'call do_something()',
      '',
    ])
      expect(isWriteStatement(text), text).toBe(true);
  });
});

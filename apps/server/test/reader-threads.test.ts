/**
 * SQLite's reader threads (db/sqlite-dialect.ts ReaderThreads, database.ts readOffLoop): the
 * heaviest reads run on connections of their own so the event loop keeps serving other calls.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CompiledQuery } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase, readOffLoop } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reader-threads-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// A read that keeps SQLite busy for a while: counting up a recursive CTE.
const slow = CompiledQuery.raw(
  'with recursive c(x) as (select 1 union all select x + 1 from c where x < ?) select count(*) as n from c',
  [3_000_000],
) as CompiledQuery<{ n: number }>;

/** Event-loop turns that ran while the read was out. */
async function turnsDuring(read: Promise<unknown>) {
  let turns = 0;
  let done = false;
  const tick = () => {
    if (done) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  await read;
  done = true;
  return turns;
}

// SQLite files of its own, whatever database the rest of the suite runs on.
describe('reader threads (SQLite)', () => {
  it('answer what the event-loop reader answers, and see the last commit', async () => {
    const db = createDatabase({ dialect: 'sqlite', file: path.join(dir, 'a.sqlite'), readerThreads: 2 });
    await migrateToLatest(db);
    const q = db.selectFrom('customers').select(['id', 'code']).orderBy('id').compile();
    expect(await readOffLoop(db, q)).toEqual([]);
    const at = new Date().toISOString();
    await db.insertInto('customers').values({ code: 'T1', name: 'T1', agent_user_id: null, created_at: at }).execute();
    const rows = await readOffLoop(db, q);
    expect(rows).toEqual([{ id: expect.any(Number), code: 'T1' }]);
    expect(rows).toEqual((await db.executeQuery(q)).rows.map((r) => ({ ...r })));
    await db.destroy();
  });

  it('leave the event loop turning while a long read runs; without threads it stops', async () => {
    const threaded = createDatabase({ dialect: 'sqlite', file: path.join(dir, 'b.sqlite'), readerThreads: 1 });
    const inline = createDatabase({ dialect: 'sqlite', file: path.join(dir, 'b.sqlite'), readerThreads: 0 });
    const a = readOffLoop(threaded, slow);
    const turnsThreaded = await turnsDuring(a);
    expect((await a)[0]!.n).toBe(3_000_000);
    // The inline read runs to its end in one go: not one turn in between.
    const b = readOffLoop(inline, slow);
    const turnsInline = await turnsDuring(b);
    expect((await b)[0]!.n).toBe(3_000_000);
    expect(turnsInline).toBe(0);
    // At least one turn while the threaded read was out: what tells the two apart. How many is the
    // machine's speed (a loaded one gives fewer), so no count is asked for (issue 37).
    expect(turnsThreaded).toBeGreaterThan(0);
    await threaded.destroy();
    await inline.destroy();
  });

  it("reject a failing read with SQLite's message, and close with reads still out", async () => {
    const db = createDatabase({ dialect: 'sqlite', file: path.join(dir, 'c.sqlite'), readerThreads: 2 });
    await migrateToLatest(db);
    await expect(readOffLoop(db, CompiledQuery.raw('select * from no_such_table', []))).rejects.toThrow(
      /no such table: no_such_table/,
    );
    const out = readOffLoop(db, slow);
    await db.destroy();
    // Closing waits for the thread to finish what it was given.
    expect((await out)[0]!.n).toBe(3_000_000);
    await expect(readOffLoop(db, slow)).rejects.toThrow(/closed/);
  });
});

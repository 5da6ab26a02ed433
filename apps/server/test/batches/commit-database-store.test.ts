import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness.ts';
import { baseRow, uploadPreview } from './helpers.ts';

/**
 * Issue 36 item 4 (and issue 38 row 1's "preview deleted before COMMIT"): with FILE_STORE=database
 * the commit removed the batch's stored preview through the root connection inside its own
 * transaction. On SQLite that waited on the one writer the transaction itself held: the batch stayed
 * `committing` at 99 % and every later write (a login) hung until restart. The batch state is read
 * on a connection of the test's own, so a stuck app cannot stall the wait (which is bounded).
 */
let h: Harness;
let demo: string;
const isPg = !!process.env.TEST_DATABASE_URL;
let reader: { status(id: number): Promise<string | undefined>; close(): Promise<void> };

beforeAll(async () => {
  h = await createHarness({ env: { FILE_STORE: 'database' } });
  demo = await h.login('demo');
  if (isPg) {
    const client = new pg.Client({ connectionString: h.databaseUrl });
    await client.connect();
    reader = {
      status: async (id) => (await client.query('select status from batches where id = $1', [id])).rows[0]?.status,
      close: () => client.end(),
    };
  } else {
    const file = new DatabaseSync(h.databaseUrl, { readOnly: true });
    const stmt = file.prepare('select status from batches where id = ?');
    reader = {
      status: async (id) => (stmt.get(id) as { status: string } | undefined)?.status,
      close: async () => file.close(),
    };
  }
});
afterAll(async () => {
  await reader?.close();
});

/** The batch's recorded status once it leaves `committing`, or `committing` after a bounded wait. */
async function settledStatus(id: number): Promise<string | undefined> {
  let status: string | undefined;
  for (let i = 0; i < 400; i++) {
    status = await reader.status(id);
    if (status !== 'committing') return status;
    await new Promise((r) => setTimeout(r, 25));
  }
  return status;
}

/** A call that must answer: a hung one fails the test here instead of at the test's timeout. */
function within<T>(what: string, p: Promise<T>, ms = 10_000): Promise<T> {
  let timer: NodeJS.Timeout;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer`)), ms);
  });
  return Promise.race([p, bound]).finally(() => clearTimeout(timer));
}

describe('FILE_STORE=database: a batch commit', () => {
  it('completes, removes its stored preview after COMMIT, and a later write (a login) works', async () => {
    const rows = Array.from({ length: 5 }, (_, i) => baseRow(i + 1, { orderNo: `DBSTORE-${i}` }));
    const p = await uploadPreview(h, demo, rows);
    const parsedKey = (await h.db.selectFrom('batches').select('parsed_key').where('id', '=', p.id).executeTakeFirst())
      ?.parsed_key;
    expect(parsedKey).toBeTruthy();
    expect(await h.stored(parsedKey!)).toBe(true);

    const c = await within('confirm', h.post('order/batch/confirm', { id: p.id, confirmations: [] }, demo));
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    expect(await settledStatus(p.id)).toBe('done');

    // The one writer is free: a login (it writes a session) answers.
    expect(await within('a login after the commit', h.login('demo'))).toBeTruthy();
    const done = await within('progress', h.post('order/batch/progress', { id: p.id }, demo));
    expect(done.body.data).toMatchObject({ status: 'done', orderCount: 5 });
    // Removed just after COMMIT: looked for a bounded while.
    let gone = false;
    for (let i = 0; i < 400 && !gone; i++) {
      gone = !(await within('the store', h.stored(parsedKey!)));
      if (!gone) await new Promise((r) => setTimeout(r, 25));
    }
    expect(gone).toBe(true);
  });
});

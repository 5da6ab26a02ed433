import type { items as C } from '@console/contract';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type Instance, secondInstance } from '../harness.ts';
import { waitFor } from '../support/jobs.ts';
import { importCall, importPreview } from '../support/item-imports.ts';
import { heldStore, INSTANCES_ENV } from '../support/two-instances.ts';

/**
 * Issue 27: an item import's commit on the job queue. Its progress lived in the memory of the
 * instance committing it (another instance answering the console's poll read 0 until the end),
 * and a starting instance failed every import still committing that it did not run itself (on
 * PostgreSQL, those committing for more than ten minutes). Several instances live on PostgreSQL;
 * on SQLite (one instance) the second app is `SERVER_ROLE=web`.
 */
const pgUrl = process.env.TEST_DATABASE_URL;

/** The harness's file store, the reading of a commit's stored rows held at a gate when asked. */
const held = heldStore('get', (key) => key.endsWith('.json'));

let h: Harness;
let demo: string;
let b: Instance;
beforeAll(async () => {
  h = await createHarness({ env: INSTANCES_ENV, storage: held.storage });
  held.attach(h);
  demo = await h.login('demo');
});

const call = (app: Instance['app'], path: string, body: unknown) => importCall(app, demo, path, body);
const preview = (n: number, group: string) => importPreview(h, demo, n, group);

describe('an item import with two instances on one database', () => {
  it('an instance starting while an import commits leaves it alone; it ends done', async () => {
    const { id } = await preview(3, 'inst-start');
    const g = held.closeGate();
    expect((await call(h.app, 'item/import/confirm', { id })).status).toBe('committing');
    await waitFor('the commit to start', () => g.reached, 20_000);
    // A large import, committing for more than ten minutes by the time another instance starts.
    h.clock.now = new Date(h.clock.now.getTime() + 11 * 60_000);
    b = await secondInstance(h, { env: pgUrl ? INSTANCES_ENV : { ...INSTANCES_ENV, SERVER_ROLE: 'web' } });
    expect(await call(b.app, 'item/import/progress', { id })).toMatchObject({
      status: 'committing',
      errorMessage: null,
    });
    g.open();
    await waitFor(
      'the commit to end',
      async () => (await call(h.app, 'item/import/progress', { id })).status !== 'committing',
      20_000,
    );
    expect(await call(b.app, 'item/import/progress', { id })).toMatchObject({
      status: 'done',
      progress: 100,
      createdItems: 3,
      errorMessage: null,
    });
  }, 60_000);

  it('progress of a commit on one instance is read on another while it runs', async () => {
    const { id, jans } = await preview(600, 'inst-progress');
    const customerId = (
      await h.db.selectFrom('customers').select('id').where('code', '=', 'DEMO').executeTakeFirstOrThrow()
    ).id;
    // Held mid-commit. PostgreSQL: another session holds a JAN of the second chunk (an item being
    // created elsewhere, not committed), so the commit waits on the unique index after its first
    // chunk. SQLite: its one writer cannot be held by another connection without holding this
    // process, so the commit is held before its transaction.
    let release: () => Promise<void>;
    if (pgUrl) {
      const lock = new pg.Client({ connectionString: h.databaseUrl });
      await lock.connect();
      await lock.query('begin');
      const now = new Date().toISOString();
      const cols = await lock.query(
        `insert into items (customer_id, jan, name_zh, name_en, name_ja, specs, essentials, new_category, group_name,
           net_weight_g, clearance_price, declaration_price, origin, status, created_by, created_at, updated_at)
         values ($1, $2, 'x', 'x', 'x', 'x', '', '', 'lock', 1, '1', '1', 'JP', 'pending',
           (select id from users where name = 'demo'), $3, $3)`,
        [customerId, jans[550], now],
      );
      expect(cols.rowCount).toBe(1);
      release = async () => {
        await lock.query('rollback');
        await lock.end();
      };
    } else {
      const g = held.closeGate();
      release = async () => g.open();
    }
    expect((await call(h.app, 'item/import/confirm', { id })).status).toBe('committing');
    let seen: C.ItemImport | null = null;
    try {
      if (pgUrl) {
        await waitFor(
          'the first chunk',
          async () => (seen = await call(b.app, 'item/import/progress', { id })).progress > 0,
          20_000,
        );
        // The first chunk's figure, read on the other instance while the commit waits.
        expect(seen).toMatchObject({ status: 'committing', progress: Math.floor((500 / 600) * 99) });
      } else {
        await waitFor('the commit to start', () => held.gate!.reached, 20_000);
        expect(await call(b.app, 'item/import/progress', { id })).toMatchObject({ status: 'committing' });
      }
    } finally {
      await release();
    }
    await waitFor(
      'the commit to end',
      async () => (await call(b.app, 'item/import/progress', { id })).status !== 'committing',
      20_000,
    );
    expect(await call(b.app, 'item/import/progress', { id })).toMatchObject({
      status: 'done',
      progress: 100,
      createdItems: 600,
    });
  }, 120_000);
});

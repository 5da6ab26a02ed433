import { beforeAll, describe, expect, it } from 'vitest';
import { onCommitted } from '../../src/db/commit-signal.ts';
import { createHarness, type Harness } from '../harness.ts';

/**
 * The driver's "a row of this table committed" (db/commit-signal.ts), which wakes the webhook
 * relay: told once the COMMIT (or a lone statement) has returned, never before, so a read in the
 * listener sees the row; a rollback tells nothing; another table's insert tells nothing.
 */
let h: Harness;
let n = 0;
const notice = () => ({
  title_zh: `signal-${++n}`,
  title_en: 't',
  content_zh: 'c',
  content_en: 'c',
  published_at: new Date().toISOString(),
  created_by: null,
  user_id: null,
});

beforeAll(async () => {
  h = await createHarness();
});

describe('onCommitted', () => {
  it('tells after the commit of a transaction that inserted, and a read then sees the row', async () => {
    const heard: { inside: boolean; seen: Promise<boolean> }[] = [];
    let inside = false;
    const row = notice();
    const stop = onCommitted(h.db, 'notices', () =>
      heard.push({
        inside,
        seen: h.db
          .selectFrom('notices')
          .select('id')
          .where('title_zh', '=', row.title_zh)
          .executeTakeFirst()
          .then(Boolean),
      }),
    );
    await h.db.transaction().execute(async (trx) => {
      inside = true;
      await trx.insertInto('notices').values(row).execute();
      await trx.selectFrom('notices').select('id').limit(1).execute();
      expect(heard).toHaveLength(0);
      inside = false;
    });
    stop();
    expect(heard).toHaveLength(1);
    expect(heard[0]!.inside).toBe(false);
    expect(await heard[0]!.seen).toBe(true);
  });

  it('a rollback tells nothing; a lone insert tells; another table tells nothing', async () => {
    let heard = 0;
    const stop = onCommitted(h.db, 'notices', () => void heard++);
    await expect(
      h.db.transaction().execute(async (trx) => {
        await trx.insertInto('notices').values(notice()).execute();
        throw new Error('undone');
      }),
    ).rejects.toThrow('undone');
    expect(heard).toBe(0);
    // The next transaction on the same connection starts with nothing noted.
    await h.db.transaction().execute(async (trx) => {
      await trx.selectFrom('notices').select('id').limit(1).execute();
    });
    expect(heard).toBe(0);
    await h.db.insertInto('notices').values(notice()).execute();
    expect(heard).toBe(1);
    await h.db.updateTable('notices').set({ title_en: 'u' }).where('id', '<', 0).execute();
    stop();
    await h.db.insertInto('notices').values(notice()).execute();
    expect(heard).toBe(1);
  });
});

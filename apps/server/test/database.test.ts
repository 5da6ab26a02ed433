import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, beforeAll } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ seed: false });
});

describe('database', () => {
  it('a read does not wait for an open write transaction, and sees only committed rows', async () => {
    const events: string[] = [];
    let release!: () => void;
    const hold = new Promise<void>((r) => (release = r));
    const tx = h.db.transaction().execute(async (trx) => {
      await trx.insertInto('order_types').values({ code: 'tmp', name_zh: '临时', name_en: 'tmp' }).execute();
      events.push('written');
      await hold;
      events.push('commit');
    });
    while (!events.includes('written')) await new Promise((r) => setTimeout(r, 5));
    const rows = await h.db.selectFrom('order_types').select('code').execute();
    events.push('read');
    expect(rows.map((r) => r.code)).not.toContain('tmp');
    release();
    await tx;
    expect(events).toEqual(['written', 'read', 'commit']);
    const after = await h.db.selectFrom('order_types').select('code').execute();
    expect(after.map((r) => r.code)).toContain('tmp');
  });

  it('a failed transaction leaves nothing behind', async () => {
    await expect(
      h.db.transaction().execute(async (trx) => {
        await trx.insertInto('order_types').values({ code: 'half', name_zh: '半', name_en: 'half' }).execute();
        throw new Error('injected');
      }),
    ).rejects.toThrow('injected');
    const rows = await h.db.selectFrom('order_types').select('code').where('code', '=', 'half').execute();
    expect(rows).toEqual([]);
  });

  it('finding 19: a lone write waits for the open transaction, then lands after its commit', async () => {
    // The same row on both sides: SQLite queues every write behind the open transaction (one
    // writer); PostgreSQL makes a write wait for the transaction holding the row's lock.
    await h.db.insertInto('order_types').values({ code: 'w', name_zh: 'w', name_en: 'before' }).execute();
    const order: string[] = [];
    let release!: () => void;
    const hold = new Promise<void>((r) => (release = r));
    const tx = h.db.transaction().execute(async (trx) => {
      await trx.updateTable('order_types').set({ name_en: 'tx' }).where('code', '=', 'w').execute();
      order.push('tx-write');
      await hold;
      order.push('tx-commit');
    });
    while (!order.includes('tx-write')) await new Promise((r) => setTimeout(r, 5));
    const lone = h.db
      .updateTable('order_types')
      .set({ name_en: 'lone' })
      .where('code', '=', 'w')
      .execute()
      .then(() => order.push('lone-write'));
    await new Promise((r) => setTimeout(r, 200));
    // 200 ms on, the lone write is still waiting.
    expect(order).toEqual(['tx-write']);
    release();
    await Promise.all([tx, lone]);
    expect(order).toEqual(['tx-write', 'tx-commit', 'lone-write']);
    // It ran after the commit, so its value is the one kept.
    const row = await h.db.selectFrom('order_types').select('name_en').where('code', '=', 'w').executeTakeFirst();
    expect(row).toEqual({ name_en: 'lone' });
  });
});

// SQLite's WAL checkpoints: PostgreSQL has nothing of the kind, so this case is defined on SQLite only.
if (!process.env.TEST_DATABASE_URL)
  describe('database (SQLite)', () => {
    it('SQLite: a big commit leaves the checkpoint to the background thread, which then runs it', async () => {
      const file = path.join(h.dataDir, 'test.sqlite');
      const before = fs.statSync(file).size;
      const note = 'x'.repeat(4000);
      await h.db.transaction().execute(async (trx) => {
        for (let i = 0; i < 2000; i++)
          await trx
            .insertInto('order_types')
            .values({ code: `ckpt${i}`, name_zh: note, name_en: note })
            .execute();
      });
      // 8 MB committed: still only in the WAL (the commit did not copy it into the file)…
      expect(fs.statSync(file).size - before).toBeLessThan(1_000_000);
      expect(fs.statSync(`${file}-wal`).size).toBeGreaterThan(8_000_000);
      // …until the checkpoint thread has.
      const deadline = Date.now() + 10_000;
      while (fs.statSync(file).size - before < 8_000_000 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      expect(fs.statSync(file).size - before).toBeGreaterThan(8_000_000);
      const n = await h.db
        .selectFrom('order_types')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where('code', 'like', 'ckpt%')
        .executeTakeFirstOrThrow();
      expect(Number(n.n)).toBe(2000);
    });
  });

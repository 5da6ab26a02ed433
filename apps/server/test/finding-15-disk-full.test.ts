import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../src/db/database.ts';
import { localStorage, type Storage } from '../src/lib/storage.ts';
import { baseRow, fill, settle, template, upload } from './batches/helpers.ts';
import { createHarness, type Harness } from './harness.ts';

/**
 * Issue 10, finding 15: a full disk answered 500 ENOSPC and left partial files; a commit on
 * a full SQLite database reported "cannot rollback - no transaction is active", hiding why.
 * Now: 507 in the user's language, nothing left behind, and the real cause where it failed.
 */
const enospc = () =>
  Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });

/** The storage boundary on a full disk: every write fails as the file system would. */
function fullDisk(root: string): Storage & { puts: number } {
  const real = localStorage(root);
  const s = {
    puts: 0,
    async put() {
      s.puts++;
      throw enospc();
    },
    get: (key: string) => real.get(key),
    stream: (key: string) => real.stream(key),
    remove: (key: string) => real.remove(key),
    check: () => real.check(),
    listOlderThan: (before: Date) => real.listOlderThan(before),
  };
  return s;
}

const count = async (h: Harness, t: 'batches' | 'files') =>
  Number(
    (
      await h.db
        .selectFrom(t)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const filesOnDisk = (dir: string): string[] =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((d) => d.isFile())
        .map((d) => d.name)
    : [];

describe('finding 15: uploads on a full disk answer 507 in the user language and leave nothing behind', () => {
  let h: Harness;
  let storage: ReturnType<typeof fullDisk>;
  let tpl: Buffer;
  let demo: string;
  beforeAll(async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'full-disk-'));
    storage = fullDisk(root);
    h = await createHarness({ storage });
    demo = await h.login('demo');
    tpl = await template(h, demo, 'download/importOrder');
  });

  it('order/batch/createImport: 507, both languages, no batch and no file row', async () => {
    const data = await fill(tpl, [baseRow(1)]);
    const before = { batches: await count(h, 'batches'), files: await count(h, 'files') };
    const en = await upload(h, 'order/batch/createImport', demo, { channel: 'JP' }, { name: 'o.xlsx', data });
    expect(storage.puts).toBe(1);
    expect(en.status).toBe(507);
    expect(en.body).toEqual({
      code: 507,
      message:
        'The server has run out of storage space; nothing was saved. Please try again later or tell the administrator.',
      key: 'storageFull',
      data: null,
    });
    const zh = await upload(h, 'order/batch/createImport', demo, { channel: 'JP' }, { name: 'o.xlsx', data }, 'zh-CN');
    expect(zh.status).toBe(507);
    expect(zh.body.message).toBe('服务器存储空间不足，未保存任何内容。请稍后重试或联系管理员。');
    expect({ batches: await count(h, 'batches'), files: await count(h, 'files') }).toEqual(before);
  });
});

describe('finding 15: a full SQLite database (max_page_count) surfaces its real cause', () => {
  let h: Harness;
  let demo: string;
  let tpl: Buffer;
  let dbFile: string;
  beforeAll(async () => {
    // Always SQLite: PRAGMA max_page_count makes this database really full.
    dbFile = path.join(os.tmpdir(), `full-${randomUUID()}.sqlite`);
    h = await createHarness({ env: { DATABASE_URL: dbFile } });
    demo = await h.login('demo');
    tpl = await template(h, demo, 'download/importOrder');
  });
  const fillUp = async () => {
    const { rows } = await sql<{ page_count: number }>`pragma page_count`.execute(h.db);
    await sql.raw(`pragma max_page_count = ${rows[0]!.page_count}`).execute(h.db);
  };

  it('the dialect: a transaction that fills the database fails with SQLITE_FULL, not a rollback error', async () => {
    const db = createDatabase({ dialect: 'sqlite', file: path.join(os.tmpdir(), `full-${randomUUID()}.sqlite`) });
    try {
      await sql`create table t (x blob)`.execute(db);
      await sql`pragma max_page_count = 20`.execute(db);
      const e = await db
        .transaction()
        .execute(async (trx) => {
          for (let i = 0; i < 200; i++) await sql`insert into t values (randomblob(2000))`.execute(trx);
        })
        .catch((x: unknown) => x as Error & { errcode?: number });
      expect(e).toBeInstanceOf(Error);
      expect((e as Error).message).toMatch(/database or disk is full/);
      expect((e as { errcode?: number }).errcode! & 0xff).toBe(13);
      // The database is usable afterwards: the writer is free and nothing was kept.
      const n = await sql<{ n: number }>`select count(*) as n from t`.execute(db);
      expect(Number(n.rows[0]!.n)).toBe(0);
    } finally {
      await db.destroy();
    }
  });

  it('a batch commit on a full database fails with the real cause, and the database is not left in a transaction', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => baseRow(5000 + i));
    const up = await upload(
      h,
      'order/batch/createImport',
      demo,
      { channel: 'JP' },
      {
        name: 'o.xlsx',
        data: await fill(tpl, rows),
      },
    );
    expect(up.status).toBe(200);
    const preview = await settle(h, demo, up.body.data.id);
    expect(preview.status).toBe('preview');
    await fillUp();
    const confirm = await h.post(
      'order/batch/confirm',
      { id: up.body.data.id, confirmations: preview.confirmations.map((c: { kind: string }) => c.kind) },
      demo,
    );
    expect(confirm.status).toBe(200);
    const done = await settle(h, demo, up.body.data.id);
    expect(done.status).toBe('failed');
    // The real cause in the user's words (never the database's own text).
    expect(done.errorMessage).toMatch(/run out of storage space|存储空间不足/);
    expect(done.errorMessage).not.toMatch(/cannot rollback|no transaction|SQLITE|internal error/);
    // Nothing of the batch was written.
    const written = await h.db.selectFrom('orders').select('id').where('batch_id', '=', up.body.data.id).execute();
    expect(written).toEqual([]);
  });

  it('an upload whose file row cannot be inserted answers 507 and removes the stored file', async () => {
    // The database is at its page limit: uploads succeed while their rows fit in free space, then one cannot.
    const data = await fill(tpl, [baseRow(9001)]);
    let last = 0;
    for (let i = 0; i < 80 && last !== 507; i++) {
      const r = await upload(
        h,
        'order/batch/createImport',
        demo,
        { channel: 'JP' },
        { name: `${'x'.repeat(190)}.xlsx`, data },
      );
      last = r.status;
    }
    expect(last).toBe(507);
    // The accepted uploads' parses store their previews: wait until none is still parsing.
    for (let i = 0; i < 200; i++) {
      const busy = await h.db.selectFrom('batches').select('id').where('status', '=', 'parsing').execute();
      if (!busy.length) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    // Every stored file is one a row points at (a files row, or a batch's stored preview): the
    // refused upload's file is gone.
    const keys = [
      ...(await h.db.selectFrom('files').select('storage_key').execute()).map((f) => f.storage_key),
      ...(await h.db.selectFrom('batches').select('parsed_key').where('parsed_key', 'is not', null).execute()).map(
        (b) => b.parsed_key!,
      ),
    ].map((k) => path.basename(k));
    const onDisk = filesOnDisk(path.join(h.dataDir, 'files'));
    expect(onDisk.length).toBeGreaterThan(0);
    expect(onDisk.sort()).toEqual(keys.filter((k) => onDisk.includes(k)).sort());
    expect(onDisk.every((f) => keys.includes(f))).toBe(true);
  }, 120_000);
});

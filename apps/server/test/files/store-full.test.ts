import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeFailureNamed } from '../../src/lib/files.ts';
import { localStorage, type Storage } from '../../src/lib/storage.ts';
import { baseRow, fill, template, upload } from '../batches/helpers.ts';
import { createHarness, type Harness } from '../harness.ts';

/**
 * Issue 36, item 7: a full disk answered the order export 500 — its render failed in a worker
 * ("render failed: workbook job failed: ENOSPC"), whose error comes back as text only, which was no
 * longer classified. Now 507 `storageFull` on every call that writes the store, per store: the
 * folder on a full disk (the storage boundary failing as the file system does, as
 * finding-15-disk-full.test.ts does), and the database store on a really full database (SQLite at
 * its page limit; PostgreSQL's own `disk_full` error raised by the table).
 */
const FULL = {
  en: 'The server has run out of storage space; nothing was saved. Please try again later or tell the administrator.',
  zh: '服务器存储空间不足，未保存任何内容。请稍后重试或联系管理员。',
};
const enospc = () =>
  Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
const econnrefused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });

/** The folder store, whose writes fail as `fail` says (all, or all but a render's input). */
type Failing = Storage & { fail: null | { error: () => Error; sparing?: string } };
function failingFolder(root: string): Failing {
  const real = localStorage(root);
  const s: Failing = {
    fail: null,
    put: (data, hint, sha256) =>
      s.fail && hint !== s.fail.sparing ? Promise.reject(s.fail.error()) : real.put(data, hint, sha256),
    get: (key: string) => real.get(key),
    stream: (key: string) => real.stream(key),
    remove: (key: string) => real.remove(key),
    check: () => real.check(),
    listOlderThan: (before: Date) => real.listOlderThan(before),
  };
  return s;
}

const exportOrders = (h: Harness, token: string, lang = 'en') =>
  h.post('order/downloadOrderExcel', { sort: 'createdAt', order: 'desc' }, token, { 'accept-language': lang });
const answer = (r: { status: number; body: any }) => ({ status: r.status, key: r.body.key, message: r.body.message });

describe('what a render sends back as text names its store failure', () => {
  it('the worker’s full disk and the files module’s keys are classified; anything else is not', () => {
    expect(storeFailureNamed('workbook job failed: ENOSPC: no space left on device, write')?.code).toBe(507);
    expect(storeFailureNamed('storageFull')?.key).toBe('storageFull');
    expect(storeFailureNamed('fileStoreUnavailable')?.code).toBe(503);
    expect(storeFailureNamed('workbook job failed: Cannot read properties of undefined')).toBeNull();
    expect(storeFailureNamed(null)).toBeNull();
  });
});

describe('the folder store on a full disk', () => {
  let h: Harness;
  let demo: string;
  let store: Failing;
  beforeAll(async () => {
    store = failingFolder(fs.mkdtempSync(path.join(os.tmpdir(), 'full-folder-')));
    h = await createHarness({ storage: store });
    demo = await h.login('demo');
  });

  it('an upload and an order export answer 507 in both languages', async () => {
    const data = await fill(await template(h, demo, 'download/importOrder'), [baseRow(1)]);
    store.fail = { error: enospc };
    try {
      const up = await upload(h, 'order/batch/createImport', demo, { channel: 'JP' }, { name: 'o.xlsx', data });
      expect(up).toEqual({ status: 507, body: { code: 507, message: FULL.en, key: 'storageFull', data: null } });
      expect(answer(await exportOrders(h, demo))).toEqual({ status: 507, key: 'storageFull', message: FULL.en });
      expect(answer(await exportOrders(h, demo, 'zh-CN'))).toEqual({
        status: 507,
        key: 'storageFull',
        message: FULL.zh,
      });
    } finally {
      store.fail = null;
    }
  }, 60_000);

  it('an export whose render fails to store its file (on the worker) answers 507, or 503 when the store is gone', async () => {
    // The input goes in; the worker's write of the finished workbook fails, and only the text of
    // its error reaches the asker through the render's row.
    for (const [error, expected] of [
      [enospc, { status: 507, key: 'storageFull' }],
      [econnrefused, { status: 503, key: 'fileStoreUnavailable' }],
    ] as const) {
      store.fail = { error, sparing: 'render-input.bin' };
      try {
        const r = await exportOrders(h, demo);
        expect({ status: r.status, key: r.body.key }).toEqual(expected);
      } finally {
        store.fail = null;
      }
    }
    expect((await exportOrders(h, demo)).status).toBe(200);
  }, 60_000);
});

describe('the database store on a full database', () => {
  const pg = !!process.env.TEST_DATABASE_URL;
  let h: Harness;
  let demo: string;
  let data: Buffer;
  beforeAll(async () => {
    h = await createHarness({ env: { FILE_STORE: 'database' } });
    demo = await h.login('demo');
    data = await fill(await template(h, demo, 'download/importOrder'), [baseRow(1)]);
  });
  afterAll(async () => {
    if (pg) await sql`drop function if exists full_disk() cascade`.execute(h.db);
  });
  /**
   * SQLite: the database at its page limit, really full. PostgreSQL: its own `disk_full` (53100),
   * raised by the table as a full volume would raise it on the blob's insert.
   */
  const fill_ = async () => {
    if (pg) {
      await sql`create or replace function full_disk() returns trigger language plpgsql as $$
        begin raise exception 'could not extend file: No space left on device' using errcode = 'disk_full'; end $$`.execute(
        h.db,
      );
      await sql`create trigger full_disk before insert on file_blobs for each row execute function full_disk()`.execute(
        h.db,
      );
    } else {
      const { rows } = await sql<{ page_count: number }>`pragma page_count`.execute(h.db);
      await sql.raw(`pragma max_page_count = ${rows[0]!.page_count}`).execute(h.db);
    }
  };
  const empty = async () => {
    if (pg) await sql`drop trigger full_disk on file_blobs`.execute(h.db);
    else await sql`pragma max_page_count = 1073741823`.execute(h.db);
  };

  it('an upload and an order export answer 507 in both languages; once there is room they work', async () => {
    await fill_();
    try {
      const up = await upload(
        h,
        'order/batch/createImport',
        demo,
        { channel: 'JP' },
        { name: 'o.xlsx', data },
        'zh-CN',
      );
      expect(up).toEqual({ status: 507, body: { code: 507, message: FULL.zh, key: 'storageFull', data: null } });
      expect(answer(await exportOrders(h, demo))).toEqual({ status: 507, key: 'storageFull', message: FULL.en });
    } finally {
      await empty();
    }
    expect(
      (await upload(h, 'order/batch/createImport', demo, { channel: 'JP' }, { name: 'o.xlsx', data })).status,
    ).toBe(200);
    expect((await exportOrders(h, demo)).status).toBe(200);
  }, 60_000);
});

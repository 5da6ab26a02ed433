import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.ts';
import { createFiles } from '../../src/lib/files.ts';
import { StoredFileMissing, type Storage } from '../../src/lib/storage.ts';
import { createStorage } from '../../src/lib/storage-config.ts';
import { createHarness, type Harness } from '../harness.ts';
import { s3Server } from './s3-server.ts';

/**
 * The files module over each store (issue 27): downloads stream from the store (never a whole
 * read), a customer's user opens only their own files, retention removes the bytes wherever they
 * are, and a save that fails half way leaves neither a row without bytes nor bytes without a row.
 */
let h: Harness;
let s3: Awaited<ReturnType<typeof s3Server>>;
let demo: string;
let demo2: string;
let demoUser: number;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-files-'));
const DAY = 86_400_000;
beforeAll(async () => {
  h = await createHarness({ env: { FILE_RETENTION_DAYS: '7' } });
  s3 = await s3Server();
  [demo, demo2] = await Promise.all([h.login('demo'), h.login('demo2')]);
  demoUser = (await h.db.selectFrom('users').select('id').where('name', '=', 'demo').executeTakeFirstOrThrow()).id;
});
afterAll(async () => {
  await s3.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const stores: Record<string, () => Storage> = {
  local: () => createStorage(testConfig({ DATA_DIR: dir }), h.db),
  database: () => createStorage(testConfig({ DATA_DIR: dir, FILE_STORE: 'database' }), h.db),
  s3: () => createStorage(testConfig({ DATA_DIR: dir, ...s3.env }), h.db),
};

/** The store, with whole reads refused: what is downloaded through it must come as a stream. */
function streamOnly(store: Storage) {
  const seen = { streams: 0 };
  const wrapped: Storage = {
    ...store,
    get: () => Promise.reject(new Error('a download read the whole file')),
    stream: (key) => (seen.streams++, store.stream(key)),
  };
  return { store: wrapped, seen };
}

const row = (over: Record<string, unknown> = {}) => ({
  customer_id: null,
  owner_user_id: demoUser,
  kind: 'labelPrintJob',
  name: 'labels.pdf',
  mime: 'application/pdf',
  created_at: new Date().toISOString(),
  temporary: 1 as const,
  ...over,
});

describe.each(Object.keys(stores))('files in the %s store', (name) => {
  it("streams a download from the store; another user's file reads as not found", async () => {
    const { store, seen } = streamOnly(stores[name]!());
    const app = await h.restarted({ storage: store });
    const data = Buffer.alloc(3 * 1024 * 1024, 0x25);
    data.write('%PDF-1.4', 0);
    // Written as a print job's PDF is: the bytes, then the row.
    const stored = await stores[name]!().put(data, 'labels.pdf');
    const { id } = await h.db
      .insertInto('files')
      .values({ ...row(), size: stored.size, sha256: stored.sha256, storage_key: stored.key })
      .returning('id')
      .executeTakeFirstOrThrow();
    const get = (token: string) =>
      app.inject({
        method: 'POST',
        url: '/api/file/downloadSteam',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'accept-language': 'en' },
        payload: JSON.stringify({ id }),
      });
    const r = await get(demo);
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('application/pdf');
    expect(r.rawPayload.equals(data)).toBe(true);
    expect(seen.streams).toBe(1);
    const other = await get(demo2);
    expect(other.statusCode).toBe(404);
    expect(other.json().message).not.toContain(stored.key);
  });

  it('retention removes the bytes in the store and marks the row; a late download says expired', async () => {
    const store = stores[name]!();
    const files = createFiles(h.db, store);
    const now = new Date();
    const old = await files.save({
      ...row({ created_at: new Date(now.getTime() - 8 * DAY).toISOString() }),
      data: Buffer.from('old'),
    });
    const fresh = await files.save({
      ...row({ created_at: new Date(now.getTime() - 1 * DAY).toISOString() }),
      data: Buffer.from('new'),
    });
    const keyOf = (id: number) =>
      h.db.selectFrom('files').select(['storage_key', 'expired_at']).where('id', '=', id).executeTakeFirstOrThrow();
    const [o, f] = await Promise.all([keyOf(old), keyOf(fresh)]);
    expect(await files.sweep(now, 7)).toBeGreaterThanOrEqual(1);
    await expect(store.get(o.storage_key)).rejects.toBeInstanceOf(StoredFileMissing);
    expect((await keyOf(old)).expired_at).not.toBeNull();
    expect((await store.get(f.storage_key)).toString()).toBe('new');
    expect((await keyOf(fresh)).expired_at).toBeNull();
    const app = await h.restarted({ storage: store });
    const late = await app.inject({
      method: 'POST',
      url: '/api/file/downloadSteam',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${demo}`, 'accept-language': 'en' },
      payload: JSON.stringify({ id: old }),
    });
    expect(late.statusCode).toBe(404);
    expect(late.json().message).toBe(
      'This file has expired: files made for download are kept for 7 day(s). Make it again.',
    );
  });

  it('a row that cannot be inserted leaves no bytes; bytes that cannot be written leave no row', async () => {
    const real = stores[name]!();
    const written: string[] = [];
    const files = createFiles(h.db, {
      ...real,
      put: async (data, hint, sha) => {
        const s = await real.put(data, hint, sha);
        written.push(s.key);
        return s;
      },
    });
    const rows = async () =>
      Number(
        (
          await h.db
            .selectFrom('files')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await rows();
    // No such user: the row's foreign key refuses it after the bytes were written.
    await expect(files.save({ ...row({ owner_user_id: 999_999 }), data: Buffer.from('orphan') })).rejects.toThrow();
    expect(written).toHaveLength(1);
    await expect(real.get(written[0]!)).rejects.toBeInstanceOf(StoredFileMissing);
    expect(await rows()).toBe(before);

    const failing = createFiles(h.db, { ...real, put: () => Promise.reject(new Error('disk full')) });
    // The store's own error is the cause; the caller gets the class a user is answered with.
    await expect(failing.save({ ...row(), data: Buffer.from('never') })).rejects.toMatchObject({
      code: 503,
      key: 'fileStoreUnavailable',
      cause: { message: 'disk full' },
    });
    expect(await rows()).toBe(before);
  });
});

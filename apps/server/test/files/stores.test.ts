import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.ts';
import { createFiles, ORPHAN_GRACE_HOURS } from '../../src/lib/files.ts';
import { StoredFileMissing, type Storage } from '../../src/lib/storage.ts';
import { createStorage } from '../../src/lib/storage-config.ts';
import { DATABASE_STREAM_CHUNK } from '../../src/lib/storage-database.ts';
import { createHarness, type Harness } from '../harness.ts';
import { s3Server } from './s3-server.ts';

/** The three file stores keep one contract (issue 27): what one writes it gives back, and nothing else. */
let h: Harness;
let s3: Awaited<ReturnType<typeof s3Server>>;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-stores-'));
beforeAll(async () => {
  h = await createHarness({ seed: false });
  s3 = await s3Server();
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

describe.each(Object.keys(stores))('the %s store', (name) => {
  it('the file sweep removes bytes no record names once past the grace, and keeps the named ones', async () => {
    const store = stores[name]!();
    const files = createFiles(h.db, store);
    // An upload whose transaction failed on a path that did not discard its bytes.
    const orphan = await files.write(Buffer.from('orphan'), 'permit.pdf');
    const named = await files.write(Buffer.from('named'), 'permit.pdf');
    await files.record(named, {
      customer_id: null,
      owner_user_id: null,
      kind: 'exportPermit',
      name: 'permit.pdf',
      mime: 'application/pdf',
      created_at: new Date().toISOString(),
    });
    // Within the grace both stay: a write may be on its way to its record.
    await files.sweep(new Date(), 30);
    expect((await store.get(orphan.key)).toString()).toBe('orphan');
    await files.sweep(new Date(Date.now() + (ORPHAN_GRACE_HOURS + 1) * 3_600_000), 30);
    await expect(store.get(orphan.key)).rejects.toBeInstanceOf(StoredFileMissing);
    expect((await store.get(named.key)).toString()).toBe('named');
    await store.remove(named.key); // the cases below count what the store holds
  });

  it('gives back the bytes it was given, under a new key each time, with size and hash', async () => {
    const store = stores[name]!();
    const data = Buffer.from([0, 1, 2, 255, 0x25, 0x50, 0x44, 0x46]);
    const a = await store.put(data, 'label.pdf');
    const b = await store.put(data, 'label.pdf');
    expect(a.key).not.toBe(b.key);
    expect(a.key).toMatch(/^\d{4}-\d{2}-\d{2}\/[0-9a-f-]{36}\.pdf$/);
    expect(a.size).toBe(8);
    expect(a.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect((await store.get(a.key)).equals(data)).toBe(true);
    // Another store object with the same settings (another instance) reads it too.
    expect((await stores[name]!().get(a.key)).equals(data)).toBe(true);
    await store.remove(a.key);
    await expect(store.get(a.key)).rejects.toBeInstanceOf(StoredFileMissing);
    expect((await store.get(b.key)).equals(data)).toBe(true);
    await store.remove(b.key);
  });
  it('a missing key is StoredFileMissing; removing it again is no error', async () => {
    const store = stores[name]!();
    await expect(store.get('2026-01-01/00000000-0000-0000-0000-000000000000.xlsx')).rejects.toBeInstanceOf(
      StoredFileMissing,
    );
    await expect(store.remove('2026-01-01/00000000-0000-0000-0000-000000000000.xlsx')).resolves.toBeUndefined();
  });
  it('answers the readiness check, and leaves nothing behind', async () => {
    await expect(stores[name]!().check()).resolves.toBeUndefined();
    if (name === 'database') expect(await h.db.selectFrom('file_blobs').select('key').execute()).toEqual([]);
  });
  it('holds a file of several MiB', async () => {
    const store = stores[name]!();
    const big = Buffer.alloc(6 * 1024 * 1024, 7);
    const { key, size } = await store.put(big, 'export.xlsx');
    expect(size).toBe(big.length);
    expect((await store.get(key)).equals(big)).toBe(true);
    await store.remove(key);
  });
  it('streams a file of several MiB in pieces, and a missing key rejects before any byte', async () => {
    const store = stores[name]!();
    // Bytes that differ along the file, so a piece out of place or twice shows.
    const big = Buffer.alloc(3 * 1024 * 1024 + 17);
    for (let i = 0; i < big.length; i++) big[i] = (i * 31 + (i >> 12)) & 0xff;
    const { key } = await store.put(big, 'export.xlsx');
    const { body, size } = await store.stream(key);
    expect(size).toBe(big.length);
    const pieces: Buffer[] = [];
    for await (const piece of body) pieces.push(piece as Buffer);
    expect(Buffer.concat(pieces).equals(big)).toBe(true);
    if (name !== 'database' || process.env.TEST_DATABASE_URL) expect(pieces.length).toBeGreaterThan(1);
    // On PostgreSQL the database store never holds more than one piece of the blob (substr reads);
    // on SQLite it reads the blob once (storage-database.ts says why).
    if (name === 'database' && process.env.TEST_DATABASE_URL)
      expect(Math.max(...pieces.map((p) => p.length))).toBeLessThanOrEqual(DATABASE_STREAM_CHUNK);
    await store.remove(key);
    await expect(store.stream(key)).rejects.toBeInstanceOf(StoredFileMissing);
  });
});

describe('choosing the store', () => {
  it('defaults to the folder on SQLite and the database on PostgreSQL; S3 needs its bucket', () => {
    expect(testConfig({}).fileStore).toBe('local');
    expect(testConfig({ DATABASE_URL: 'postgres://x@127.0.0.1/db' }).fileStore).toBe('database');
    expect(() => testConfig({ FILE_STORE: 's3' })).toThrow(/S3_BUCKET: required with FILE_STORE=s3/);
    expect(() => testConfig({ FILE_STORE: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k' })).toThrow(
      /set both or neither/,
    );
    expect(() => testConfig({ FILE_STORE: 'ftp' })).toThrow(/FILE_STORE/);
  });
});

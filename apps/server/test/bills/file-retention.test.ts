import { beforeAll, describe, expect, it } from 'vitest';
import { createFiles } from '../../src/lib/files.ts';
import { saveGeneratedFile } from '../../src/lib/generated-files.ts';
import { createHarness, type Harness } from '../harness.ts';

/**
 * File retention (issue 17): generated files and refused-upload workbooks lose their bytes after
 * FILE_RETENTION_DAYS (the cleanup function, tested directly; the server runs it on an interval);
 * a download of an expired file is a 404 that says so in both languages; other files stay.
 */
let h: Harness;
let demo: string;
let demo2: string;
let demoUser: number;
const DAY = 86_400_000;

beforeAll(async () => {
  h = await createHarness({ env: { FILE_RETENTION_DAYS: '3' } });
  [demo, demo2] = await Promise.all([h.login('demo'), h.login('demo2')]);
  demoUser = (await h.db.selectFrom('users').select('id').where('name', '=', 'demo').executeTakeFirstOrThrow()).id;
});

const storage = () => h.storage;
const download = (id: number, token: string, lang = 'en') =>
  h.post('file/downloadSteam', { id }, token, { 'accept-language': lang });
const saved = (at: Date, kind = 'labelPrintJob') =>
  saveGeneratedFile(h.db, createFiles(h.db, storage()), {
    kind,
    name: 'labels.pdf',
    mime: 'application/pdf',
    customerId: null,
    ownerUserId: demoUser,
    data: Buffer.from('%PDF-1.4 test'),
    at: at.toISOString(),
  });
const keyOf = async (id: number) =>
  await h.db.selectFrom('files').select(['storage_key', 'expired_at']).where('id', '=', id).executeTakeFirstOrThrow();

describe('file retention', () => {
  it('expires temporary files past the retention, keeps newer and permanent ones, and says so on download', async () => {
    const now = new Date();
    const old = await saved(new Date(now.getTime() - 4 * DAY));
    const fresh = await saved(new Date(now.getTime() - 2 * DAY));
    // An upload a record still names (an ID card's side), older than the expired one, stays
    // (uploads have rules of their own: test/files/retention.test.ts).
    const stored = await storage().put(Buffer.from('upload'), 'u.jpg');
    const customerId = (
      await h.db.selectFrom('users').select('customer_id').where('id', '=', demoUser).executeTakeFirstOrThrow()
    ).customer_id!;
    const upload = (
      await h.db
        .insertInto('files')
        .values({
          customer_id: customerId,
          owner_user_id: demoUser,
          kind: 'idCard',
          name: 'u.jpg',
          mime: 'image/jpeg',
          size: stored.size,
          sha256: stored.sha256,
          storage_key: stored.key,
          created_at: new Date(now.getTime() - 30 * DAY).toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    await h.db
      .insertInto('id_cards')
      .values({
        customer_id: customerId,
        order_id: null,
        name: 'Kept',
        id_card: '110105199001017771',
        front_file_id: upload,
        back_file_id: null,
        created_by: demoUser,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      })
      .execute();
    // A refused-upload workbook written by an import module itself (kind only, no flag).
    const refused = await storage().put(Buffer.from('errors'), 'e.xlsx');
    const errors = (
      await h.db
        .insertInto('files')
        .values({
          customer_id: null,
          owner_user_id: demoUser,
          kind: 'batchErrors',
          name: 'e.xlsx',
          mime: 'application/octet-stream',
          size: refused.size,
          sha256: refused.sha256,
          storage_key: refused.key,
          created_at: new Date(now.getTime() - 5 * DAY).toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;

    expect((await download(old, demo)).status).toBe(200);
    // Two sweeps at once (two instances): each file is expired once.
    const counts = await Promise.all([1, 2].map(() => createFiles(h.db, storage()).sweep(now, 3)));
    expect(counts[0]! + counts[1]!).toBeGreaterThanOrEqual(2);
    expect((await keyOf(old)).expired_at).not.toBeNull();
    expect((await keyOf(errors)).expired_at).not.toBeNull();
    expect((await keyOf(fresh)).expired_at).toBeNull();
    expect((await keyOf(upload)).expired_at).toBeNull();
    expect(await h.stored((await keyOf(old)).storage_key)).toBe(false);
    expect(await h.stored((await keyOf(errors)).storage_key)).toBe(false);
    expect(await h.stored(stored.key)).toBe(true);

    const en = await download(old, demo);
    expect(en.status).toBe(404);
    expect(en.body.message).toBe(
      'This file has expired: files made for download are kept for 3 day(s). Make it again.',
    );
    const zh = await download(old, demo, 'zh-CN');
    expect(zh.status).toBe(404);
    expect(zh.body.message).toBe('该文件已过期：生成的下载文件只保留 3 天，请重新生成。');
    // Another user still learns nothing about the file (not found, not "expired").
    const other = await download(old, demo2);
    expect(other.status).toBe(404);
    expect(other.body.message).not.toMatch(/expired/);
    expect((await download(fresh, demo)).status).toBe(200);
    // A second sweep finds nothing more.
    expect(await createFiles(h.db, storage()).sweep(now, 3)).toBe(0);
  });
});

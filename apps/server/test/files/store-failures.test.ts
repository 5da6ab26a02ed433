import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseRow, download, fill, settle, template, upload } from '../batches/helpers.ts';
import { createHarness, type Harness } from '../harness.ts';
import { s3Server } from './s3-server.ts';

/**
 * Issue 36, item 7: a file store that fails answered 500 `internal` (S3 unreachable: an upload and
 * an export; a full disk: the order export, whose "render failed: workbook job failed: ENOSPC" was
 * no longer classified), while `/api/ready` rightly said `fileStoreUnwritable`. Every read and
 * write of the store goes through the files module (test/files/structure.test.ts), which answers a
 * store out of reach with 503 `fileStoreUnavailable` and a full one with 507 `storageFull`: here
 * an upload, an export (its render's input and file go through the store) and a download, per
 * store — the folder (made a file, so nothing under it opens), the database's `file_blobs` table
 * (renamed away) and an S3-compatible bucket (s3rver, the one faked boundary, stopped).
 * The full disk per store is in store-full.test.ts.
 */
const UNAVAILABLE = {
  en: 'The file store cannot be reached right now; nothing was changed. Please try again in a moment, or tell the administrator if it goes on.',
  zh: '文件存储暂时无法访问，未做任何更改。请稍后重试；如持续出现，请联系管理员。',
};

type Outage = { begin(): Promise<void>; end(): Promise<void> };

const count = async (h: Harness, t: 'batches' | 'files') =>
  Number(
    (
      await h.db
        .selectFrom(t)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe.each(['local', 'database', 's3'] as const)('the %s file store out of reach', (store) => {
  let h: Harness;
  let demo: string;
  let sheet: Buffer;
  let errorsBatch: number;
  let s3: Awaited<ReturnType<typeof s3Server>> | undefined;
  let outage: Outage;

  beforeAll(async () => {
    s3 = store === 's3' ? await s3Server() : undefined;
    h = await createHarness({ env: { JOB_POLL_SECONDS: '0.5', ...(s3?.env ?? { FILE_STORE: store }) } });
    demo = await h.login('demo');
    const tpl = await template(h, demo, 'download/importOrder');
    sheet = await fill(tpl, [baseRow(1, { orderNo: `SF-${store}-1` })]);
    // A stored file to download while the store is away: a batch's error workbook.
    const bad = await fill(tpl, [baseRow(2, { orderNo: `SF-${store}-2`, recipientPhone: 'not a phone' })]);
    const up = await upload(h, 'order/batch/createImport', demo, { channel: 'JP' }, { name: 'bad.xlsx', data: bad });
    errorsBatch = up.body.data.id;
    expect(await settle(h, demo, errorsBatch)).toMatchObject({ hasErrorWorkbook: true });
    const folder = path.join(h.dataDir, 'files');
    outage =
      store === 's3'
        ? { begin: () => s3!.stop(), end: () => s3!.start() }
        : store === 'database'
          ? {
              begin: async () => void (await sql`alter table file_blobs rename to file_blobs_away`.execute(h.db)),
              end: async () => void (await sql`alter table file_blobs_away rename to file_blobs`.execute(h.db)),
            }
          : {
              // The folder replaced by a file: every write and read under it fails (ENOTDIR), as a
              // lost mount or a volume gone read-only would fail them.
              begin: async () => {
                fs.renameSync(folder, `${folder}.away`);
                fs.writeFileSync(folder, 'not a folder');
              },
              end: async () => {
                fs.rmSync(folder, { force: true });
                fs.renameSync(`${folder}.away`, folder);
              },
            };
  });
  afterAll(async () => {
    await s3?.close();
  });

  it('an upload, an export and a download answer 503 fileStoreUnavailable; readiness says why; nothing is left', async () => {
    const before = { batches: await count(h, 'batches'), files: await count(h, 'files') };
    await outage.begin();
    try {
      for (const [lang, words] of [
        ['en', UNAVAILABLE.en],
        ['zh-CN', UNAVAILABLE.zh],
      ] as const) {
        const up = await upload(
          h,
          'order/batch/createImport',
          demo,
          { channel: 'JP' },
          { name: 'o.xlsx', data: sheet },
          lang,
        );
        expect(up).toEqual({
          status: 503,
          body: { code: 503, message: words, key: 'fileStoreUnavailable', data: null },
        });
        const exported = await h.post('order/downloadOrderExcel', { sort: 'createdAt', order: 'desc' }, demo, {
          'accept-language': lang,
        });
        expect({ status: exported.status, key: exported.body.key, message: exported.body.message }).toEqual({
          status: 503,
          key: 'fileStoreUnavailable',
          message: words,
        });
      }
      const got = await download(h, 'order/batch/download/errors', demo, { id: errorsBatch });
      expect(got.status).toBe(503);
      expect(JSON.parse(got.data.toString()).key).toBe('fileStoreUnavailable');
      const ready = await h.app.inject({ method: 'GET', url: '/api/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json().data.reason).toBe('fileStoreUnwritable');
      expect({ batches: await count(h, 'batches'), files: await count(h, 'files') }).toEqual(before);
    } finally {
      await outage.end();
    }
    // Back: the same calls work again.
    const up = await upload(h, 'order/batch/createImport', demo, { channel: 'JP' }, { name: 'o.xlsx', data: sheet });
    expect(up.status).toBe(200);
    const exported = await download(h, 'order/downloadOrderExcel', demo, { sort: 'createdAt', order: 'desc' });
    expect(exported.status).toBe(200);
    expect((await download(h, 'order/batch/download/errors', demo, { id: errorsBatch })).status).toBe(200);
    // A dozen calls and three renders, on two shared cores.
  }, 120_000);
});

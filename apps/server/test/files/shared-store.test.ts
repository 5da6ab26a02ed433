import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.ts';
import { createFiles } from '../../src/lib/files.ts';
import { createStorage } from '../../src/lib/storage-config.ts';
import { baseRow, fill, template, upload } from '../batches/helpers.ts';
import { createHarness, type Harness, secondInstance } from '../harness.ts';
import { s3Server } from './s3-server.ts';

/**
 * Issue 27, breakages 1, 2 and 4: two instances on one database, each with its own data folder
 * as two machines have. With the files in a shared store (the database, FILE_STORE's default on
 * PostgreSQL, or an S3-compatible bucket) a preview made on A is confirmed on B, a workbook made
 * on A downloads through B, and B's retention sweep removes A's bytes. Each store runs on this
 * file's database (SQLite or PostgreSQL); S3 is a local S3-compatible server (s3rver), the one
 * boundary faked.
 */
const en = { 'accept-language': 'en' };

const pg = !!process.env.TEST_DATABASE_URL;
/**
 * Several instances share one PostgreSQL; the embedded SQLite is one process. On SQLite the bucket
 * case still runs (B answering, A working), since a bucket is reached the same way from anywhere;
 * the database store is tested on SQLite by stores.test.ts, one instance.
 */
const cases = pg ? (['database', 's3'] as const) : (['s3'] as const);

describe.each(cases)('files in the %s store, two instances', (store) => {
  let h: Harness;
  let b: FastifyInstance;
  let bDir: string;
  let demo: string;
  let s3: Awaited<ReturnType<typeof s3Server>> | undefined;

  beforeAll(async () => {
    s3 = store === 's3' ? await s3Server() : undefined;
    const env = s3?.env ?? { FILE_STORE: 'database' };
    h = await createHarness({ now: new Date('2026-11-21T03:00:00Z'), env });
    // B: the same database, its own data folder and module graph, its store built from the same
    // settings. On SQLite (one process is the embedded default) B only answers calls and A runs
    // the jobs; on PostgreSQL either may run them.
    const second = await secondInstance(h, { env: pg ? env : { ...env, SERVER_ROLE: 'web' } });
    b = second.app;
    bDir = second.dataDir;
    demo = await h.login('demo');
  });
  afterAll(async () => {
    await s3?.close();
  });

  async function onB(p: string, body: unknown) {
    const r = await b.inject({
      method: 'POST',
      url: `/api/${p}`,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${demo}`, ...en },
      payload: JSON.stringify(body),
    });
    return {
      status: r.statusCode,
      body: r.headers['content-type']?.includes('json') ? r.json() : null,
      raw: r.rawPayload,
    };
  }
  async function settleOnB(id: number) {
    for (let i = 0; i < 600; i++) {
      const r = await onB('order/batch/progress', { id });
      if (!['parsing', 'committing'].includes(r.body.data.status)) return r.body.data;
      await new Promise((res) => setTimeout(res, 25));
    }
    throw new Error('batch did not settle');
  }

  async function previewOnA(rows: ReturnType<typeof baseRow>[]) {
    const tpl = await template(h, demo, 'download/importOrder');
    const up = await upload(
      h,
      'order/batch/createImport',
      demo,
      { channel: 'JP' },
      { name: 'o.xlsx', data: await fill(tpl, rows) },
    );
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    return up.body.data.id as number;
  }

  it('a preview made on A is confirmed on B, which keeps no file of its own', async () => {
    const id = await previewOnA(Array.from({ length: 3 }, (_, i) => baseRow(i + 1, { orderNo: `SS-${store}-${i}` })));
    expect(await settleOnB(id)).toMatchObject({ status: 'preview', invalidRows: 0, orderCount: 3 });
    const confirm = await onB('order/batch/confirm', { id, confirmations: [] });
    expect(confirm.status, JSON.stringify(confirm.body)).toBe(200);
    expect(await settleOnB(id)).toMatchObject({ status: 'done', orderCount: 3 });
    const made = await h.db.selectFrom('orders').select('order_no').where('batch_id', '=', id).execute();
    expect(made.map((o) => o.order_no).sort()).toEqual([0, 1, 2].map((i) => `SS-${store}-${i}`));
    // The parsed preview's bytes went with the commit, wherever they were.
    const batch = await h.db.selectFrom('batches').select('parsed_key').where('id', '=', id).executeTakeFirstOrThrow();
    expect(batch.parsed_key).toBeNull();
    expect(fs.existsSync(path.join(bDir, 'files'))).toBe(false);
  });

  it('an error workbook made on A downloads through B', async () => {
    const id = await previewOnA([baseRow(1, { orderNo: `SE-${store}-1`, recipientPhone: 'not a phone' })]);
    expect(await settleOnB(id)).toMatchObject({ invalidRows: 1, hasErrorWorkbook: true });
    const errors = await onB('order/batch/download/errors', { id });
    expect(errors.status).toBe(200);
    expect(errors.raw.subarray(0, 2).toString()).toBe('PK');
    expect(fs.existsSync(path.join(bDir, 'files'))).toBe(false);
  });

  it("B's retention sweep removes the bytes of a file A made", async () => {
    const demoUser = (await h.db.selectFrom('users').select('id').where('name', '=', 'demo').executeTakeFirstOrThrow())
      .id;
    const { key } = await h.storage.put(Buffer.from('%PDF-1.4 old'), 'old.pdf');
    const row = await h.db
      .insertInto('files')
      .values({
        customer_id: null,
        owner_user_id: demoUser,
        kind: 'labelPrintJob',
        name: 'old.pdf',
        mime: 'application/pdf',
        size: 12,
        sha256: 'x',
        storage_key: key,
        created_at: '2026-01-01T00:00:00.000Z',
        temporary: 1,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const bStore = createStorage(testConfig({ ...(s3?.env ?? { FILE_STORE: 'database' }), DATA_DIR: bDir }), h.db);
    expect(await createFiles(h.db, bStore).sweep(new Date('2026-11-21T03:00:00Z'), 7)).toBeGreaterThanOrEqual(1);
    expect(await h.stored(key)).toBe(false);
    const f = await h.db.selectFrom('files').select('expired_at').where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(f.expired_at).not.toBeNull();
  });
});

import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type Instance, secondInstance } from '../harness.ts';
import { baseRow, fill, settle, template, upload } from '../batches/helpers.ts';

/**
 * Issue 27: a batch previewed on one instance and confirmed on another (each with its own
 * DATA_DIR, as two machines have) failed, and the user read
 * `ENOENT: no such file or directory, open '/…/data/…'`. Shared file stores now keep that from
 * happening; when a stored file is missing all the same, the failure must say what happened in
 * the user's language, with no path or exception text; the internal text goes to the log only.
 */
let h: Harness;
/** Answers the calls of the other machine; runs no jobs (SERVER_ROLE=web). */
let other: Instance;
/** The instance that runs the parses, with this instance's folder. */
let parser: FastifyInstance;
let demo: string;
let tpl: Buffer;

beforeAll(async () => {
  // Each instance with a folder of its own (FILE_STORE=local): the shared stores make this work
  // (test/files/shared-store.test.ts); what is tested here is a stored file that is not there.
  h = await createHarness({ env: { FILE_STORE: 'local' } });
  other = await secondInstance(h, { env: { FILE_STORE: 'local', SERVER_ROLE: 'web' } });
  parser = h.app;
  demo = await h.login('demo');
  tpl = await template(h, demo, 'download/importOrder');
});

let serial = 0;
async function previewHere() {
  const prefix = `PE${++serial}`;
  const rows = Array.from({ length: 5 }, (_, i) => baseRow(i + 1, { orderNo: `${prefix}-${i}` }));
  const up = await upload(
    h,
    'order/batch/createImport',
    demo,
    { channel: 'JP' },
    { name: 'o.xlsx', data: await fill(tpl, rows) },
  );
  expect(up.status, JSON.stringify(up.body)).toBe(200);
  const p = await settle(h, demo, up.body.data.id);
  expect(p).toMatchObject({ status: 'preview', orderCount: 5 });
  return p.id as number;
}
async function onOther(path: string, body: unknown, lang: string) {
  const r = await other.app.inject({
    method: 'POST',
    url: `/api/${path}`,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${demo}`, 'accept-language': lang },
    payload: JSON.stringify(body),
  });
  return { status: r.statusCode, body: r.json() };
}
async function settleOnOther(id: number, lang: string) {
  for (let i = 0; i < 1000; i++) {
    const r = await onOther('order/batch/progress', { id }, lang);
    if (!['parsing', 'committing'].includes(r.body.data.status)) return r.body.data;
    await new Promise((res) => setTimeout(res, 20));
  }
  throw new Error('batch did not settle');
}

describe('a preview confirmed on another instance', () => {
  for (const [lang, text] of [
    [
      'en',
      'Creation Failed: the uploaded file is no longer available on the server; please upload it again. Nothing was written.',
    ],
    ['zh-CN', '创建失败：上传的文件在服务器上已不存在，请重新上传。未写入任何订单。'],
  ] as const) {
    it(`fails with a clean message (${lang}), no path or exception text`, async () => {
      const id = await previewHere();
      // Parse and commit are queue jobs, run by any worker: the commit is made to run on a
      // machine with a folder of its own (the parser stops taking jobs; it is back for the next).
      await parser.jobs.stop();
      const committer = await secondInstance(h, { env: { FILE_STORE: 'local' } });
      const c = await onOther('order/batch/confirm', { id, confirmations: [] }, lang);
      expect(c.status, JSON.stringify(c.body)).toBe(200);
      const done = await settleOnOther(id, lang);
      await committer.app.jobs.stop();
      parser = await h.restarted();
      expect(done.status).toBe('failed');
      expect(done.errorMessage).toBe(text);
      const stored = await h.db
        .selectFrom('batches')
        .select('error_message')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      for (const shown of [done.errorMessage, stored.error_message, JSON.stringify(done)]) {
        expect(shown).not.toMatch(/ENOENT|no such file|\/tmp|console-test|\.parsed|errno/i);
        expect(shown).not.toContain(h.dataDir);
        expect(shown).not.toContain(other.dataDir);
        expect(shown).not.toContain(committer.dataDir);
      }
      // Nothing was written.
      const n = await h.db.selectFrom('orders').select('id').where('batch_id', '=', id).execute();
      expect(n).toEqual([]);
    });
  }
});

import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Storage } from '../src/lib/storage.ts';
import { createHarness, type Harness, secondInstance } from './harness.ts';
import { waitFor } from './support/jobs.ts';

/**
 * Issue 38 item 6, "downloads never wait on HTTP": a download asked for with
 * `Prefer: respond-async` is answered 202 with its id at once, however long its render takes;
 * `export/progress` follows it, and `export/file` answers the finished file from any instance, to
 * the user who asked only. Without the header the call answers the file as it always has.
 * Both instances share one file store (FILE_STORE=database, the several-instance setup).
 */
let h: Harness;
let b: FastifyInstance;
let demo: string;
let demo2: string;

/** Render inputs held at the store while `held.gate` is shut: a render that cannot finish. */
const held = { gate: null as Promise<void> | null, open: () => {}, waiting: 0 };
const shut = () => {
  held.gate = new Promise<void>((r) => (held.open = r));
};
const open = () => {
  held.gate = null;
  held.open();
};
const holding = (store: Storage): Storage => ({
  ...store,
  put: async (data, hint, sha256) => {
    if (held.gate && hint === 'render-input.bin') {
      held.waiting++;
      await held.gate;
    }
    return store.put(data, hint, sha256);
  },
});

const ASYNC = { prefer: 'respond-async' };
const json = { 'content-type': 'application/json' };

beforeAll(async () => {
  h = await createHarness({ env: { FILE_STORE: 'database' }, wrapStorage: holding });
  b = (await secondInstance(h, { env: { FILE_STORE: 'database' } })).app;
  [demo, demo2] = await Promise.all([h.login('demo'), h.login('demo2')]);
}, 120_000);

const on = (app: FastifyInstance, url: string, body: unknown, token: string, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url: `/api/${url}`,
    headers: { ...json, authorization: `Bearer ${token}`, ...headers },
    payload: JSON.stringify(body),
  });
const progressOf = async (id: string, token = demo) =>
  (await h.post('export/progress', { id }, token)).body.data as { phase: string; rows: number; total: number | null };

describe('downloads asked for without waiting', () => {
  it('202 with the id at once while the render is held; the file then comes from the other instance, to its user only', async () => {
    shut();
    try {
      const res = await on(h.app, 'order/downloadOrderExcel', { progressId: 'async-0001' }, demo, ASYNC);
      expect(res.statusCode).toBe(202);
      expect(res.headers['preference-applied']).toBe('respond-async');
      expect(res.json()).toMatchObject({ code: 202, data: { id: 'async-0001' } });
      // Answered while its render is still held at the store, not after.
      await waitFor('the render held', () => held.waiting === 1);
      expect(['waiting', 'writing']).toContain((await progressOf('async-0001')).phase);
      const early = await on(b, 'export/file', { id: 'async-0001' }, demo, { 'accept-language': 'en' });
      expect(early.statusCode).toBe(409);
      expect(early.json().key).toBe('downloadNotReady');
    } finally {
      open();
    }
    await waitFor('the download done', async () => (await progressOf('async-0001')).phase === 'done');
    const done = await progressOf('async-0001');
    expect(done.total).toBeGreaterThan(0);

    // Another user's fetch finds nothing, and takes nothing away.
    const other = await on(b, 'export/file', { id: 'async-0001' }, demo2);
    expect(other.statusCode).toBe(404);

    const file = await on(b, 'export/file', { id: 'async-0001' }, demo);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('spreadsheetml');
    expect(String(file.headers['content-disposition'])).toMatch(/filename\*=UTF-8''.+\.xlsx/);
    expect(file.rawPayload.subarray(0, 2).toString()).toBe('PK');
    // The file was for that one answer: gone from the store and the table.
    const again = await on(h.app, 'export/file', { id: 'async-0001' }, demo);
    expect(again.statusCode).toBe(404);
    await waitFor('the stored file removed', async () => {
      const n = await h.db
        .selectFrom('export_downloads')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      return Number(n.n) === 0;
    });
  }, 60_000);

  it('a call that names no progressId gets an id of the server’s', async () => {
    const res = await on(h.app, 'order/batch/download/excelByTime', { period: 'lastThreeMonths' }, demo, ASYNC);
    expect(res.statusCode).toBe(202);
    const { id } = res.json().data as { id: string };
    expect(id).toMatch(/^dl-[0-9a-f]{32}$/);
    await waitFor('the download done', async () => (await progressOf(id)).phase === 'done');
    const file = await on(b, 'export/file', { id }, demo);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.subarray(0, 2).toString()).toBe('PK');
  }, 60_000);

  it('a failed download answers, when fetched, what the call would have, in the fetcher’s language', async () => {
    const body = { id: 999_999, progressId: 'async-fail-01' };
    const sync = await on(h.app, 'order/batch/download/excel', body, demo, { 'accept-language': 'zh-CN' });
    expect(sync.statusCode).toBe(404);

    const res = await on(h.app, 'order/batch/download/excel', body, demo, ASYNC);
    expect(res.statusCode).toBe(202);
    await waitFor('the download failed', async () => (await progressOf('async-fail-01')).phase === 'failed');
    const file = await on(b, 'export/file', { id: 'async-fail-01' }, demo, { 'accept-language': 'zh-CN' });
    expect(file.statusCode).toBe(404);
    expect(file.json()).toEqual(sync.json());
  }, 60_000);

  it('without the header the call answers the file itself, as before, and keeps nothing', async () => {
    const res = await on(h.app, 'order/downloadOrderExcel', { progressId: 'sync-0001' }, demo);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(String(res.headers['content-disposition'])).toMatch(/filename\*=UTF-8''.+\.xlsx/);
    expect(res.rawPayload.subarray(0, 2).toString()).toBe('PK');
    expect((await progressOf('sync-0001')).phase).toBe('done');
    const kept = await h.db.selectFrom('export_downloads').select('id').where('id', '=', 'sync-0001').execute();
    expect(kept).toEqual([]);
    expect((await on(h.app, 'export/file', { id: 'sync-0001' }, demo)).statusCode).toBe(404);
  }, 60_000);
});

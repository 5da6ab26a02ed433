import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Storage } from '../src/lib/storage.ts';
import { DOWNLOAD_SWEEP } from '../src/modules/export-jobs/export-downloads.ts';
import { createHarness, type Harness, secondInstance } from './harness.ts';
import { waitFor } from './support/jobs.ts';

/**
 * Issue 38 item 6, "downloads never wait on HTTP": a download asked for with
 * `Prefer: respond-async` is answered 202 with its id at once, however long its render takes;
 * `export/progress` follows it, and `export/file` answers the finished file from any instance, to
 * the user who asked only. Without the header the call answers the file as it always has.
 * Both instances share one file store (FILE_STORE=database, the several-instance setup).
 * A download whose builder is gone (its instance killed or redeployed mid-build) ends as failed
 * once its beat is older than 4 beats: here a beat every 0.5 s, so 2 s.
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
const ENV = { FILE_STORE: 'database', DOWNLOAD_HEARTBEAT_SECONDS: '0.5' };
const json = { 'content-type': 'application/json' };

beforeAll(async () => {
  h = await createHarness({ env: ENV, wrapStorage: holding });
  b = (await secondInstance(h, { env: ENV })).app;
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

describe('a download whose builder is gone', () => {
  const INTERRUPTED_EN =
    'The server restarted while preparing this file, so it was not made. Please download it again.';
  const INTERRUPTED_ZH = '准备此文件时服务器重启了，文件未生成。请重新下载。';

  it('its instance stopped mid-build: another instance answers it failed, progress and file, within the bound', async () => {
    const c = await secondInstance(h, { env: ENV, wrapStorage: holding });
    held.waiting = 0;
    shut();
    try {
      const res = await on(c.app, 'order/downloadOrderExcel', { progressId: 'orphan-0001' }, demo, ASYNC);
      expect(res.statusCode).toBe(202);
      await waitFor('the render held', () => held.waiting === 1);
      // Its builder beats: past the bound since it started, still being made, from any instance.
      await waitFor('a beat past the bound', async () => {
        const r = await h.db
          .selectFrom('export_downloads')
          .select(['created_at', 'heartbeat_at'])
          .where('id', '=', 'orphan-0001')
          .executeTakeFirstOrThrow();
        return Date.parse(String(r.heartbeat_at)) - Date.parse(String(r.created_at)) > 2_500;
      });
      expect((await on(b, 'export/file', { id: 'orphan-0001' }, demo)).json().key).toBe('downloadNotReady');
      expect(['waiting', 'writing']).toContain((await progressOf('orphan-0001')).phase);
      // A kill: the instance writes nothing more (its database gone first, so its stop cannot fail
      // the build either), and its beats stop. The build itself stays held at the store.
      await c.db.destroy();
      await c.app.close();
      await waitFor('the download answered failed', async () => (await progressOf('orphan-0001')).phase === 'failed');
    } finally {
      open();
    }
    const file = await on(b, 'export/file', { id: 'orphan-0001' }, demo, { 'accept-language': 'en' });
    expect(file.statusCode).toBe(503);
    expect(file.json()).toMatchObject({ code: 503, key: 'downloadInterrupted', message: INTERRUPTED_EN });
  }, 60_000);

  it('its instance stops gracefully mid-build: the stop fails the download itself, not the beat’s bound', async () => {
    // A beat of a minute: the bound (4 min) cannot be what fails it here.
    const c = await secondInstance(h, { env: { ...ENV, DOWNLOAD_HEARTBEAT_SECONDS: '60' }, wrapStorage: holding });
    held.waiting = 0;
    shut();
    try {
      const res = await on(c.app, 'order/downloadOrderExcel', { progressId: 'stopped-0001' }, demo, ASYNC);
      expect(res.statusCode).toBe(202);
      await waitFor('the render held', () => held.waiting === 1);
      expect((await on(b, 'export/file', { id: 'stopped-0001' }, demo)).json().key).toBe('downloadNotReady');
      // A graceful stop (SIGTERM ends in app.close): once it has returned, the download is failed.
      await c.app.close();
      const row = await h.db
        .selectFrom('export_downloads')
        .select(['state', 'error'])
        .where('id', '=', 'stopped-0001')
        .executeTakeFirstOrThrow();
      expect(row.state).toBe('failed');
      expect(JSON.parse(String(row.error))).toMatchObject({ code: 503, key: 'downloadInterrupted' });
      expect((await progressOf('stopped-0001')).phase).toBe('failed');
    } finally {
      open();
    }
    const file = await on(b, 'export/file', { id: 'stopped-0001' }, demo, { 'accept-language': 'en' });
    expect(file.statusCode).toBe(503);
    expect(file.json()).toMatchObject({ code: 503, key: 'downloadInterrupted', message: INTERRUPTED_EN });
  }, 60_000);

  it('a row left running by a builder that stopped beating: export/file answers the failure at once, in the fetcher’s language; the sweep fails the others', async () => {
    const { id: userId } = await h.db
      .selectFrom('users')
      .select('id')
      .where('name', '=', 'demo')
      .executeTakeFirstOrThrow();
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    const row = (id: string, heartbeat: string | null) => ({
      user_id: userId,
      id,
      state: 'running',
      created_at: hourAgo,
      updated_at: hourAgo,
      heartbeat_at: heartbeat,
    });
    await h.db
      .insertInto('export_downloads')
      .values([row('orphan-aged-1', hourAgo), row('orphan-aged-2', hourAgo), row('orphan-nobeat', null)])
      .execute();
    const stateOf = async (id: string) =>
      (await h.db.selectFrom('export_downloads').select('state').where('id', '=', id).executeTakeFirst())?.state;

    const file = await on(b, 'export/file', { id: 'orphan-aged-1' }, demo, { 'accept-language': 'zh-CN' });
    expect(file.statusCode).toBe(503);
    expect(file.json()).toMatchObject({ code: 503, key: 'downloadInterrupted', message: INTERRUPTED_ZH });
    // A builder from before the beat never beat: not judged, left to the 8 h sweep.
    expect((await on(b, 'export/file', { id: 'orphan-nobeat' }, demo)).json().key).toBe('downloadNotReady');

    // Nobody looks at the other: the sweep fails it, and its progress says so.
    await h.app.jobs.tick(DOWNLOAD_SWEEP, new Date(Date.now() + 10 * 3_600_000));
    await waitFor('the sweep failed the orphan', async () => (await stateOf('orphan-aged-2')) === 'failed');
    expect((await progressOf('orphan-aged-2')).phase).toBe('failed');
    expect(await stateOf('orphan-nobeat')).toBe('running');
  }, 60_000);
});

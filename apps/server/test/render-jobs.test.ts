import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { asTenant } from '../src/lib/fair-turns.ts';
import { renderFile } from '../src/lib/workbook-job.ts';
import { RENDERER_ID } from '../src/modules/export-jobs/export-jobs.renders.ts';
import { createHarness, type Harness } from './harness.ts';
import { waitFor } from './support/jobs.ts';
import { renderStates, smallBesideHeavy } from './support/render-jobs.ts';
import { TEST_RENDERS } from './support/test-renders.ts';

/**
 * Issue 27: every file a download builds is a render job on the queue (lib/jobs.ts) — pg-boss on
 * PostgreSQL, the in-process runner on SQLite — fair per customer by the queue's own rule, and
 * the bytes come back through the file store, which keeps nothing once the answer is sent.
 */
let h: Harness;
let demo: string;
beforeAll(async () => {
  h = await createHarness({ env: { JOB_POLL_SECONDS: '0.5' } });
  demo = await h.login('demo');
});

/** Render jobs the queue has seen, whichever backend it is. */
async function renderJobsSeen(): Promise<number> {
  if (h.app.jobs.backend === 'memory') {
    const rows = await h.db.selectFrom('job_queue').select('kind').where('kind', 'like', 'render-%').execute();
    return rows.length;
  }
  const { rows } = await sql<{ n: string }>`select count(*) as n from pgboss.job where name like 'render-%'`.execute(
    h.db,
  );
  return Number(rows[0]!.n);
}

/** Objects in the file store: the folder's files on SQLite, the blobs on PostgreSQL. */
async function storedObjects(): Promise<number> {
  if (h.config.fileStore === 'database') {
    const r = await h.db
      .selectFrom('file_blobs')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirst();
    return Number(r!.n);
  }
  const root = path.join(h.dataDir, 'files');
  if (!fs.existsSync(root)) return 0;
  return fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
}

describe('renders on the job queue', () => {
  it('an order export is a render job; it downloads, and no row or stored object is left', async () => {
    const [before, objects] = [await renderJobsSeen(), await storedObjects()];
    const res = await h.post('order/downloadOrderExcel', { sort: 'createdAt', order: 'desc' }, demo);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(await renderJobsSeen()).toBe(before + 1);
    expect((await renderStates(h.db)).all).toEqual([]);
    expect(await storedObjects()).toBe(objects);
  });

  it("a small render of customer B answers while A's heavy renders hold the queue, A's one at a time", async () => {
    const objects = await storedObjects();
    const renderers = await smallBesideHeavy({ asTenant, renderFile }, h.db);
    expect(new Set(renderers)).toEqual(new Set([RENDERER_ID]));
    expect((await renderStates(h.db)).all).toEqual([]);
    expect(await storedObjects()).toBe(objects);
  });

  it("a small render answers while two customers' heavy renders hold every heavy slot", async () => {
    const renderers = await smallBesideHeavy({ asTenant, renderFile }, h.db, { alsoHeavy: 'c3' });
    expect(new Set(renderers)).toEqual(new Set([RENDERER_ID]));
    expect((await renderStates(h.db)).all).toEqual([]);
  });

  it('a render that fails answers the asker with the failure, and leaves no row or stored object', async () => {
    const objects = await storedObjects();
    const failing = { kind: TEST_RENDERS.failing };
    await expect(asTenant('c1', () => renderFile({ ...failing, arg: {} }, { ext: 'pdf', total: 1 }))).rejects.toThrow(
      /render failed/,
    );
    expect((await renderStates(h.db)).all).toEqual([]);
    expect(await storedObjects()).toBe(objects);
  });

  it("a file built inside a queue job is built there, in the job's turn, not queued behind it", async () => {
    // A print job is a customer's heavy job that draws a PDF: queued again as that customer's
    // heavy render, it would wait for the job that waits for it.
    const SLEEP = { kind: TEST_RENDERS.sleep };
    const done: string[] = [];
    h.app.jobs.unchecked.define<{ n: number }>({
      name: 'test-render-inside-job',
      run: async () => {
        const file = await asTenant('c1', () => renderFile({ ...SLEEP, arg: { ms: 10 } }, { ext: 'pdf', total: 6000 }));
        done.push(fs.readFileSync(file, 'utf8'));
        fs.rmSync(file, { force: true });
      },
    });
    const before = await renderJobsSeen();
    await h.app.jobs.unchecked.enqueue('test-render-inside-job', { n: 1 }, { customerId: 1, size: 'heavy' });
    await waitFor('the job that renders', () => done.length === 1, 20_000);
    expect(done).toEqual(['done']);
    expect(await renderJobsSeen()).toBe(before);
  });
});

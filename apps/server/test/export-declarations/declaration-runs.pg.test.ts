import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedDemoDeclarations } from '../../src/seed/export-declarations.ts';
import { createHarness, type Harness, type Instance, multipart, secondInstance } from '../harness.ts';
import { settled, waitFor } from '../support/jobs.ts';
import { heldStore, INSTANCES_ENV, leaseOutlived } from '../support/two-instances.ts';

/**
 * Issue 27: a declarations workbook's commit wrote up to 5,000 rows in its request. Now it is a
 * run on the job queue: enqueued on a `SERVER_ROLE=web` instance, written by the other, its state
 * read from either; a run whose instance died mid-write is finished by another, exactly once,
 * after the lease. Several instances live on PostgreSQL (vitest.config.ts: `*.pg.test.ts`).
 */

/**
 * The harness's store, with its reads held at a gate while one is closed: the run reading its
 * checked rows is then under way (nothing else of these tests reads a file on the harness's instance).
 */
const held = heldStore('get');

let h: Harness;
let demo: string;
beforeAll(async () => {
  h = await createHarness({ env: INSTANCES_ENV, storage: held.storage });
  held.attach(h);
  await seedDemoDeclarations(h.db, new Date());
  demo = await h.login('demo');
});

async function workbook(rows: [string, string, number][]) {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('x');
  ws.addRow(['Order No', 'Product name', 'Amount (JPY)']);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
async function commit(app: FastifyInstance, data: Buffer): Promise<number> {
  const m = multipart({ commit: 'true' }, { name: 'decl.xlsx', data });
  const res = await app.inject({
    method: 'POST',
    url: '/api/exportDeclaration/updatebatch',
    headers: { 'content-type': m.contentType, authorization: `Bearer ${demo}`, 'accept-language': 'en' },
    payload: m.payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().data).toMatchObject({ committed: false, runId: expect.any(Number) });
  return res.json().data.runId as number;
}
async function run(app: FastifyInstance, id: number) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/exportDeclaration/batchRun',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${demo}`, 'accept-language': 'en' },
    payload: JSON.stringify({ id }),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: number; status: string; total: number; error: string | null };
}
const ended = (r: { status: string }) => r.status === 'done' || r.status === 'failed';
const declOf = async (db: Harness['db'], orderNo: string) =>
  db
    .selectFrom('export_declarations as d')
    .innerJoin('orders as o', 'o.id', 'd.order_id')
    .select(['d.product_name', 'd.amount_jpy'])
    .where('o.order_no', '=', orderNo)
    .executeTakeFirst();

describe('declarations commits on the job queue, two instances on one PostgreSQL', () => {
  it('a commit sent to a web instance is written by the worker and read from either', async () => {
    const web: Instance = await secondInstance(h, { env: { ...INSTANCES_ENV, SERVER_ROLE: 'web' } });
    const g = held.closeGate();
    const id = await commit(
      web.app,
      await workbook([
        ['DMX100002', 'Vase', 250000],
        ['DMX100001', 'Watch', 295000],
      ]),
    );
    expect((await run(web.app, id)).status).toMatch(/queued|running/);
    await waitFor('the worker to take the run', () => g.reached);
    expect(await run(web.app, id)).toMatchObject({ status: 'running', total: 2, error: null });
    expect(await declOf(h.db, 'DMX100002')).toBeUndefined();
    g.open();
    await waitFor('the run to end', async () => ended(await run(web.app, id)));
    expect(await run(web.app, id)).toEqual({ id, status: 'done', total: 2, error: null });
    expect(await run(h.app, id)).toEqual(await run(web.app, id));
    expect(await declOf(h.db, 'DMX100002')).toMatchObject({ product_name: 'Vase', amount_jpy: 250000 });
    expect(await declOf(h.db, 'DMX100001')).toMatchObject({ product_name: 'Watch', amount_jpy: 295000 });
  }, 60_000);

  // Last in the file: the harness's instance "dies" here.
  it('a run whose instance died mid-write is finished by another, exactly once, after the lease', async () => {
    const g = held.closeGate();
    const id = await commit(h.app, await workbook([['DMX100002', 'Lamp', 180000]]));
    await waitFor('the run to start', () => g.reached);
    const other = await secondInstance(h, { env: INSTANCES_ENV });
    // Past its lease and a heartbeat check after it: the owner's heartbeat kept the run its own.
    expect(await leaseOutlived(other.db, 'export-declaration-batch')).toEqual({ state: 'active', retryCount: 0 });
    expect((await run(other.app, id)).status).toBe('running');
    // Its connections go at once, as a killed process's; its job stays claimed until the lease lapses.
    await h.app.jobs.abandon();
    await waitFor('the other instance to finish it', async () => ended(await run(other.app, id)), 40_000);
    await settled(other.db, 'export-declaration-batch', 1); // every row of the job's kind done or failed: no run of it is still to come
    expect(await run(other.app, id)).toEqual({ id, status: 'done', total: 1, error: null });
    expect(await declOf(other.db, 'DMX100002')).toMatchObject({ product_name: 'Lamp', amount_jpy: 180000 });
    // Its checked rows left the file store with the run's end.
    const r = await other.db
      .selectFrom('export_declaration_runs')
      .select('rows_key')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(r.rows_key).toBeNull();
  }, 90_000);
});

import ExcelJS from 'exceljs';
import { beforeAll, expect, it } from 'vitest';
import { seedDemoDeclarations } from '../../src/seed/export-declarations.ts';
import { createHarness, type Harness, multipart } from '../harness.ts';
import { waitFor } from '../support/jobs.ts';
import { stopTooOften } from '../support/stopped.ts';
import { heldStore, INSTANCES_ENV } from '../support/two-instances.ts';

/**
 * Issue 38, a declarations run's side: a run whose writes keep being cut short (its process dies
 * each time) is not left "running" for good: once the queue gives up on it, the run is failed
 * with `jobStoppedTooOften`, read in the reader's language, and none of its rows written. Both
 * engines (support/stopped.ts); the run is held under way at its reading of the checked rows.
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
async function commit(data: Buffer): Promise<number> {
  const m = multipart({ commit: 'true' }, { name: 'decl.xlsx', data });
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/exportDeclaration/updatebatch',
    headers: { 'content-type': m.contentType, authorization: `Bearer ${demo}`, 'accept-language': 'en' },
    payload: m.payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().data).toMatchObject({ committed: false, runId: expect.any(Number) });
  return res.json().data.runId as number;
}
async function run(id: number, lang = 'en') {
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/exportDeclaration/batchRun',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${demo}`, 'accept-language': lang },
    payload: JSON.stringify({ id }),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: number; status: string; total: number; error: string | null };
}
const declOf = async (orderNo: string) =>
  h.db
    .selectFrom('export_declarations as d')
    .innerJoin('orders as o', 'o.id', 'd.order_id')
    .select(['d.product_name'])
    .where('o.order_no', '=', orderNo)
    .executeTakeFirst();

it('a run stopped too often is failed with the reason, in both languages', async () => {
  const before = await declOf('DMX100002');
  const g = held.closeGate();
  const id = await commit(await workbook([['DMX100002', 'Stopped vase', 250000]]));
  await waitFor('the run under way', () => g.reached, 20_000);
  const heldRunEnded = await stopTooOften(h, 'export-declaration-batch');
  await waitFor('the run failed', async () => (await run(id)).status === 'failed', 30_000);
  g.open();
  expect((await run(id)).error).toMatch(/^This job was stopped before it finished too many times/);
  expect((await run(id, 'zh-CN')).error).toMatch(/^该任务多次在完成前被中断/);
  // The held run, let go, writes nothing: the run ended.
  await heldRunEnded();
  expect((await run(id)).status).toBe('failed');
  expect(await declOf('DMX100002')).toEqual(before);
  const row = await h.db
    .selectFrom('export_declaration_runs')
    .select('rows_key')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  expect(row.rows_key).toBeNull();
}, 60_000);

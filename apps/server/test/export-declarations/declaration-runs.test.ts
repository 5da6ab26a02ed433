import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EnqueueOptions } from '../../src/lib/jobs.ts';
import { seedDemoDeclarations } from '../../src/seed/export-declarations.ts';
import { createHarness, type Harness, multipart } from '../harness.ts';

/**
 * A declarations workbook's commit is a run on the job queue (issue 27): one that cannot write
 * (its checked rows gone from the file store) fails whole, its reason a message key read in the
 * reader's language. The two-instance behaviour is declaration-runs.pg.test.ts's.
 */
let h: Harness;
let demo: string;
beforeAll(async () => {
  h = await createHarness();
  await seedDemoDeclarations(h.db, new Date());
  demo = await h.login('demo');
});

async function upload(
  path: string,
  token: string,
  fields: Record<string, string>,
  file: { name: string; data: Buffer },
) {
  const m = multipart(fields, file);
  const res = await h.app.inject({
    method: 'POST',
    url: `/api/${path}`,
    headers: { 'content-type': m.contentType, authorization: `Bearer ${token}`, 'accept-language': 'en' },
    payload: m.payload,
  });
  return { status: res.statusCode, body: res.json() };
}
const orderOf = async (orderNo: string) =>
  h.db.selectFrom('orders').select(['id', 'customer_id']).where('order_no', '=', orderNo).executeTakeFirstOrThrow();
const declOf = (orderId: number) =>
  h.db.selectFrom('export_declarations').selectAll().where('order_id', '=', orderId).executeTakeFirst();
async function runEnded(id: number, token: string, lang = 'en') {
  for (const end = Date.now() + 20_000; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
    const r = await h.post('exportDeclaration/batchRun', { id }, token, { 'accept-language': lang });
    expect(r.status).toBe(200);
    if (r.body.data.status === 'done' || r.body.data.status === 'failed') return r.body.data;
  }
  throw new Error(`run ${id} never ended`);
}

describe('batch commit on the job queue', () => {
  it("a run that cannot write fails whole, its reason a key read in the reader's language", async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('x');
    ws.addRow(['Order No', 'Product name', 'Amount (JPY)']);
    ws.addRow(['DMX100002', 'Vase', 250000]);
    ws.addRow(['DMX100001', 'Watch', 295000]);
    const data = Buffer.from(await wb.xlsx.writeBuffer());
    // The checked rows leave the file store before the worker reads them (a retention sweep, a lost disk).
    const realPut = h.storage.put;
    const keys: string[] = [];
    h.storage.put = async (d, hint, sha) => {
      const s = await realPut.call(h.storage, d, hint, sha);
      if (hint === 'export-declaration-run.json') keys.push(s.key);
      return s;
    };
    const realGet = h.storage.get;
    h.storage.get = async (key) => {
      if (keys.includes(key)) await h.storage.remove(key);
      return realGet.call(h.storage, key);
    };
    try {
      const done = await upload('exportDeclaration/updatebatch', demo, { commit: 'true' }, { name: 'x.xlsx', data });
      expect(done.status).toBe(200);
      const run = await runEnded(done.body.data.runId, demo);
      expect(run).toMatchObject({ status: 'failed', total: 2 });
      expect(run.error).toMatch(/nothing was changed/);
      expect((await runEnded(run.id, demo, 'zh-CN')).error).toMatch(/未做任何修改/);
      const stored = await h.db
        .selectFrom('export_declaration_runs')
        .select('error')
        .where('id', '=', run.id)
        .executeTakeFirstOrThrow();
      expect(stored.error).toBe('declRunFileGone');
    } finally {
      h.storage.put = realPut;
      h.storage.get = realGet;
    }
    expect(await declOf((await orderOf('DMX100002')).id)).toBeUndefined();
    expect(await declOf((await orderOf('DMX100001')).id)).toMatchObject({ amount_jpy: 294000 });
  });
});

describe('fairness key of a run (issue 36 #2)', () => {
  it("an agent's run is queued under the agent's own key, a customer's under its customer's", async () => {
    const agent = await h.login('agent');
    const seen: { who: string; opts: EnqueueOptions | undefined }[] = [];
    const jobs = h.app.jobs;
    const realEnqueue = jobs.enqueue;
    let who = '';
    jobs.enqueue = (name, payload, opts) => {
      if (name === 'export-declaration-batch') seen.push({ who, opts });
      return realEnqueue.call(jobs, name, payload, opts);
    };
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('x');
    ws.addRow(['Order No', 'Product name', 'Amount (JPY)']);
    ws.addRow(['DMX100001', 'Watch', 296000]);
    const data = Buffer.from(await wb.xlsx.writeBuffer());
    try {
      for (const [name, token] of [
        ['agent', agent],
        ['demo', demo],
      ] as const) {
        who = name;
        const done = await upload('exportDeclaration/updatebatch', token, { commit: 'true' }, { name: 'x.xlsx', data });
        expect(done.status).toBe(200);
        await runEnded(done.body.data.runId, token);
      }
    } finally {
      jobs.enqueue = realEnqueue;
    }
    const users = await h.db.selectFrom('users').select(['name', 'id', 'customer_id']).execute();
    const agentId = users.find((u) => u.name === 'agent')!.id;
    const demoCustomer = users.find((u) => u.name === 'demo')!.customer_id;
    // Without a key the agent's runs passed the one-heavy-job-per-tenant gate (lib/jobs.memory.ts)
    // and had no pg-boss group: see labels/print-jobs-fairness.test.ts for what that cost others.
    expect(seen).toEqual([
      { who: 'agent', opts: expect.objectContaining({ customerId: -agentId, size: 'heavy' }) },
      { who: 'demo', opts: expect.objectContaining({ customerId: demoCustomer, size: 'heavy' }) },
    ]);
  });
});

import fs from 'node:fs';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseRow, fastFill, fill } from '../test/batches/helpers.ts';
import { s3Server } from '../test/files/s3-server.ts';
import {
  type Answer,
  client,
  freshDatabase,
  pidOfLocalPort,
  queueSettled,
  type ServerProcess,
  sleep,
  startHaproxy,
  startServer,
  stopServer,
  waitReady,
} from './cluster.ts';

/**
 * Issue 27: the product as several stateless instances behind a real load balancer on one
 * PostgreSQL. Two server processes (`node apps/server/src/server.ts`, each its own DATA_DIR)
 * started at the same moment on an empty database, haproxy round robin in front, and every call
 * made through haproxy as the console makes it. Files in the database in one run, in an
 * S3-compatible bucket (s3rver) in the other, with the second instance `SERVER_ROLE=web` there.
 */
const JD_SECRET_KEY = 'a1'.repeat(32);
const SWEEP_SECONDS = 6;

interface Variant {
  store: 'database' | 's3';
  ports: { lb: number; a: number; b: number };
  roleB: 'all' | 'web';
  /** The process scenarios (restart, periodic jobs, kill -9) run once, in the first variant. */
  processes: boolean;
}
const variants: Variant[] = [
  { store: 'database', ports: { lb: 8301, a: 8302, b: 8303 }, roleB: 'all', processes: true },
  { store: 's3', ports: { lb: 8311, a: 8312, b: 8313 }, roleB: 'web', processes: false },
];

/**
 * Kills with SIGKILL the instance whose database session waits on `lockPid`'s lock: a client port
 * in pg_stat_activity leads to the process that owns it. Polls every 100 ms, `tries` times, since
 * the instance reaches the lock only some moments after the call that starts the work.
 */
async function killInstanceBlockedBy(
  sql: pg.Client,
  servers: Record<'a' | 'b', ServerProcess>,
  lockPid: number,
  tries: number,
): Promise<ServerProcess> {
  let port: number | null = null;
  for (let i = 0; i < tries && port === null; i++) {
    const w = await sql.query<{ client_port: number }>(
      'select client_port from pg_stat_activity where $1 = any(pg_blocking_pids(pid))',
      [lockPid],
    );
    port = w.rows[0]?.client_port ?? null;
    if (port === null) await sleep(100);
  }
  expect(port).not.toBeNull();
  const pid = pidOfLocalPort(port!);
  const killed = Object.values(servers).find((s) => s.child.pid === pid);
  expect(killed, `pid ${pid}`).toBeDefined();
  killed!.child.kill('SIGKILL');
  await killed!.exited;
  return killed!;
}

describe.each(variants)('two instances behind haproxy, files in the $store store', (v) => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let s3: Awaited<ReturnType<typeof s3Server>> | undefined;
  let lb: ReturnType<typeof startHaproxy>;
  let env: Record<string, string>;
  const servers: Record<'a' | 'b', ServerProcess> = {} as never;
  let sql: pg.Client;
  let api: ReturnType<typeof client>;
  let demo: string;
  let template: Buffer;

  const envOf = (name: 'a' | 'b') => ({ ...env, SERVER_ROLE: name === 'b' ? v.roleB : 'all' });

  beforeAll(async () => {
    db = await freshDatabase();
    s3 = v.store === 's3' ? await s3Server() : undefined;
    env = {
      DATABASE_URL: db.url,
      JD_SECRET_KEY,
      ...(s3?.env ?? { FILE_STORE: 'database' }),
      FILE_SWEEP_MINUTES: String(SWEEP_SECONDS / 60),
      JOB_LEASE_SECONDS: '10',
      JOB_POLL_SECONDS: '0.5',
      // haproxy checks every second and takes a server out after 2 failures: a stopping instance
      // stays in rotation about 2 s after its readiness turns 503; 4 s covers a loaded machine.
      SHUTDOWN_DRAIN_SECONDS: '4',
    };
    // Two cold starts at the same moment on the empty database: both migrate and seed under locks.
    servers.a = startServer('a', v.ports.a, envOf('a'));
    servers.b = startServer('b', v.ports.b, envOf('b'));
    await Promise.all([waitReady(servers.a), waitReady(servers.b)]);
    lb = startHaproxy(v.ports.lb, [
      { name: 'a', port: v.ports.a },
      { name: 'b', port: v.ports.b },
    ]);
    api = client(lb.url);
    // haproxy marks a server up after two passed checks.
    for (let i = 0; i < 100; i++) {
      const calls = [0, 1, 2, 3].map(() => api.post('login', {}).catch(() => null));
      const seen = new Set((await Promise.all(calls)).map((r) => r?.servedBy));
      if (seen.has('a') && seen.has('b')) break;
      await sleep(100);
    }
    sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
    demo = await api.login('demo');
    const t = await api.post('download/importOrder', {}, demo);
    expect(t.status).toBe(200);
    template = t.bytes;
  }, 180_000);

  afterAll(async () => {
    await sql?.end();
    await lb?.stop();
    for (const s of Object.values(servers)) await stopServer(s, 'SIGKILL');
    await s3?.close();
    await db?.drop();
    for (const s of Object.values(servers)) fs.rmSync(s.dataDir, { recursive: true, force: true });
  }, 60_000);

  let serial = 0;
  /** Uploads a batch through the balancer and waits for its preview; every answer's instance is kept. */
  async function preview(rows: ReturnType<typeof baseRow>[], seen: Answer[]) {
    const up = await api.upload(
      'order/batch/createImport',
      demo,
      { name: 'o.xlsx', data: await fill(template, rows) },
      {
        channel: 'JP',
      },
    );
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    seen.push(up);
    return { id: up.body.data.id as number, data: await settle(up.body.data.id, seen) };
  }
  async function settle(id: number, seen: Answer[]) {
    for (let i = 0; i < 1200; i++) {
      const r = await api.post('order/batch/progress', { id }, demo);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      seen.push(r);
      if (!['parsing', 'committing'].includes(r.body.data.status)) return r.body.data;
      await sleep(50);
    }
    throw new Error('batch did not settle');
  }
  const rowsOf = (n: number) => {
    const prefix = `CL${v.store[0]}${++serial}`;
    return Array.from({ length: n }, (_, i) => baseRow(i + 1, { orderNo: `${prefix}-${i}` }));
  };
  const servedBy = (answers: Answer[]) => [...new Set(answers.map((a) => a.servedBy))].sort();

  it('both cold starts came up, and the demo data was written once', async () => {
    const users = await sql.query<{ name: string; n: string }>(
      `select name, count(*) as n from users where name in ('demo', 'demo2', 'operator', 'admin') group by name`,
    );
    expect(users.rows.map((u) => [u.name, Number(u.n)]).sort()).toEqual([
      ['admin', 1],
      ['demo', 1],
      ['demo2', 1],
      ['operator', 1],
    ]);
    for (const s of Object.values(servers)) expect(s.log()).toContain('Console:');
  });

  it('a batch previewed then confirmed through the balancer: both instances answered, the orders committed once', async () => {
    const seen: Answer[] = [];
    const rows = rowsOf(40);
    const { id, data } = await preview(rows, seen);
    expect(data).toMatchObject({ status: 'preview', invalidRows: 0, orderCount: 40 });
    const c = await api.post('order/batch/confirm', { id, confirmations: [] }, demo);
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    seen.push(c);
    expect(await settle(id, seen)).toMatchObject({ status: 'done', orderCount: 40 });
    expect(servedBy(seen)).toEqual(['a', 'b']);
    const made = await sql.query<{ order_no: string }>('select order_no from orders where batch_id = $1', [id]);
    expect(made.rows.map((o) => o.order_no).sort()).toEqual(rows.map((r) => String(r.orderNo)).sort());
    // A second confirm (a user's double click landing on the other instance) commits nothing more.
    const again = await api.post('order/batch/confirm', { id, confirmations: [] }, demo);
    expect(again.status).not.toBe(200);
    expect((await sql.query('select 1 from orders where batch_id = $1', [id])).rowCount).toBe(40);
  });

  it('every download works whichever instance answers, and its progress reads the same on both', async () => {
    // The batch error workbook, twice: round robin sends the two calls to the two instances.
    const { id, data } = await preview([baseRow(1, { orderNo: `CLE${v.store}`, recipientPhone: 'not a phone' })], []);
    expect(data, JSON.stringify(data)).toMatchObject({ status: 'preview', invalidRows: 1 });
    const errors = [
      await api.post('order/batch/download/errors', { id }, demo),
      await api.post('order/batch/download/errors', { id }, demo),
    ];
    // On a failure, what the server said (a reason key), not only its status.
    const said = errors.map((e) => (e.status === 200 ? '' : e.bytes.subarray(0, 300).toString()));
    expect(
      errors.map((e) => e.status),
      said.join(' | '),
    ).toEqual([200, 200]);
    expect(servedBy(errors)).toEqual(['a', 'b']);
    for (const e of errors) expect(e.bytes.subarray(0, 2).toString()).toBe('PK');

    // An order export with its progress id, then the progress asked of each instance directly.
    const progressId = `cluster-${v.store}-0001`;
    const exp = await api.post('order/downloadOrderExcel', { progressId }, demo);
    expect(exp.status).toBe(200);
    expect(exp.bytes.subarray(0, 2).toString()).toBe('PK');
    const progress = await Promise.all(
      [v.ports.a, v.ports.b].map((port) =>
        client(`http://127.0.0.1:${port}/api`).post('export/progress', { id: progressId }, demo),
      ),
    );
    expect(progress[0]!.body.data).toMatchObject({ phase: 'done' });
    expect(progress[1]!.body.data).toEqual(progress[0]!.body.data);

    // Product labels (a PDF) of committed orders, on both instances.
    const ids = (await sql.query<{ id: number }>(`select id from orders where order_no like 'CL%' limit 3`)).rows.map(
      (o) => o.id,
    );
    const labels = [
      await api.post('order/download/labelProduct', { ids }, demo),
      await api.post('order/download/labelProduct', { ids }, demo),
    ];
    expect(labels.map((l) => l.status)).toEqual([200, 200]);
    expect(servedBy(labels)).toEqual(['a', 'b']);
    for (const l of labels) expect(l.bytes.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('waybill labels and a print job: the PDF downloads whichever instance answers', async () => {
    const seen: Answer[] = [];
    const { id } = await preview(rowsOf(6), seen);
    expect((await api.post('order/batch/confirm', { id, confirmations: [] }, demo)).status).toBe(200);
    expect(await settle(id, seen)).toMatchObject({ status: 'done' });
    const ids = (
      await sql.query<{ id: number }>('select id from orders where batch_id = $1 order by id', [id])
    ).rows.map((o) => o.id);
    // Waybill labels of three orders (a print of each), then a print job of the other three.
    const labels = [
      await api.post('order/download/labelA', { ids: ids.slice(0, 3) }, demo),
      await api.post('order/download/labelA', { ids: ids.slice(0, 3) }, demo),
    ];
    expect(labels.map((l) => l.status)).toEqual([200, 200]);
    expect(servedBy(labels)).toEqual(['a', 'b']);
    for (const l of labels) expect(l.bytes.subarray(0, 5).toString()).toBe('%PDF-');

    const job = await api.post('order/printLabelA', { ids: ids.slice(3) }, demo);
    expect(job.status, JSON.stringify(job.body)).toBe(200);
    const jobId = job.body.data.jobId as number;
    const polls: Answer[] = [];
    let state: any;
    for (let i = 0; i < 600; i++) {
      const r = await api.post('order/printLabelAResult', { jobId }, demo);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      polls.push(r);
      state = r.body.data;
      if (state.status !== 'running') break;
      await sleep(100);
    }
    expect(state).toMatchObject({ status: 'done', total: 3, printed: 3, refused: [] });
    expect(servedBy(polls)).toEqual(['a', 'b']);
    const pdfs = [
      await api.post('file/downloadSteam', { id: state.fileId }, demo),
      await api.post('file/downloadSteam', { id: state.fileId }, demo),
    ];
    expect(pdfs.map((p) => p.status)).toEqual([200, 200]);
    expect(servedBy(pdfs)).toEqual(['a', 'b']);
    for (const p of pdfs) expect(p.bytes.subarray(0, 5).toString()).toBe('%PDF-');
  });

  if (v.processes)
    it('a restart of one instance leaves the other’s batch alone, and users see no error through the balancer', async () => {
      // B's work: a batch confirmed on B directly just before A is stopped; it must end done, once.
      const seen: Answer[] = [];
      const rows = rowsOf(300);
      const { id } = await preview(rows, seen);
      const onB = client(`http://127.0.0.1:${v.ports.b}/api`);
      const c = await onB.post('order/batch/confirm', { id, confirmations: [] }, demo);
      expect(c.status, JSON.stringify(c.body)).toBe(200);

      // Users keep calling through the balancer all along.
      let calling = true;
      const answers: Answer[] = [];
      const user = async () => {
        while (calling) {
          answers.push(await api.post('export/progress', { id: 'restart-probe' }, demo));
          await sleep(20);
        }
      };
      const users = [user(), user()];
      await sleep(500);
      const code = await stopServer(servers.a);
      expect(code).toBe(0);
      servers.a = startServer('a', v.ports.a, envOf('a'), servers.a.dataDir);
      await waitReady(servers.a);
      const back = Date.now();
      while (Date.now() - back < 15_000 && !answers.slice(-20).some((a) => a.servedBy === 'a')) await sleep(100);
      calling = false;
      await Promise.all(users);

      expect(answers.filter((a) => a.status !== 200).map((a) => [a.status, a.servedBy])).toEqual([]);
      expect(answers.slice(-20).some((a) => a.servedBy === 'a')).toBe(true);
      expect(await settle(id, [])).toMatchObject({ status: 'done', orderCount: 300 });
      expect((await sql.query('select 1 from orders where batch_id = $1', [id])).rowCount).toBe(300);
    }, 120_000);

  if (v.processes)
    it('periodic jobs run once per period across both instances', async () => {
      const from = new Date();
      // Long enough that three periods lie wholly inside the window whatever its phase.
      await sleep(SWEEP_SECONDS * 4 * 1000 + 2_000);
      const jobs = await sql.query<{ id: string; state: string; retry_count: number; created_on: string }>(
        `select id, state, retry_count, created_on from pgboss.job where name = 'file-sweep' and created_on >= $1 order by created_on`,
        [from],
      );
      const to = Date.now();
      const period = SWEEP_SECONDS * 1000;
      const slotOf = (t: number) => Math.floor(t / period);
      // Each job belongs to the period it was created in (its id is the period's): at most one a period...
      const slots = jobs.rows.map((j) => slotOf(new Date(j.created_on).getTime()));
      expect(new Set(slots).size).toBe(slots.length);
      // ...and every period wholly inside the window had its one (both instances tick every period).
      const full: number[] = [];
      for (let k = slotOf(from.getTime()) + 1; (k + 1) * period <= to - 1_000; k++) full.push(k);
      expect(full.length).toBeGreaterThanOrEqual(3);
      expect(full.filter((k) => !slots.includes(k))).toEqual([]);
      // Each ran once and finished: completed, no retry (a second run would be a retry or a second job).
      const settled = jobs.rows.filter((j) => to - new Date(j.created_on).getTime() > 3_000);
      expect(settled.length).toBeGreaterThanOrEqual(3);
      for (const j of settled) expect(j).toMatchObject({ state: 'completed', retry_count: 0 });
      // The daily and six-hourly ones run "at start unless this period already ran": two starts at
      // once and A's restart (the case before) made one job each.
      const atStart = await sql.query<{ name: string; n: number }>(
        `select name, count(*)::int as n from pgboss.job where name in ('storage-accrual', 'jd-renewal') group by name order by name`,
      );
      expect(atStart.rows).toEqual([
        { name: 'jd-renewal', n: 1 },
        { name: 'storage-accrual', n: 1 },
      ]);
    }, 60_000);

  if (v.processes)
    it('kill -9 of the instance applying an address batch: the other finishes it once after the lease', async () => {
      const rows = rowsOf(120);
      const { id: batchId } = await preview(rows, []);
      expect((await api.post('order/batch/confirm', { id: batchId, confirmations: [] }, demo)).status).toBe(200);
      expect(await settle(batchId, [])).toMatchObject({ status: 'done' });
      const orders = (
        await sql.query<{ id: number; order_no: string }>('select id, order_no from orders where batch_id = $1', [
          batchId,
        ])
      ).rows;

      const wb = new ExcelJS.Workbook();
      const ws = wb.addWorksheet('S');
      ws.addRow(['订单号', '收件人', '电话', '省', '市', '区', '详细地址']);
      for (const o of orders)
        ws.addRow([o.order_no, '李四', '13900001111', '广东省', '深圳市', '南山区', '科技园路1号']);
      // Plain, as spec §7 marks the label-B calls (docs/decisions/2026-11-27-aes-follows-spec-marks.md).
      const res = await api.upload('updateLableB/prompt', demo, {
        name: 'addresses.xlsx',
        data: Buffer.from(await wb.xlsx.writeBuffer()),
      });
      expect(res.status).toBe(200);
      const labelBatch = (res.body as { data: { batch: { id: number } } }).data.batch.id;

      // Hold the apply inside its transaction: another session locks the last of the batch's orders.
      const lock = new pg.Client({ connectionString: db.url });
      await lock.connect();
      const lockPid = (await lock.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
      await lock.query('begin');
      await lock.query('select id from orders where id = $1 for update', [orders.at(-1)!.id]);
      let killed: ServerProcess | undefined;
      try {
        const c = await api.post('updateLableB/create', { id: labelBatch }, demo);
        expect(c.status).toBe(200);
        expect(c.body.data.status).toBe('applying');
        // The session our lock blocks is the applying instance's.
        killed = await killInstanceBlockedBy(sql, servers, lockPid, 200);
      } finally {
        await lock.query('rollback');
        await lock.end();
      }
      // The survivor takes the job over once the lease lapses (10 s, checked every half lease).
      let status = 'applying';
      for (let i = 0; i < 240 && status === 'applying'; i++) {
        await sleep(250);
        const p = await api.post('updateLableB/progress', { id: labelBatch }, demo);
        expect(p.status).toBe(200);
        status = p.body.data.status;
      }
      expect(status).toBe('done');
      await queueSettled(sql, 'label-b-apply'); // no run of the apply is still to come
      const changed = await sql.query<{ order_id: number; n: string }>(
        `select order_id, count(*) as n from tracking_events where kind = 'addressChanged' and order_id = any($1) group by order_id`,
        [orders.map((o) => o.id)],
      );
      expect(changed.rows).toHaveLength(orders.length);
      expect(changed.rows.filter((r) => Number(r.n) !== 1)).toEqual([]);
      const name = killed!.name as 'a' | 'b';
      servers[name] = startServer(name, killed!.port, envOf(name), killed!.dataDir);
      await waitReady(servers[name]);
    }, 120_000);

  if (v.processes)
    it('kill -9 of the instance committing a 20,000-row batch: the other fails it cleanly, once, after the lease', async () => {
      const rows = rowsOf(20_000);
      const made = Date.now();
      // Written as XML, not through ExcelJS: well under a second for 20,000 rows.
      const data = await fastFill(template, rows);
      const sheetMs = Date.now() - made;
      const up = await api.upload('order/batch/createImport', demo, { name: 'o.xlsx', data }, { channel: 'JP' });
      expect(up.status, JSON.stringify(up.body)).toBe(200);
      const batchId = up.body.data.id as number;
      const previewed = await settle(batchId, []);
      expect(previewed, String(previewed.errorMessage)).toMatchObject({ status: 'preview', orderCount: 20_000 });

      // Hold the commit mid-way: its progress write (another connection of the committing
      // instance) waits on this lock while its transaction holds the first staged orders.
      const lock = new pg.Client({ connectionString: db.url });
      await lock.connect();
      const lockPid = (await lock.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
      let killed: ServerProcess | undefined;
      try {
        expect((await api.post('order/batch/confirm', { id: batchId, confirmations: [] }, demo)).status).toBe(200);
        await lock.query('begin');
        await lock.query('select id from batches where id = $1 for update', [batchId]);
        killed = await killInstanceBlockedBy(sql, servers, lockPid, 400);
      } finally {
        await lock.query('rollback');
        await lock.end();
      }
      // The survivor's retry of the commit job, once the lease lapses, fails the batch with the reason.
      const seen: Answer[] = [];
      const end = await settle(batchId, seen);
      expect(end).toMatchObject({
        status: 'failed',
        errorMessage:
          '创建失败：导入期间服务器重启，未写入任何订单，请重新上传。 / Creation Failed: the server restarted during the import; nothing was written. Upload the file again.',
      });
      await queueSettled(sql, 'batch-commit'); // no run of the commit is still to come
      // One clear state, whichever instance answers; nothing of the killed commit is left.
      const again = [
        await api.post('order/batch/progress', { id: batchId }, demo),
        await api.post('order/batch/progress', { id: batchId }, demo),
      ];
      for (const a of again) expect(a.body.data).toMatchObject({ status: 'failed', errorMessage: end.errorMessage });
      expect((await sql.query('select 1 from orders where batch_id = $1', [batchId])).rowCount).toBe(0);
      const prefix = String(rows[0]!.orderNo).split('-')[0];
      expect((await sql.query(`select 1 from orders where order_no like $1`, [`${prefix}-%`])).rowCount).toBe(0);
      // One commit job, run twice (the killed run and the retry that failed the batch), and no more.
      const jobs = await sql.query<{ state: string; retry_count: number }>(
        `select state, retry_count from pgboss.job where name = 'batch-commit' and data->>'batchId' = $1`,
        [String(batchId)],
      );
      expect(jobs.rows).toEqual([{ state: 'completed', retry_count: 1 }]);
      console.log(`20,000-row sheet written in ${sheetMs} ms`);
      const name = killed!.name as 'a' | 'b';
      servers[name] = startServer(name, killed!.port, envOf(name), killed!.dataDir);
      await waitReady(servers[name]);
    }, 240_000);
});

import ExcelJS from 'exceljs';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, multipart } from '../harness.ts';
import { plain } from '../plain-client.ts';
import { createOrder, jpOrderBody } from '../support/orders.ts';

/**
 * Issue 38 row 2 on an address batch (label B): PostgreSQL ends the apply's connection in the
 * middle of its transaction (57P01, what a restart or a failover does). The apply is one
 * transaction, rolled back with it: the job runs again and the batch ends done, instead of failed
 * for good. The apply is held on a row lock of the test's so that its backend can be ended there.
 */
let h: Harness;
let demo: string;
beforeAll(async () => {
  h = await createHarness({ env: { JOB_POLL_SECONDS: '0.5' } });
  demo = await h.login('demo');
});

async function xlsx(rows: string[][]) {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('S');
  ws.addRow(['订单号', '收件人', '电话', '省', '市', '区', '详细地址']);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 800; i++) {
    const got = await probe();
    if (got !== undefined) return got;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('an address batch whose apply loses its connection', () => {
  it('runs again and ends done, each order changed once', async () => {
    const order = await createOrder(
      h.post,
      demo,
      jpOrderBody('LBT', { items: [{ jan: '4901234567894', name: '明治 奶粉', quantity: 2, unitPrice: '1500' }] }),
    );
    const m = multipart(
      {},
      {
        name: 'addresses.xlsx',
        data: await xlsx([[order.orderNo, '李四', '13900001111', '广东省', '深圳市', '南山区', '科技园路1号']]),
      },
    );
    const prompt = await h.app.inject({
      method: 'POST',
      url: '/api/updateLableB/prompt',
      headers: { 'content-type': m.contentType, authorization: `Bearer ${demo}`, 'accept-language': 'en' },
      payload: m.payload,
    });
    expect(prompt.statusCode, prompt.body).toBe(200);
    const batchId = prompt.json().data.batch.id as number;

    const holder = new pg.Client({ connectionString: h.databaseUrl });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select id from orders where id = $1 for update', [order.id]);
      const c = await plain(h, 'updateLableB/create', { id: batchId }, demo);
      expect(c.status).toBe(200);
      // The apply's transaction waits on the order's lock: end its backend there.
      const pid = await until('the apply waiting on the lock', async () => {
        const r = await holder.query(
          `select pid from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
        );
        return r.rows[0]?.pid as number | undefined;
      });
      await holder.query('select pg_terminate_backend($1)', [pid]);
      await holder.query('rollback');
    } finally {
      await holder.end();
    }
    const done = await until('the batch to end', async () => {
      const p = await plain(h, 'updateLableB/progress', { id: batchId }, demo);
      return p.data.status === 'applying' ? undefined : p.data;
    });
    expect(done).toMatchObject({ status: 'done', changedCount: 1, error: null });
    const changed = await h.db
      .selectFrom('orders')
      .select(['recipient_name', 'recipient_city'])
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow();
    expect(changed).toEqual({ recipient_name: '李四', recipient_city: '深圳市' });
    const events = await h.db
      .selectFrom('tracking_events')
      .select('kind')
      .where('order_id', '=', order.id)
      .where('kind', '=', 'addressChanged')
      .execute();
    expect(events).toHaveLength(1);
  });
});

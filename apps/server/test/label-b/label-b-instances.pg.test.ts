import ExcelJS from 'exceljs';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createHarness, secondInstance, multipart } from '../harness.ts';
import type { DB } from '../../src/db/schema.ts';
import { plain } from '../plain-client.ts';
import { settled, waitFor } from '../support/jobs.ts';
import { INSTANCES_ENV, leaseOutlived } from '../support/two-instances.ts';
import { createOrder, jpOrderBody } from '../support/orders.ts';

/**
 * Issue 27: an address batch is applied by one instance only. A starting instance re-applied
 * every batch still 'applying' (its in-process recovery), even while another instance was
 * applying it, and every order got two addressChanged events. Several instances live on
 * PostgreSQL (the embedded SQLite is one process): this file runs in the PostgreSQL run.
 */

/** Sessions on the test's database waiting for a lock another holds (the held order's row). */
async function lockWaiters(db: Kysely<DB>) {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from pg_stat_activity
    where datname = current_database() and wait_event_type = 'Lock'`.execute(db);
  return rows[0]!.n;
}

describe('an address batch with two instances on one database', () => {
  it('an instance starting while another applies a batch does not apply it again', async () => {
    const h = await createHarness({ env: INSTANCES_ENV });
    const demo = await h.login('demo');
    const orders = [];
    for (let i = 0; i < 3; i++) orders.push(await createOrder(h.post, demo, jpOrderBody('LBI')));
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('S');
    ws.addRow(['订单号', '收件人', '电话', '省', '市', '区', '详细地址']);
    for (const o of orders) ws.addRow([o.orderNo, '李四', '13900001111', '广东省', '深圳市', '南山区', '科技园路1号']);
    const m = multipart(
      {},
      {
        name: 'addresses.xlsx',
        data: Buffer.from(await wb.xlsx.writeBuffer()),
      },
    );
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/updateLableB/prompt',
      headers: { 'content-type': m.contentType, authorization: `Bearer ${demo}` },
      payload: m.payload,
    });
    expect(res.statusCode).toBe(200);
    const batchId = res.json().data.batch.id as number;

    // Hold the apply inside its transaction: another session locks one of the batch's orders.
    const lock = new pg.Client({ connectionString: h.databaseUrl });
    await lock.connect();
    await lock.query('begin');
    await lock.query('select id from orders where id = $1 for update', [orders[1]!.id]);
    try {
      const c = await plain(h, 'updateLableB/create', { id: batchId }, demo);
      expect(c.status).toBe(200);
      expect(c.data.status).toBe('applying');
      // The apply is under way and waits on the lock (seen in the database, not assumed after a
      // sleep: issue 36 #16); an instance starts meanwhile.
      await waitFor('the apply to wait on the held order', async () => (await lockWaiters(h.db)) === 1, 30_000);
      await secondInstance(h, { env: INSTANCES_ENV });
      // The started instance has run its start and polled through a lease and a heartbeat check
      // after it (issue 37: recorded state, not a fixed sleep): the job is still its first run,
      // and still one session (not a second apply) waits on the lock.
      expect(await leaseOutlived(h.db, 'label-b-apply')).toEqual({ state: 'active', retryCount: 0 });
      expect(await lockWaiters(h.db)).toBe(1);
    } finally {
      await lock.query('rollback');
      await lock.end();
    }
    let status = 'applying';
    for (let i = 0; i < 200 && status === 'applying'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      status = (await plain(h, 'updateLableB/progress', { id: batchId }, demo)).data.status;
    }
    expect(status).toBe('done');
    await settled(h.db, 'label-b-apply', 1); // every row of the job's kind done or failed: no run of it is still to come
    const changed = await h.db
      .selectFrom('tracking_events')
      .select('order_id')
      .where(
        'order_id',
        'in',
        orders.map((o) => o.id),
      )
      .where('kind', '=', 'addressChanged')
      .execute();
    expect(changed.map((e) => e.order_id).sort()).toEqual(orders.map((o) => o.id).sort());
  }, 120_000);
});

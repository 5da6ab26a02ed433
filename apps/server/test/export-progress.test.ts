import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

/**
 * Issue 10 leftover (issue 11 brief): a long download reports its progress through
 * `export/progress` while the workbook is built — waiting, rows written of the total,
 * done — to the user who started it only.
 */
let h: Harness;
let demo: string;
let demo2: string;
const ORDERS = 6_000;

beforeAll(async () => {
  h = await createHarness();
  [demo, demo2] = await Promise.all([h.login('demo'), h.login('demo2')]);
  const demoId = (await h.db.selectFrom('customers').select('id').where('code', '=', 'DEMO').executeTakeFirstOrThrow())
    .id;
  const at = '2026-06-01T00:00:00.000Z';
  for (let i = 0; i < ORDERS; i += 500) {
    const rows = Array.from({ length: 500 }, (_, k) => ({
      customer_id: demoId,
      channel_code: 'JP',
      order_no: `PRG${String(i + k).padStart(7, '0')}`,
      system_no: `SP${String(i + k).padStart(10, '0')}`,
      status: 'created',
      intercepted: 0,
      released: 0,
      print_count: 0,
      print_flag: 0,
      recipient_name: '李明',
      recipient_id_card: '11010519900101123X',
      recipient_phone: '13900000000',
      recipient_province: '浙江省',
      recipient_city: '杭州市',
      recipient_district: '西湖区',
      recipient_address: '文三路1号',
      currency: 'JPY',
      total_amount: 1000,
      created_at: at,
      updated_at: at,
    }));
    await h.db.insertInto('orders').values(rows).execute();
  }
}, 120_000);

type Progress = { phase: string; rows: number; total: number | null };
const progressOf = async (id: string, token = demo) => {
  const r = await h.post('export/progress', { id }, token);
  expect(r.status).toBe(200);
  return r.body.data as Progress;
};

describe('export progress', () => {
  it('the Order List export reports rows written of the total while it runs, then done', async () => {
    const expected = Number(
      (
        await h.db
          .selectFrom('orders')
          .innerJoin('customers', 'customers.id', 'orders.customer_id')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('customers.code', '=', 'DEMO')
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(expected).toBeGreaterThanOrEqual(ORDERS);
    const id = 'order-export-0001';
    expect(await progressOf(id)).toEqual({ phase: 'unknown', rows: 0, total: null });

    let finished = false;
    const download = h.post('order/downloadOrderExcel', { progressId: id }, demo).finally(() => (finished = true));
    const seen: Progress[] = [];
    while (!finished) {
      seen.push(await progressOf(id));
      await new Promise((r) => setTimeout(r, 5));
    }
    const res = await download;
    expect(res.status).toBe(200);
    const last = await progressOf(id);
    expect(last).toEqual({ phase: 'done', rows: expected, total: expected });

    // While it ran: known, counted, and never more rows than the total.
    const running = seen.filter((p) => p.phase === 'writing');
    expect(running.length).toBeGreaterThan(0);
    expect(running.some((p) => p.total === expected)).toBe(true);
    expect(seen.every((p) => p.rows <= (p.total ?? Infinity))).toBe(true);
    expect(seen.some((p) => p.rows > 0 && p.rows < expected)).toBe(true);
    // Rows only grow.
    const rows = seen.map((p) => p.rows);
    expect(rows).toEqual([...rows].sort((a, b) => a - b));

    // Another user cannot read it.
    expect(await progressOf(id, demo2)).toEqual({ phase: 'unknown', rows: 0, total: null });
  }, 120_000);

  it('a batch download: done with its rows; one refused before the workbook is failed', async () => {
    const ok = await h.post(
      'order/batch/download/excelByTime',
      { period: 'lastThreeMonths', progressId: 'by-time-0001' },
      demo,
    );
    expect(ok.status).toBe(200);
    const done = await progressOf('by-time-0001');
    expect(done.phase).toBe('done');
    expect(done.rows).toBe(done.total);

    const missing = await h.post('order/batch/download/excel', { id: 999_999, progressId: 'missing-0001' }, demo);
    expect(missing.status).toBe(404);
    expect((await progressOf('missing-0001')).phase).toBe('failed');
  });

  it('a progress id is letters, digits and dashes, refused in our words', async () => {
    const r = await h.post('export/progress', { id: 'x' }, demo, { 'accept-language': 'en' });
    expect(r.status).toBe(422);
    expect(r.body.data.id).toEqual(['Not a download name this console gives (8 to 64 letters, digits and dashes).']);
  });
});

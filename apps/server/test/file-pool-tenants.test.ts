import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';
import { plainBlob } from './plain-client.ts';

/**
 * Issue 27: the file pool is shared by every customer of an instance. While `demo` has more big
 * PDF renders than the pool has workers, `demo2`'s label-B template and one-page order export
 * are answered before any of demo's renders ends (they are small: they never wait behind heavy
 * files), and demo's later renders are still waiting then. Order of completion, not times.
 */
let h: Harness;
let demo: string;
let demo2: string;
const ids: number[] = [];
/** Orders per render: enough that a render holds its worker for a second or more. */
const ORDERS = 800;
const RENDERS = 4;

beforeAll(async () => {
  h = await createHarness();
  [demo, demo2] = await Promise.all([h.login('demo'), h.login('demo2')]);
  const customer = await h.db.selectFrom('customers').select('id').where('code', '=', 'DEMO').executeTakeFirstOrThrow();
  const at = new Date().toISOString();
  for (let s = 0; s < ORDERS; s += 200) {
    const rows = await h.db
      .insertInto('orders')
      .values(
        Array.from({ length: 200 }, (_, k) => ({
          customer_id: customer.id,
          channel_code: 'JP',
          order_no: `FAIR${s + k}`,
          waybill_no: `WBFAIR${s + k}`,
          system_no: `SFAIR${s + k}`,
          status: 'created',
          recipient_name: '王小明',
          recipient_id_card: '110105198001011234',
          recipient_phone: '13812345678',
          recipient_province: '浙江省',
          recipient_city: '杭州市',
          recipient_district: '西湖区',
          recipient_address: `文三路${s + k}号`,
          currency: 'JPY',
          created_at: at,
          updated_at: at,
        })),
      )
      .returning('id')
      .execute();
    await h.db
      .insertInto('order_items')
      .values(
        rows.map((o) => ({
          order_id: o.id,
          line_no: 1,
          jan: '4901234567894',
          name: '面霜',
          quantity: 2,
          unit_price: 999,
          currency: 'JPY',
          origin: 'JP',
        })),
      )
      .execute();
    ids.push(...rows.map((r) => r.id));
  }
}, 120_000);
afterAll(() => h?.app.close());

async function download(call: string, body: unknown, token: string) {
  const res = await h.app.inject({
    method: 'POST',
    url: `/api/${call}`,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    payload: JSON.stringify(body),
  });
  if (res.statusCode !== 200) console.log(call, res.statusCode, res.body);
  return res.statusCode;
}

describe('file pool turns by customer', () => {
  it("demo2's template and one-page export finish before demo's queued big renders", async () => {
    const finished: string[] = [];
    const done = (label: string) => (status: number) => {
      finished.push(label);
      return status;
    };
    const renders = Array.from({ length: RENDERS }, (_, k) =>
      download('order/downloadMDA2PDByOrder', { ids }, demo).then(done(`demo-pd-${k + 1}`)),
    );
    // Demo's renders load their orders and take the pool's workers first.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(finished).toEqual([]);
    const small = await Promise.all([
      plainBlob(h, 'updateLableB/downloadXlsx', {}, demo2).then((r) => done('demo2-template')(r.status)),
      download('order/downloadOrderExcel', { sort: 'createdAt', order: 'desc' }, demo2).then(done('demo2-export')),
    ]);
    const pending = RENDERS - finished.filter((f) => f.startsWith('demo-pd')).length;
    expect(small).toEqual([200, 200]);
    expect(await Promise.all(renders)).toEqual(Array(RENDERS).fill(200));
    // Both small files were answered before any of demo's renders ended (so its later ones were still waiting).
    expect(finished.slice(0, 2).sort()).toEqual(['demo2-export', 'demo2-template']);
    expect(pending).toBe(RENDERS);
  }, 180_000);
});

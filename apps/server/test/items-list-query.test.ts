import { eanCheckDigit } from '@console/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';
import { aes } from './items/helpers.ts';

/**
 * The item list's rows pinned against a reference computed here from the rows inserted
 * (bench:items, issue 12): its queries changed for speed (indexes; on SQLite a JAN prefix of
 * digits is also an index range), and every filter and sort must still give the same rows in
 * the same order, with the same total, for a customer, the agent and an operator.
 */
let h: Harness;
let tokens: Record<'demo' | 'agent' | 'operator', string>;
type Row = {
  id: number;
  customer_id: number;
  jan: string;
  name_zh: string;
  name_en: string;
  name_ja: string;
  brand_id: number;
  category_id: number;
  status: string;
  created_at: string;
  updated_at: string;
};
let rows: Row[] = [];
let categories: { id: number; path: string }[] = [];
let demoId: number;
let demo2Id: number;
const NOW = Date.parse('2026-11-20T04:00:00Z');

const jan = (body: string) => body + eanCheckDigit(body);

beforeAll(async () => {
  h = await createHarness();
  const [demo, agent, operator] = await Promise.all([h.login('demo'), h.login('agent'), h.login('operator')]);
  tokens = { demo, agent, operator };
  const customers = await h.db.selectFrom('customers').select(['id', 'code']).execute();
  demoId = customers.find((c) => c.code === 'DEMO')!.id;
  demo2Id = customers.find((c) => c.code === 'DEMO2')!.id;
  const creator = (await h.db.selectFrom('users').select('id').where('name', '=', 'demo').executeTakeFirstOrThrow()).id;
  categories = await h.db.selectFrom('item_categories').select(['id', 'path']).execute();
  // JANs whose prefixes meet at the edges of a digit range: 4901…, 49010…, 4902…, 4909…, 4910….
  const bodies = ['490100000', '490110000', '490199999', '490200000', '490900000', '491000000', '450000000'];
  const names = [
    ['资生堂 洗面奶', 'Shiseido Facial Foam', '資生堂 洗顔'],
    ['花王 纸尿裤', 'Kao diapers', '花王 おむつ'],
    ['狮王 牙膏', 'LION toothpaste', 'ライオン 歯磨き'],
    ['明治 奶粉 100%', 'Meiji formula_100', '明治 ミルク'],
  ];
  const values = [];
  for (let i = 0; i < 140; i++) {
    const created = new Date(NOW - ((i * 37) % 140) * 6 * 3_600_000).toISOString();
    values.push({
      customer_id: i % 3 === 2 ? demo2Id : demoId,
      jan: jan(`${bodies[i % bodies.length]!.slice(0, 9)}${String(i).padStart(3, '0')}`),
      name_zh: names[i % 4]![0]!,
      name_en: names[i % 4]![1]!,
      name_ja: names[i % 4]![2]!,
      specs: '',
      essentials: '',
      part_id: 1,
      brand_id: 1 + (i % 5),
      category_id: [2, 3, 6, 10, 13, 19][i % 6]!,
      new_category: '',
      export_category: null,
      group_name: '',
      tariff: null,
      net_weight_g: 100,
      clearance_price: '1.00',
      declaration_price: '1.00',
      origin: 'JP',
      tax_code: null,
      image_file_id: null,
      status: ['approved', 'pending', 'failed', 'approved'][i % 4]!,
      reason: null,
      created_by: creator,
      created_at: created,
      // Ties on the update time, so the id breaks them.
      updated_at: new Date(NOW - (i % 7) * 86_400_000).toISOString(),
    });
  }
  await h.db.insertInto('items').values(values).execute();
  rows = (await h.db
    .selectFrom('items')
    .select([
      'id',
      'customer_id',
      'jan',
      'name_zh',
      'name_en',
      'name_ja',
      'brand_id',
      'category_id',
      'status',
      'created_at',
      'updated_at',
    ])
    .execute()) as unknown as Row[];
  for (const r of rows) {
    // PostgreSQL answers Dates: compare instants as ISO text, like SQLite holds them.
    r.created_at = new Date(r.created_at).toISOString();
    r.updated_at = new Date(r.updated_at).toISOString();
  }
});

const dayStart = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - 8 * 3_600_000).toISOString();
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
const SORT = { createdAt: 'created_at', updatedAt: 'updated_at', jan: 'jan', status: 'status' } as const;

type Filter = {
  status?: string;
  jan?: string;
  name?: string;
  brandId?: number;
  categoryId?: number;
  customerId?: number;
  dateFrom?: string;
  dateTo?: string;
  sort?: keyof typeof SORT;
  order?: 'asc' | 'desc';
  offset?: number;
  limit?: number;
};

/** What the list must answer, computed from the rows: ids of the page and the total. */
function expected(scope: readonly number[] | 'all', f: Filter) {
  const sub = f.categoryId
    ? new Set(
        categories
          .filter((c) => c.path.startsWith(categories.find((k) => k.id === f.categoryId)!.path))
          .map((c) => c.id),
      )
    : null;
  const name = f.name?.toLowerCase();
  const matched = rows.filter(
    (r) =>
      (scope === 'all' || scope.includes(r.customer_id)) &&
      (!f.customerId || r.customer_id === f.customerId) &&
      (!f.status || r.status === f.status) &&
      (!f.jan || r.jan.startsWith(f.jan)) &&
      (!name || [r.name_zh, r.name_en, r.name_ja].some((n) => n.toLowerCase().includes(name))) &&
      (!f.brandId || r.brand_id === f.brandId) &&
      (!sub || sub.has(r.category_id)) &&
      (!f.dateFrom || r.created_at >= dayStart(f.dateFrom)) &&
      (!f.dateTo || r.created_at < dayStart(nextDay(f.dateTo))),
  );
  const column = SORT[f.sort ?? 'createdAt'];
  const dir = (f.order ?? 'desc') === 'desc' ? -1 : 1;
  matched.sort((a, b) => (a[column] < b[column] ? -dir : a[column] > b[column] ? dir : (a.id - b.id) * dir));
  const offset = f.offset ?? 0;
  return { total: matched.length, ids: matched.slice(offset, offset + (f.limit ?? 20)).map((r) => r.id) };
}

const FILTERS: Filter[] = [
  {},
  { jan: '4901' },
  { jan: '49010' },
  { jan: '490' },
  { jan: '4909', sort: 'jan', order: 'asc' },
  { jan: '49' },
  { jan: '4' },
  { jan: '45', status: 'approved' },
  { jan: '4901000000', order: 'asc' },
  { jan: '9' },
  { status: 'pending', sort: 'updatedAt' },
  { status: 'approved', sort: 'status', order: 'asc', offset: 20 },
  { sort: 'status', order: 'desc', limit: 50 },
  { sort: 'updatedAt', order: 'asc', offset: 40 },
  { sort: 'jan', order: 'desc', limit: 50, offset: 50 },
  { name: 'facial' },
  { name: '花王', status: 'pending' },
  { name: 'lion', sort: 'updatedAt' },
  { name: 'おむつ', brandId: 2 },
  { brandId: 3, sort: 'jan', order: 'asc' },
  { categoryId: 1 },
  { categoryId: 5, status: 'approved', sort: 'updatedAt' },
  { categoryId: 19, jan: '49' },
  { dateFrom: '2026-11-01', dateTo: '2026-11-10' },
  { dateFrom: '2026-10-28', dateTo: '2026-10-28', sort: 'jan' },
  { dateFrom: '2026-11-05', jan: '490', status: 'approved', sort: 'updatedAt', order: 'asc' },
];

describe('item list: filters and sorts give the rows computed from the data', () => {
  const page = async (token: string, f: Filter) => {
    const r = await aes(h, 'items', { offset: 0, limit: 20, ...f }, token);
    expect(r.status).toBe(200);
    return { total: r.data.total as number, ids: (r.data.list as { id: number }[]).map((x) => x.id) };
  };
  it('for a customer, the agent and an operator (narrowed to a customer or not)', async () => {
    const seen: number[] = [];
    for (const f of FILTERS) {
      for (const [who, scope, extra] of [
        ['demo', [demoId], {}],
        ['agent', [demoId, demo2Id], {}],
        ['operator', 'all', {}],
        ['operator', 'all', { customerId: demo2Id }],
      ] as const) {
        const want = expected(scope, { ...f, ...extra });
        const got = await page(tokens[who], { ...f, ...extra });
        expect({ who, f, ...got }).toEqual({ who, f, ...want });
        seen.push(want.ids.length);
      }
    }
    // The filters are not all empty: most pages have rows, and some filters match nothing.
    expect(seen.filter((n) => n > 0).length).toBeGreaterThan(FILTERS.length * 2);
    expect(seen.some((n) => n === 0)).toBe(true);
  });

  it('a prefix with LIKE wildcards or letters matches literally', async () => {
    for (const f of [{ jan: '49%' }, { jan: '4_01' }, { jan: '490a' }, { name: '100%' }, { name: 'a_1' }]) {
      const want = expected('all', f);
      expect({ f, ...(await page(tokens.operator, f)) }).toEqual({ f, ...want });
    }
    expect(expected('all', { name: '100%' }).total).toBeGreaterThan(0);
  });

  it('a cached page is not served after a change: the list shows an approval at once', async () => {
    const f = { status: 'pending' as const, jan: '4902' };
    const before = await page(tokens.operator, f);
    expect(before.ids.length).toBeGreaterThan(0);
    // Twice: the second answer may come from the answer cache.
    expect(await page(tokens.operator, f)).toEqual(before);
    const approved = await aes(h, 'item/approve', { id: before.ids[0] }, tokens.operator);
    expect(approved.status).toBe(200);
    const after = await page(tokens.operator, f);
    expect(after.total).toBe(before.total - 1);
    expect(after.ids).not.toContain(before.ids[0]);
  });
});

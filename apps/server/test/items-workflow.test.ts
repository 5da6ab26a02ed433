import { items as C, isValidJan } from '@console/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';
import { aes, freshJan, itemBody } from './items/helpers.ts';

/**
 * Issue 12, the item review workflow: create → pending; fail with a reason → the failed
 * list; fix → pending; approve; a clearance change → pending again (a group change does
 * not); adjust → adopt / reject / superseded; every step in the item's history.
 */
let h: Harness;
let demo: string;
let operator: string;
let agent: string;

beforeAll(async () => {
  h = await createHarness();
  [demo, operator, agent] = await Promise.all([h.login('demo'), h.login('operator'), h.login('agent')]);
});

const create = async (token: string, over: Record<string, unknown> = {}, lang = 'en') =>
  aes(h, 'item/create', itemBody(over), token, lang);

describe('demo data', () => {
  it('demo and demo2 each see approved, pending and failed items and an unadopted adjustment at once', async () => {
    const demo2 = await h.login('demo2');
    for (const [token, code] of [
      [demo, 'DEMO'],
      [demo2, 'DEMO2'],
    ] as const) {
      const list = await aes(h, 'items', { limit: 100, sort: 'createdAt', order: 'asc' }, token);
      const seeded = (list.data.list as C.ItemRow[]).filter((r) => r.jan.startsWith('49'));
      expect(seeded.length).toBe(5);
      expect(seeded.every((r) => r.customerCode === code)).toBe(true);
      expect(new Set(seeded.map((r) => r.status))).toEqual(new Set(['approved', 'pending', 'failed']));
      expect(seeded.every((r) => isValidJan(r.jan) && r.category && r.tax && r.brand)).toBe(true);
      expect(seeded.find((r) => r.status === 'failed')?.reason).toMatch(/ingredient/);
      const open = await aes(h, 'item/adj', { status: 'pending' }, token);
      expect(open.data.list).toHaveLength(1);
      expect(open.data.list[0]).toMatchObject({ customerCode: code, adjustedBy: '演示操作员' });
    }
  });
});

describe('create → fail → fix → approve', () => {
  it('walks the review and keeps every step in the history', async () => {
    const c = await create(demo);
    expect(c.status).toBe(200);
    expect(c.data).toMatchObject({
      status: 'pending',
      reason: null,
      clearancePrice: '45.50',
      declarationPrice: '800.00',
    });
    expect(c.data.category.path).toEqual([
      { zh: '化妆品', en: 'Cosmetics' },
      { zh: '护肤品', en: 'Skin care' },
    ]);
    expect(c.data.tax).toMatchObject({ code: '04010100', rate: '0.20', unit: 'bottle' });
    const id = c.data.id as number;

    const failed = await aes(h, 'item/fail', { id, reason: '申报要素不全：缺少成分' }, operator);
    expect(failed.data).toMatchObject({ status: 'failed', reason: '申报要素不全：缺少成分' });

    // The Failed To Pass Item List is the list filtered on status failed.
    const noPass = await aes(h, 'items', { status: 'failed', limit: 100 }, demo);
    expect(noPass.data.list.map((r: any) => r.id)).toContain(id);
    expect(noPass.data.list.length).toBeGreaterThan(0);
    expect(noPass.data.list.every((r: any) => r.status === 'failed')).toBe(true);

    // Approving a failed item is refused: only pending items are reviewed.
    const early = await aes(h, 'item/approve', { id }, operator);
    expect(early.status).toBe(409);

    const fixed = await aes(
      h,
      'item/update',
      { ...itemBody({ jan: c.data.jan }), id, essentials: '品牌：测试；成分：水' },
      demo,
    );
    expect(fixed.data).toMatchObject({ status: 'pending', reason: null, essentials: '品牌：测试；成分：水' });

    const ok = await aes(h, 'item/approve', { id }, operator);
    expect(ok.data.status).toBe('approved');

    // The group is the customer's label: changing it keeps the approval.
    const regroup = await aes(
      h,
      'item/update',
      { ...itemBody({ jan: c.data.jan }), id, essentials: '品牌：测试；成分：水', group: '夏季' },
      demo,
    );
    expect(regroup.data).toMatchObject({ status: 'approved', group: '夏季' });

    // Clearance data changed on an approved item: back to review.
    const heavier = await aes(
      h,
      'item/update',
      { ...itemBody({ jan: c.data.jan }), id, essentials: '品牌：测试；成分：水', group: '夏季', netWeightG: 150 },
      demo,
    );
    expect(heavier.data.status).toBe('pending');

    const detail = await aes(h, 'item', { id }, demo);
    expect(detail.data.history.map((e: any) => e.kind)).toEqual([
      'created',
      'failed',
      'resubmitted',
      'approved',
      'updated',
      'updated',
    ]);
    const failEvent = detail.data.history[1];
    expect(failEvent).toMatchObject({ note: '申报要素不全：缺少成分', status: 'failed', by: '演示操作员' });
    expect(detail.data.history[5].changes).toEqual([{ field: 'netWeightG', before: 120, after: 150 }]);
  });

  it('refuses a JAN with a wrong check digit, in the caller’s language', async () => {
    const good = freshJan();
    const bad = good.slice(0, 12) + String((Number(good[12]) + 1) % 10);
    expect(isValidJan(bad)).toBe(false);
    const en = await create(demo, { jan: bad });
    expect(en.status).toBe(422);
    expect(en.body.data.jan[0]).toMatch(/check digit/);
    const zh = await create(demo, { jan: bad }, 'zh-CN');
    expect(zh.body.data.jan[0]).toMatch(/校验位/);
    // EAN-8 is a JAN too.
    const short = await create(demo, { jan: '49123457' });
    expect(isValidJan('49123457')).toBe(false);
    expect(short.status).toBe(422);
    const ean8 = await create(demo, { jan: '12345670' });
    expect(ean8.status).toBe(200);
  });

  it('refuses unknown reference values and a float-looking price with the field named', async () => {
    const r = await create(demo, { brandId: 9999, taxCode: 'NOPE', exportCategory: 'x' });
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.data).sort()).toEqual(['brandId', 'exportCategory', 'taxCode']);
    const price = await create(demo, { clearancePrice: '1e3' });
    expect(price.status).toBe(422);
    expect(price.body.data.clearancePrice).toHaveLength(1);
    const none = await create(demo, { categoryId: null, newCategory: '' });
    expect(none.body.data.categoryId[0]).toMatch(/category/);
  });

  it('an agent creates for its customer and must name it', async () => {
    const missing = await create(agent);
    expect(missing.status).toBe(422);
    expect(missing.body.data.customerId).toHaveLength(1);
    const demoId = (
      await h.db.selectFrom('customers').select('id').where('code', '=', 'DEMO').executeTakeFirstOrThrow()
    ).id;
    const made = await create(agent, { customerId: demoId });
    expect(made.data).toMatchObject({ customerCode: 'DEMO', status: 'pending' });
  });
});

describe('adjustments', () => {
  async function approvedItem() {
    const c = await create(demo);
    await aes(h, 'item/approve', { id: c.data.id }, operator);
    return c.data as C.ItemRow;
  }

  it('adjust → listed as not adopted → adopt applies the values and approves', async () => {
    const item = await approvedItem();
    const adj = await aes(
      h,
      'item/adjust',
      {
        id: item.id,
        changes: { nameEn: 'Facial cleanser', clearancePrice: '60', taxCode: '04020100' },
        note: '按海关归类',
      },
      operator,
    );
    expect(adj.status).toBe(200);
    expect(adj.data).toMatchObject({ status: 'pending', note: '按海关归类', adjustedBy: '演示操作员' });
    expect(adj.data.changes).toEqual([
      { field: 'nameEn', before: 'Test cleanser', after: 'Facial cleanser' },
      { field: 'clearancePrice', before: '45.50', after: '60.00' },
      { field: 'taxCode', before: '04010100', after: '04020100' },
    ]);

    // A second open adjustment of the same item is refused.
    const again = await aes(h, 'item/adjust', { id: item.id, changes: { specs: '150g' } }, operator);
    expect(again.status).toBe(409);

    const unAdopt = await aes(h, 'item/adj', { status: 'pending', limit: 100 }, demo);
    expect(unAdopt.data.list.map((a: any) => a.id)).toContain(adj.data.id);
    expect(unAdopt.data.list.every((a: any) => a.status === 'pending')).toBe(true);
    const listed = await aes(h, 'items', { hasPendingAdjustment: true, limit: 100 }, demo);
    expect(listed.data.list.find((r: any) => r.id === item.id)?.pendingAdjustments).toBe(1);

    const adopted = await aes(h, 'item/adopt', { id: adj.data.id }, demo);
    expect(adopted.data).toMatchObject({ nameEn: 'Facial cleanser', clearancePrice: '60.00', status: 'approved' });
    expect(adopted.data.tax.code).toBe('04020100');
    expect(adopted.data.pendingAdjustments).toBe(0);

    const twice = await aes(h, 'item/adopt', { id: adj.data.id }, demo);
    expect(twice.status).toBe(409);

    const detail = await aes(h, 'item', { id: item.id }, demo);
    expect(detail.data.history.map((e: any) => e.kind)).toEqual(['created', 'approved', 'adjusted', 'adopted']);
    expect(detail.data.adjustments[0]).toMatchObject({ status: 'adopted', decidedBy: '演示客户' });
    expect(detail.data.adjustments[0].decidedAt).toEqual(expect.any(String));
  });

  it('reject keeps the item’s data and records the reason', async () => {
    const item = await approvedItem();
    const adj = await aes(h, 'item/adjust', { id: item.id, changes: { origin: 'CN' } }, operator);
    const rejected = await aes(h, 'item/reject', { id: adj.data.id, reason: '原产地确为日本' }, demo);
    expect(rejected.data).toMatchObject({ status: 'rejected', decisionNote: '原产地确为日本', decidedBy: '演示客户' });
    const detail = await aes(h, 'item', { id: item.id }, demo);
    expect(detail.data).toMatchObject({ origin: 'JP', status: 'approved' });
    expect(detail.data.history.at(-1)).toMatchObject({ kind: 'rejected', note: '原产地确为日本' });
  });

  it('the customer’s own edit supersedes an open adjustment', async () => {
    const item = await approvedItem();
    const adj = await aes(h, 'item/adjust', { id: item.id, changes: { specs: '200g' } }, operator);
    await aes(h, 'item/update', { ...itemBody({ jan: item.jan }), id: item.id, specs: '130g' }, demo);
    const list = await aes(h, 'item/adj', { itemId: item.id }, demo);
    expect(list.data.list).toHaveLength(1);
    expect(list.data.list[0]).toMatchObject({ id: adj.data.id, status: 'superseded' });
    const adopt = await aes(h, 'item/adopt', { id: adj.data.id }, demo);
    expect(adopt.status).toBe(409);
  });

  it('two operators adjusting one item at the same moment: one adjustment, one 409', async () => {
    const admin = await h.login('admin');
    for (let round = 0; round < 3; round++) {
      const item = await approvedItem();
      const answers = await Promise.all(
        [operator, admin].map((token, i) =>
          aes(h, 'item/adjust', { id: item.id, changes: { specs: `${round}-${i}` } }, token),
        ),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      expect(answers.find((a) => a.status === 409)!.body.message).toMatch(/already has an adjustment waiting/);
      const open = await h.db
        .selectFrom('item_adjustments')
        .select('id')
        .where('item_id', '=', item.id)
        .where('status', '=', 'pending')
        .execute();
      expect(open).toHaveLength(1);
    }
  });

  it('an adjustment that changes nothing is refused', async () => {
    const item = await approvedItem();
    const r = await aes(h, 'item/adjust', { id: item.id, changes: { origin: 'JP' } }, operator);
    expect(r.status).toBe(422);
    expect(r.body.data.changes[0]).toMatch(/changes nothing/);
  });
});

describe('operators only review; customers only adopt', () => {
  it('approve, fail and adjust are 403 for a customer and an agent', async () => {
    const c = await create(demo);
    for (const token of [demo, agent]) {
      for (const [path, body] of [
        ['item/approve', { id: c.data.id }],
        ['item/fail', { id: c.data.id, reason: 'x' }],
        ['item/adjust', { id: c.data.id, changes: { specs: 'y' } }],
      ] as const) {
        const r = await aes(h, path, body, token);
        expect(r.status, path).toBe(403);
      }
    }
    const still = await aes(h, 'item', { id: c.data.id }, demo);
    expect(still.data.status).toBe('pending');
    expect(still.data.history).toHaveLength(1);
  });
  it('an operator does not adopt for the customer', async () => {
    const c = await create(demo);
    const adj = await aes(h, 'item/adjust', { id: c.data.id, changes: { specs: '1kg' } }, operator);
    const r = await aes(h, 'item/adopt', { id: adj.data.id }, operator);
    expect(r.status).toBe(403);
    expect(r.body.message).toMatch(/Only the customer/);
  });
});

describe('the item list filters, sorts and pages on the server', () => {
  it('name (any language), JAN, brand, category subtree, part, group, status, dates, sort, paging', async () => {
    const tag = `F${Date.now()}`;
    const a = await create(demo, { nameJa: `${tag} 洗顔`, brandId: 1, partId: 2, categoryId: 2, group: tag });
    const b = await create(demo, { nameEn: `${tag} rice cooker`, brandId: 11, categoryId: 20, group: tag });
    await aes(h, 'item/approve', { id: b.data.id }, operator);
    const ids = async (f: Record<string, unknown>) =>
      ((await aes(h, 'items', { limit: 100, ...f }, demo)).data.list as C.ItemRow[]).map((r) => r.id);

    expect((await ids({ name: tag })).sort()).toEqual([a.data.id, b.data.id].sort());
    expect(await ids({ name: `${tag.toLowerCase()} RICE` })).toEqual([b.data.id]);
    expect(await ids({ jan: a.data.jan.slice(0, 12) })).toContain(a.data.id);
    expect(await ids({ group: tag, brandId: 1 })).toEqual([a.data.id]);
    expect(await ids({ group: tag, partId: 2 })).toEqual([a.data.id]);
    // Category 1 is Cosmetics, the parent of 2: the subtree matches.
    expect(await ids({ group: tag, categoryId: 1 })).toEqual([a.data.id]);
    expect(await ids({ group: tag, status: 'approved' })).toEqual([b.data.id]);
    // A LIKE wildcard is a character, not a pattern.
    expect(await ids({ name: '%' })).toEqual([]);
    const today = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
    expect((await ids({ group: tag, dateFrom: today, dateTo: today })).length).toBe(2);
    expect(await ids({ group: tag, dateTo: '2020-01-01' })).toEqual([]);
    expect(await ids({ group: tag, sort: 'jan', order: 'asc' })).toEqual(
      [a.data, b.data].sort((x, y) => x.jan.localeCompare(y.jan)).map((x) => x.id),
    );
    const page = await aes(h, 'items', { group: tag, limit: 1, offset: 1, sort: 'createdAt', order: 'asc' }, demo);
    expect(page.data.total).toBe(2);
    expect(page.data.list.map((r: any) => r.id)).toEqual([b.data.id]);
  });

  it('serves the reference lists: parts, brands, a category tree, export categories, taxes', async () => {
    const parts = await aes(h, 'item/parts', {}, demo);
    expect(parts.data.length).toBeGreaterThan(3);
    const brands = await aes(h, 'item/brands', { keyword: 'shiseido' }, demo);
    expect(brands.data).toEqual([{ id: 1, name: { zh: '资生堂', en: 'Shiseido' } }]);
    const tree = await aes(h, 'item/categories', {}, demo);
    expect(tree.data[0]).toMatchObject({ id: 1, name: { en: 'Cosmetics' } });
    expect(tree.data[0].children.length).toBeGreaterThan(0);
    const ex = await aes(h, 'item/exportCategories', {}, demo);
    expect(ex.data.map((e: any) => e.code)).toContain('3304');
    const taxes = await aes(h, 'item/taxes', {}, demo, 'zh-CN');
    expect(taxes.data.find((t: any) => t.code === '01010700')).toEqual({
      code: '01010700',
      name: { zh: '婴幼儿配方奶粉', en: 'Infant formula' },
      unit: '千克',
      amount: '200',
      rate: '0.13',
    });
  });
});

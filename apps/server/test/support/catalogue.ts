import type { Harness } from '../harness.ts';

/** A catalogue entry written straight into the items table (a factory: the review calls are tested elsewhere). */
export async function catalogueItem(
  h: Harness,
  customerCode: string,
  jan: string,
  status: 'pending' | 'approved' | 'failed',
  over: { taxCode?: string | null; categoryEn?: string | null } = {},
) {
  const c = await h.db.selectFrom('customers').select('id').where('code', '=', customerCode).executeTakeFirstOrThrow();
  const u = await h.db.selectFrom('users').select('id').orderBy('id').executeTakeFirstOrThrow();
  const category = over.categoryEn
    ? await h.db
        .selectFrom('item_categories')
        .select('id')
        .where('name_en', '=', over.categoryEn)
        .executeTakeFirstOrThrow()
    : null;
  const at = new Date().toISOString();
  await h.db
    .insertInto('items')
    .values({
      customer_id: c.id,
      jan,
      name_zh: '测试商品',
      name_en: 'Test item',
      name_ja: 'テスト商品',
      specs: '100g',
      essentials: '',
      part_id: null,
      brand_id: null,
      category_id: category?.id ?? null,
      new_category: '',
      export_category: null,
      group_name: '',
      tariff: null,
      net_weight_g: 100,
      clearance_price: '50',
      declaration_price: '1000',
      origin: 'JP',
      tax_code: over.taxCode === undefined ? '04010100' : over.taxCode,
      image_file_id: null,
      status,
      reason: status === 'failed' ? 'test' : null,
      created_by: u.id,
      created_at: at,
      updated_at: at,
    })
    .execute();
}

import { eanCheckDigit } from '@console/contract';
import type { Database } from '../db/database.ts';

/**
 * Demo items for `demo` and `demo2` (embedded default only, called by seedDemo): for each,
 * approved, pending and failed items and one operator adjustment not adopted yet, so the
 * item list, the Failed To Pass Item List and the unAdopt page show something at once.
 */
const jan = (data12: string) => data12 + eanCheckDigit(data12);

const DEMO_ITEMS = [
  // nameZh, nameEn, nameJa, brandId, categoryId, taxCode, exportCategory, weight g, clearance CNY, declaration JPY, status
  [
    '资生堂 洗面奶 120g',
    'Shiseido facial foam 120g',
    '資生堂 洗顔フォーム 120g',
    1,
    2,
    '04010100',
    '3304',
    130,
    '58.00',
    '980.00',
    'approved',
  ],
  [
    '明治 奶粉 800g',
    'Meiji infant formula 800g',
    '明治 ほほえみ 800g',
    3,
    8,
    '01010700',
    '1901',
    900,
    '218.00',
    '2680.00',
    'approved',
  ],
  [
    '花王 纸尿裤 L 54片',
    'Kao diapers L 54',
    '花王 メリーズ L 54枚',
    2,
    12,
    '10010000',
    '9619',
    1500,
    '109.00',
    '1780.00',
    'pending',
  ],
  [
    '乐敦 眼药水 12ml',
    'Rohto eye drops 12ml',
    'ロート 目薬 12ml',
    8,
    17,
    '09020100',
    '3004',
    30,
    '32.00',
    '500.00',
    'failed',
  ],
  [
    '狮王 牙膏 150g',
    'Lion toothpaste 150g',
    'ライオン 歯磨き粉 150g',
    7,
    15,
    '10020000',
    '3306',
    170,
    '18.00',
    '298.00',
    'approved',
  ],
] as const;

export async function seedDemoItems(db: Database, now: Date): Promise<void> {
  const iso = now.toISOString();
  const users = await db.selectFrom('users').select(['id', 'name', 'customer_id']).execute();
  const operator = users.find((u) => u.name === 'operator')!.id;
  for (const [k, name] of (['demo', 'demo2'] as const).entries()) {
    const user = users.find((u) => u.name === name)!;
    const customerId = user.customer_id!;
    for (const [
      i,
      [zh, en, ja, brand, category, tax, exportCategory, weight, price, declared, status],
    ] of DEMO_ITEMS.entries()) {
      const created = new Date(now.getTime() - (DEMO_ITEMS.length - i) * 3_600_000).toISOString();
      const item = await db
        .insertInto('items')
        .values({
          customer_id: customerId,
          jan: jan(`49${k + 1}0000000${String(i + 1).padStart(2, '0')}`),
          name_zh: zh,
          name_en: en,
          name_ja: ja,
          specs: '',
          essentials: `品牌：${en.split(' ')[0]}；用途：个人使用`,
          part_id: 1,
          brand_id: brand,
          category_id: category,
          new_category: '',
          export_category: exportCategory,
          group_name: '',
          tariff: null,
          net_weight_g: weight,
          clearance_price: price,
          declaration_price: declared,
          origin: 'JP',
          tax_code: tax,
          image_file_id: null,
          status,
          reason: status === 'failed' ? '药品需提供成分说明 / Medicines need an ingredient list' : null,
          created_by: user.id,
          created_at: created,
          updated_at: created,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const events: { kind: string; user_id: number; note: string | null; status: string }[] = [
        { kind: 'created', user_id: user.id, note: null, status: 'pending' },
      ];
      if (status !== 'pending')
        events.push({
          kind: status,
          user_id: operator,
          note: status === 'failed' ? '药品需提供成分说明 / Medicines need an ingredient list' : null,
          status,
        });
      await db
        .insertInto('item_events')
        .values(events.map((e) => ({ ...e, item_id: item.id, changes: '[]', at: created })))
        .execute();
      // The first approved item carries an adjustment waiting for the customer.
      if (i === 0) {
        const changes = [{ field: 'clearancePrice', before: price, after: '65.00' }];
        await db
          .insertInto('item_adjustments')
          .values({
            item_id: item.id,
            customer_id: customerId,
            status: 'pending',
            changes: JSON.stringify(changes),
            note: '按完税价格表调整 / Adjusted to the dutiable value table',
            adjusted_by: operator,
            adjusted_at: iso,
          })
          .execute();
        await db
          .insertInto('item_events')
          .values({
            item_id: item.id,
            kind: 'adjusted',
            user_id: operator,
            note: '按完税价格表调整 / Adjusted to the dutiable value table',
            status: 'approved',
            changes: JSON.stringify(changes),
            at: iso,
          })
          .execute();
      }
    }
  }
}

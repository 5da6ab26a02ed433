import type { Kysely } from 'kysely';
import { types } from '../dialect.ts';

/**
 * The item catalogue (issue 12): items with their clearance data, the history of every
 * review step, operators' adjustments, and the reference lists the item form picks from
 * (parts, brands, a category tree, Japanese export categories, tax codes). Prices are
 * decimal strings (text), never floats; adjustment and event changes are JSON text.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  const id = (c: any) => c.primaryKey();

  await db.schema
    .createTable('item_parts')
    .addColumn('id', t.id, id)
    .addColumn('name_zh', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('item_brands')
    .addColumn('id', t.id, id)
    .addColumn('name_zh', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text', (c) => c.notNull())
    .execute();
  // `path` is the ids from the root, '/1/4/': a subtree filter is one LIKE on an index.
  await db.schema
    .createTable('item_categories')
    .addColumn('id', t.id, id)
    .addColumn('parent_id', 'integer', (c) => c.references('item_categories.id'))
    .addColumn('name_zh', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('item_export_categories')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('name_zh', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('item_taxes')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('name_zh', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text', (c) => c.notNull())
    .addColumn('unit_zh', 'text', (c) => c.notNull())
    .addColumn('unit_en', 'text', (c) => c.notNull())
    .addColumn('amount', 'text', (c) => c.notNull())
    .addColumn('rate', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('items')
    .addColumn('id', t.id, id)
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id'))
    .addColumn('jan', 'text', (c) => c.notNull())
    .addColumn('name_zh', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text', (c) => c.notNull())
    .addColumn('name_ja', 'text', (c) => c.notNull())
    .addColumn('specs', 'text', (c) => c.notNull())
    .addColumn('essentials', 'text', (c) => c.notNull())
    .addColumn('part_id', 'integer', (c) => c.references('item_parts.id'))
    .addColumn('brand_id', 'integer', (c) => c.references('item_brands.id'))
    .addColumn('category_id', 'integer', (c) => c.references('item_categories.id'))
    .addColumn('new_category', 'text', (c) => c.notNull())
    .addColumn('export_category', 'text', (c) => c.references('item_export_categories.code'))
    .addColumn('group_name', 'text', (c) => c.notNull())
    .addColumn('tariff', 'text')
    .addColumn('net_weight_g', 'integer', (c) => c.notNull())
    .addColumn('clearance_price', 'text', (c) => c.notNull())
    .addColumn('declaration_price', 'text', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('tax_code', 'text', (c) => c.references('item_taxes.code'))
    .addColumn('image_file_id', 'integer', (c) => c.references('files.id'))
    // pending | approved | failed
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('created_by', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .execute();
  // One JAN per customer: the constraint settles two simultaneous creates (one wins, one 422).
  await db.schema.createIndex('items_customer_jan').unique().on('items').columns(['customer_id', 'jan']).execute();
  await db.schema.createIndex('items_customer_created').on('items').columns(['customer_id', 'created_at']).execute();
  await db.schema.createIndex('items_status_created').on('items').columns(['status', 'created_at']).execute();

  await db.schema
    .createTable('item_events')
    .addColumn('id', t.id, id)
    .addColumn('item_id', 'integer', (c) => c.notNull().references('items.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('note', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('changes', 'text', (c) => c.notNull())
    .addColumn('at', t.time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('item_events_item').on('item_events').columns(['item_id', 'id']).execute();

  await db.schema
    .createTable('item_adjustments')
    .addColumn('id', t.id, id)
    .addColumn('item_id', 'integer', (c) => c.notNull().references('items.id'))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id'))
    // pending | adopted | rejected | superseded
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('changes', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('adjusted_by', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('adjusted_at', t.time, (c) => c.notNull())
    .addColumn('decided_by', 'integer', (c) => c.references('users.id'))
    .addColumn('decided_at', t.time)
    .addColumn('decision_note', 'text')
    .execute();
  await db.schema
    .createIndex('item_adjustments_customer_status')
    .on('item_adjustments')
    .columns(['customer_id', 'status', 'id'])
    .execute();
  await db.schema.createIndex('item_adjustments_item').on('item_adjustments').columns(['item_id', 'status']).execute();

  await seedReference(db);

  // Item detail, edit and the unadopted adjustments for every role that had the item list;
  // approving, failing and adjusting for operators only.
  const everyone = ['item.info', 'item.update', 'unAdopt'];
  await db
    .insertInto('role_permissions')
    .values([
      ...['customer', 'agent', 'operator'].flatMap((role) => everyone.map((route_name) => ({ role, route_name }))),
      { role: 'operator', route_name: 'item.review' },
    ])
    .execute();
}

async function seedReference(db: Kysely<any>) {
  await db
    .insertInto('item_parts')
    .values(
      [
        ['整件', 'Whole product'],
        ['主体', 'Main body'],
        ['配件', 'Accessory'],
        ['替换装', 'Refill'],
        ['包装', 'Packaging'],
        ['套装组件', 'Set component'],
      ].map(([name_zh, name_en]) => ({ name_zh, name_en })),
    )
    .execute();
  await db
    .insertInto('item_brands')
    .values(
      [
        ['资生堂', 'Shiseido'],
        ['花王', 'Kao'],
        ['明治', 'Meiji'],
        ['SK-II', 'SK-II'],
        ['DHC', 'DHC'],
        ['尤妮佳', 'Unicharm'],
        ['狮王', 'Lion'],
        ['乐敦', 'Rohto'],
        ['高丝', 'Kosé'],
        ['无印良品', 'MUJI'],
        ['象印', 'Zojirushi'],
        ['虎牌', 'Tiger'],
      ].map(([name_zh, name_en]) => ({ name_zh, name_en })),
    )
    .execute();
  const tree: [string, string, [string, string][]][] = [
    [
      '化妆品',
      'Cosmetics',
      [
        ['护肤品', 'Skin care'],
        ['彩妆', 'Make-up'],
        ['洗发护发', 'Hair care'],
      ],
    ],
    [
      '食品',
      'Food',
      [
        ['婴幼儿配方奶粉', 'Infant formula'],
        ['保健食品', 'Health food'],
        ['零食', 'Snacks'],
      ],
    ],
    [
      '母婴用品',
      'Baby products',
      [
        ['纸尿裤', 'Diapers'],
        ['奶瓶', 'Feeding bottles'],
      ],
    ],
    [
      '日用品',
      'Household goods',
      [
        ['口腔护理', 'Oral care'],
        ['厨房用品', 'Kitchenware'],
      ],
    ],
    [
      '药品',
      'Medicines',
      [
        ['眼药', 'Eye drops'],
        ['外用药', 'Topical medicines'],
      ],
    ],
    [
      '家用电器',
      'Home appliances',
      [
        ['保温杯', 'Vacuum flasks'],
        ['电饭煲', 'Rice cookers'],
      ],
    ],
  ];
  for (const [zh, en, children] of tree) {
    const root = await db
      .insertInto('item_categories')
      .values({ parent_id: null, name_zh: zh, name_en: en, path: '' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .updateTable('item_categories')
      .set({ path: `/${root.id}/` })
      .where('id', '=', root.id)
      .execute();
    for (const [czh, cen] of children) {
      const c = await db
        .insertInto('item_categories')
        .values({ parent_id: root.id, name_zh: czh, name_en: cen, path: '' })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .updateTable('item_categories')
        .set({ path: `/${root.id}/${c.id}/` })
        .where('id', '=', c.id)
        .execute();
    }
  }
  await db
    .insertInto('item_export_categories')
    .values(
      [
        ['3304', '美容品、化妆品', 'Beauty or make-up preparations'],
        ['3305', '护发用品', 'Preparations for use on the hair'],
        ['3306', '口腔卫生用品', 'Preparations for oral hygiene'],
        ['1901', '婴幼儿食品', 'Food preparations for infants'],
        ['2106', '其他食品', 'Food preparations n.e.s.'],
        ['3004', '药品', 'Medicaments'],
        ['9619', '卫生巾、尿布', 'Sanitary towels and napkins'],
        ['9617', '保温瓶', 'Vacuum flasks'],
        ['8516', '电热器具', 'Electro-thermic appliances'],
      ].map(([code, name_zh, name_en]) => ({ code, name_zh, name_en })),
    )
    .execute();
  // Postal articles tax codes (行邮税号): dutiable value per unit (CNY) and rate.
  await db
    .insertInto('item_taxes')
    .values(
      [
        ['01010700', '婴幼儿配方奶粉', 'Infant formula', '千克', 'kg', '200', '0.13'],
        ['01019900', '其他食品', 'Other food', '千克', 'kg', '100', '0.13'],
        ['09010100', '保健食品', 'Health food', '瓶', 'bottle', '200', '0.13'],
        ['09020100', '药品', 'Medicines', '件', 'piece', '100', '0.13'],
        ['04010100', '护肤品', 'Skin care', '瓶', 'bottle', '300', '0.20'],
        ['04020100', '彩妆', 'Make-up', '件', 'piece', '200', '0.20'],
        ['04990000', '高档化妆品', 'Luxury cosmetics', '瓶', 'bottle', '1000', '0.50'],
        ['10010000', '纸尿裤', 'Diapers', '包', 'pack', '100', '0.13'],
        ['10020000', '日用品', 'Household goods', '件', 'piece', '50', '0.13'],
        ['06010100', '家用电器', 'Home appliances', '台', 'unit', '500', '0.20'],
      ].map(([code, name_zh, name_en, unit_zh, unit_en, amount, rate]) => ({
        code,
        name_zh,
        name_en,
        unit_zh,
        unit_en,
        amount,
        rate,
      })),
    )
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db
    .deleteFrom('role_permissions')
    .where('route_name', 'in', ['item.info', 'item.update', 'unAdopt', 'item.review'])
    .execute();
  for (const table of [
    'item_adjustments',
    'item_events',
    'items',
    'item_taxes',
    'item_export_categories',
    'item_categories',
    'item_brands',
    'item_parts',
  ])
    await db.schema.dropTable(table).execute();
}

import { seedDemoBills } from './bills.ts';
import type { Database } from '../db/database.ts';
import { hashPassword } from '../lib/crypto.ts';
import { seedDemoClearance } from './clearance.ts';
import { seedDemoItems } from './items.ts';
import { seedDemoLabelB } from './label-b.ts';
import { seedDemoMda } from './mda.ts';
import { seedDemoOrderReviews } from './order-reviews.ts';
import { seedDemoOrders } from './orders.ts';
import { seedDemoMeituan } from './meituan.ts';
import { seedDemoPickups } from './pickups.ts';
import { seedDemoStorage } from './storage.ts';
import { seedDemoTaxEstimates } from './tax.ts';

/**
 * Demo data for the embedded default (never in production): four accounts, two
 * customers, a few hundred orders across channels and statuses (orders.ts), and notices.
 * Deterministic (seeded PRNG) so screenshots and tests see the same data.
 */
export const DEMO_PASSWORD = 'Demo@2026';
export const DEMO_ACCOUNTS = [
  { name: 'demo', role: 'customer', display: '演示客户' },
  { name: 'demo2', role: 'customer', display: '第二客户' },
  { name: 'agent', role: 'agent', display: '演示代理' },
  { name: 'operator', role: 'operator', display: '演示操作员' },
  { name: 'admin', role: 'admin-none', display: '管理员' },
] as const;

/** Returns false when the demo data is already there. */
export async function seedDemo(db: Database, opts: { orders?: number } = {}): Promise<boolean> {
  const exists = await db.selectFrom('users').select('id').where('name', '=', 'demo').executeTakeFirst();
  if (exists) return false;
  const now = new Date();
  const iso = now.toISOString();
  const hash = await hashPassword(DEMO_PASSWORD);
  await db.transaction().execute(async (trx) => {
    const ids: Record<string, number> = {};
    for (const a of DEMO_ACCOUNTS) {
      const row = await trx
        .insertInto('users')
        .values({
          name: a.name,
          display_name: a.display,
          password_hash: hash,
          role: a.role,
          customer_id: null,
          created_at: iso,
          password_changed_at: iso,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids[a.name] = row.id;
    }
    const customers: number[] = [];
    for (const [code, name, user] of [
      ['DEMO', '演示商贸株式会社', 'demo'],
      ['DEMO2', '第二物产株式会社', 'demo2'],
    ] as const) {
      const c = await trx
        .insertInto('customers')
        .values({ code, name, agent_user_id: ids.agent!, created_at: iso })
        .returning('id')
        .executeTakeFirstOrThrow();
      customers.push(c.id);
      await trx.updateTable('users').set({ customer_id: c.id }).where('id', '=', ids[user]!).execute();
      await trx
        .insertInto('export_nominations')
        .values({
          customer_id: c.id,
          name_ja: `${name}`,
          name_en: `${code} Trading Co., Ltd.`,
          corporate_number: '7000012050002',
          address_en: '1-10-1 Nagatacho, Chiyoda-ku, Tokyo',
          tel: '03-1234-5678',
          created_at: iso,
        })
        .execute();
      // Two more per customer (export nominations pages, issue 13): one with an ID mark and a
      // receive email, so the list has something to filter, sort and page.
      const more =
        code === 'DEMO'
          ? [
              [
                '演示商贸 大阪支店',
                'DEMO Trading Osaka Branch',
                '9010401012345',
                '2-1-1 Umeda, Kita-ku, Osaka',
                '06-6345-0001',
                'OSK',
                'export-osaka@demo.example',
              ],
              [
                '演示物流合同会社',
                'DEMO Logistics LLC',
                '1120001054321',
                '3-5-7 Hakata-ku, Fukuoka',
                '092-111-2222',
                '',
                '',
              ],
            ]
          : [
              [
                '第二物产 名古屋営業所',
                'DAINI Bussan Nagoya Office',
                '1011001098765',
                '4-4-1 Meieki, Nakamura-ku, Nagoya',
                '052-555-0101',
                'NGY',
                'docs@demo2.example',
              ],
              [
                '第二物产 札幌倉庫',
                'DAINI Bussan Sapporo Warehouse',
                '6180001023456',
                '1-2 Kita 5-jo, Chuo-ku, Sapporo',
                '011-222-3333',
                '',
                '',
              ],
            ];
      await trx
        .insertInto('export_nominations')
        .values(
          more.map(([ja, en, corp, address, tel, mark, email]) => ({
            customer_id: c.id,
            name_ja: ja!,
            name_en: en!,
            corporate_number: corp!,
            address_en: address!,
            tel: tel!,
            id_mark: mark!,
            receive_email: email!,
            created_at: iso,
          })),
        )
        .execute();
    }

    await seedDemoOrders(trx, { now, iso }, { ids, customers }, opts.orders ?? 360);

    const notices = [
      ['系统升级通知', 'System upgrade', '本周六 02:00–04:00 系统维护。', 'Maintenance on Saturday 02:00–04:00.', 0],
      [
        '跨境电商零售进口限额',
        'Cross-border retail import limits',
        '单次交易限值人民币5000元，个人年度交易限值人民币26000元。',
        'CNY 5,000 per transaction and CNY 26,000 per person per year.',
        1,
      ],
      [
        '春节期间收货安排',
        'Receiving during the Spring Festival',
        '春节期间仓库暂停收货。',
        'The warehouse pauses receiving during the Spring Festival.',
        0,
      ],
    ] as const;
    for (const [tz, te, cz, ce, must] of notices) {
      const n = await trx
        .insertInto('notices')
        .values({
          title_zh: tz,
          title_en: te,
          content_zh: cz,
          content_en: ce,
          must_agree: must,
          published_at: iso,
          created_by: ids.operator!,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // Demo users have read and agreed to the seeded notices, so ordering works at once.
      await trx
        .insertInto('notice_reads')
        .values(Object.values(ids).map((user_id) => ({ notice_id: n.id, user_id, read_at: iso, agreed_at: iso })))
        .execute();
    }
  });
  await seedDemoItems(db, now);
  await seedDemoOrderReviews(db, now);
  await seedDemoTaxEstimates(db);
  await seedDemoClearance(db, now);
  await seedDemoStorage(db, now);
  await seedDemoMeituan(db, now);
  await seedDemoPickups(db, now);
  await seedDemoLabelB(db, now);
  await seedDemoMda(db);
  await seedDemoBills(db, now);
  return true;
}

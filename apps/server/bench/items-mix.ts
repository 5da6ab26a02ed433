/**
 * The item-list traffic of bench:items (issue 12): several users and generated filters, as
 * bench/orders-mix.ts does for orders, and the words the seeded catalogue is made of, so a
 * name or JAN filter finds what a user would find. Shared by the bench (seeding, sizing the
 * bare answer) and the load generator (bench/orders-load.ts loads it by name).
 */
export interface ItemsMixConfig {
  /** Access tokens; `customer` is the seeded customer index (JAN digit) of a customer user. */
  tokens: { role: string; token: string; customer?: number }[];
  /** Customer ids an operator or agent may narrow to. */
  customerIds: number[];
  /** Epoch ms the data was generated around (creation days are the 365 before it). */
  now: number;
  /** Seeded items per customer index (JANs are 45 + index + the 9-digit sequence + check digit). */
  perCustomer: number[];
  /** The load generator's mix module and whether it seals requests (bench/orders-load.ts). */
  generator: string;
  aes: boolean;
}

/** Brands as migration 2026-11-24T0400 seeds them (ids 1–12), with their Japanese names. */
export const BRANDS: [number, string, string, string][] = [
  [1, '资生堂', 'Shiseido', '資生堂'],
  [2, '花王', 'Kao', '花王'],
  [3, '明治', 'Meiji', '明治'],
  [4, 'SK-II', 'SK-II', 'SK-II'],
  [5, 'DHC', 'DHC', 'DHC'],
  [6, '尤妮佳', 'Unicharm', 'ユニ・チャーム'],
  [7, '狮王', 'Lion', 'ライオン'],
  [8, '乐敦', 'Rohto', 'ロート'],
  [9, '高丝', 'Kosé', 'コーセー'],
  [10, '无印良品', 'MUJI', '無印良品'],
  [11, '象印', 'Zojirushi', '象印'],
  [12, '虎牌', 'Tiger', 'タイガー'],
];
/** Product kinds: zh, en, ja, leaf category id (migration's tree), tax code, export category, sizes. */
export const KINDS: [string, string, string, number, string, string, string[]][] = [
  ['洗面奶', 'facial foam', '洗顔フォーム', 2, '04010100', '3304', ['120g', '150g', '50g']],
  ['化妆水', 'lotion', '化粧水', 2, '04010100', '3304', ['200ml', '150ml']],
  ['精华液', 'essence', '美容液', 2, '04990000', '3304', ['30ml', '50ml']],
  ['面霜', 'cream', 'クリーム', 2, '04010100', '3304', ['50g', '30g']],
  ['防晒霜', 'sunscreen', '日焼け止め', 2, '04010100', '3304', ['60ml', '90ml']],
  ['口红', 'lipstick', '口紅', 3, '04020100', '3304', ['#01', '#05', '#12']],
  ['粉底液', 'foundation', 'ファンデーション', 3, '04020100', '3304', ['30ml']],
  ['洗发水', 'shampoo', 'シャンプー', 4, '04010100', '3305', ['500ml', '1000ml', '詰替 400ml']],
  ['护发素', 'conditioner', 'コンディショナー', 4, '04010100', '3305', ['500ml']],
  ['奶粉', 'infant formula', '粉ミルク', 6, '01010700', '1901', ['800g', '300g']],
  ['维生素', 'vitamins', 'ビタミン', 7, '09010100', '2106', ['60粒', '90粒', '120粒']],
  ['饼干', 'biscuits', 'ビスケット', 8, '01019900', '2106', ['12枚', '24枚']],
  ['巧克力', 'chocolate', 'チョコレート', 8, '01019900', '2106', ['50g', '120g']],
  ['纸尿裤', 'diapers', 'おむつ', 10, '10010000', '9619', ['S 82片', 'M 64片', 'L 54片', 'XL 44片']],
  ['奶瓶', 'feeding bottle', '哺乳瓶', 11, '10020000', '9617', ['160ml', '240ml']],
  ['牙膏', 'toothpaste', '歯磨き粉', 13, '10020000', '3306', ['150g', '90g']],
  ['牙刷', 'toothbrush', '歯ブラシ', 13, '10020000', '3306', ['3本', '1本']],
  ['保鲜盒', 'food container', '保存容器', 14, '10020000', '9617', ['1L', '500ml']],
  ['眼药水', 'eye drops', '目薬', 16, '09020100', '3004', ['12ml', '15ml']],
  ['药膏', 'ointment', '軟膏', 17, '09020100', '3004', ['15g', '30g']],
  ['保温杯', 'vacuum flask', '水筒', 19, '06010100', '9617', ['350ml', '480ml', '600ml']],
  ['电饭煲', 'rice cooker', '炊飯器', 20, '06010100', '8516', ['3合', '5.5合', '1升']],
];
/** Category ids (the migration's tree): roots and leaves. */
export const CATEGORIES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20];

/** What a user types into the name box: a product or brand word in one of the three languages. */
const NAME_WORDS = [
  ...KINDS.flatMap(([zh, en, ja]) => [zh, en, ja]),
  ...BRANDS.flatMap(([, zh, en, ja]) => [zh, en, ja]),
  'Shiseido facial',
  '洗顔',
];
const SORTS = ['updatedAt', 'jan', 'nameZh', 'status'];
const STATUSES = ['approved', 'approved', 'pending', 'pending', 'failed'];

/** The seeded item of one customer index and sequence number: 12 digits before the check digit. */
export const janBody = (customer: number, seq: number) => `45${customer}${String(seq).padStart(9, '0')}`;

export function mix(cfg: ItemsMixConfig, random: () => number = Math.random) {
  const pick = <T>(a: readonly T[]): T => a[Math.floor(random() * a.length)]!;
  const day = (daysAgo: number) => new Date(cfg.now + 8 * 3_600_000 - daysAgo * 86_400_000).toISOString().slice(0, 10);
  /** One request: a user and a generated body. */
  return () => {
    const user = pick(cfg.tokens);
    // Pages 1–5, most people on the first; 20 rows a page, or 50.
    const r = random();
    const page = r < 0.6 ? 0 : r < 0.8 ? 1 : Math.floor(random() * 5);
    const limit = random() < 0.75 ? 20 : 50;
    const body: Record<string, unknown> = {
      offset: page * limit,
      limit,
      sort: random() < 0.75 ? 'createdAt' : pick(SORTS),
      order: random() < 0.85 ? 'desc' : 'asc',
    };
    if (random() < 0.35) body.status = pick(STATUSES);
    if (random() < 0.15) body.brandId = pick(BRANDS)[0];
    if (random() < 0.12) body.categoryId = pick(CATEGORIES);
    if (random() < 0.3) {
      const from = Math.floor(random() * 365);
      body.dateFrom = day(from);
      body.dateTo = day(Math.max(0, from - pick([0, 1, 7, 30, 90])));
    }
    // The keyword box: a JAN typed or pasted (a prefix of one of the caller's items), or a name.
    const k = random();
    if (k < 0.1) {
      const customer = user.customer ?? Math.floor(random() * cfg.perCustomer.length);
      const seq = Math.floor(random() * (cfg.perCustomer[customer] ?? 1));
      body.jan = janBody(customer, seq).slice(0, pick([4, 6, 8, 10, 12]));
    } else if (k < 0.2) body.name = pick(NAME_WORDS);
    if (user.role !== 'customer' && random() < 0.3) body.customerId = pick(cfg.customerIds);
    return { token: user.token, body };
  };
}

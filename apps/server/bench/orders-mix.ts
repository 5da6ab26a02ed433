/**
 * The order-list traffic of bench:orders (issue 10, finding 21): many users and generated
 * filters, so the answer cache is hit only as often as real traffic would hit it. Nine fixed
 * bodies with one token made every request after the ninth a cache hit.
 * Shared by the bench (to size the bare answer) and the load generator.
 */
export interface MixConfig {
  /** Access tokens: several customers, the agent, the operator; each request picks one. */
  tokens: { role: string; token: string }[];
  /** Customer ids an operator or agent may narrow to. */
  customerIds: number[];
  /** Epoch ms the data was generated around (dates are the 180 days before it). */
  now: number;
  /** Seeded orders (order and waybill numbers are BN/WB + the index). */
  orders: number;
}

const STATUSES = ['created', 'printed', 'received', 'shipped', 'released', 'cancelled'];
const CHANNELS = ['JP', 'EMS', 'USA', 'SG', 'AU', 'UK', 'PH', 'TH'];
/** Other sorts than the default (newest first), chosen by a fifth of the requests. */
const SORTS = ['orderNo', 'waybillNo', 'status', 'printCount', 'channel'];
const NAMES = [...'伟芳娜敏静丽强磊'].map((c) => `王${c}`);

export function mix(cfg: MixConfig, random: () => number = Math.random) {
  const pick = <T>(a: readonly T[]): T => a[Math.floor(random() * a.length)]!;
  const day = (daysAgo: number) => new Date(cfg.now + 8 * 3_600_000 - daysAgo * 86_400_000).toISOString().slice(0, 10);
  const index = () => Math.floor(random() * cfg.orders);
  /** One request: a user and a generated body. */
  return () => {
    const user = pick(cfg.tokens);
    // Most people look at the first pages, newest first; some page deep or sort otherwise.
    const pageNo = random() < 0.85 ? Math.floor(random() * 3) : Math.floor(random() * 50);
    const limit = pick([20, 20, 20, 20, 20, 20, 20, 50, 50, 100]);
    const body: Record<string, unknown> = {
      offset: pageNo * limit,
      limit,
      sort: random() < 0.8 ? 'createdAt' : pick(SORTS),
      order: random() < 0.9 ? 'desc' : 'asc',
    };
    if (random() < 0.4) body.status = pick(STATUSES);
    if (random() < 0.25) body.channel = pick(CHANNELS);
    if (random() < 0.4) {
      const from = Math.floor(random() * 180);
      body.dateFrom = day(from);
      body.dateTo = day(Math.max(0, from - pick([0, 1, 7, 30, 90])));
    }
    if (random() < 0.08) body.intercepted = true;
    if (random() < 0.08) body.printFlag = random() < 0.5;
    // Keywords: a recipient, a phone, pasted order or waybill numbers.
    const k = random();
    if (k < 0.08) body.recipientName = pick(NAMES);
    else if (k < 0.14) body.recipientPhone = `138${String(index() % 1e8).padStart(8, '0')}`;
    else if (k < 0.22) {
      body.noType = random() < 0.5 ? 'orderNo' : 'waybillNo';
      const prefix = body.noType === 'orderNo' ? 'BN' : 'WB';
      const width = body.noType === 'orderNo' ? 9 : 11;
      body.numbers = Array.from(
        { length: 1 + Math.floor(random() * 5) },
        () => `${prefix}${String(index()).padStart(width, '0')}`,
      ).join('\n');
    }
    if (user.role !== 'customer' && random() < 0.3) body.customerId = pick(cfg.customerIds);
    return { token: user.token, body };
  };
}

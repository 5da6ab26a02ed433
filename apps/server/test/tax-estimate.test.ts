import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CatalogueEntry,
  estimateTax,
  fenText,
  mulDiv,
  type TaxRegime,
} from '../src/domain/pricing/tax-estimate.ts';
import { loadChannelTax } from '../src/domain/pricing/order-price.ts';
import { mayReceive } from '../src/domain/recipient-eligibility.ts';
import { createHarness, type Harness } from './harness.ts';
import { baseRow, download, fill, idCard, jan, settle, template, upload } from './batches/helpers.ts';
import { catalogueItem } from './support/catalogue.ts';
import { validRecipient } from './support/orders.ts';

/**
 * Issue 12 "Tax estimate": each order's tax under its channel's regime, from the items'
 * catalogue tax data, with the regimes' rates and limits read from the database —
 * cross-border e-commerce retail import (duty 0, VAT 13 % and consumption tax at 70 %, CNY
 * 5,000 per order) or postal articles tax (13/20/50 % by tax code, waived at CNY 50 or less) —
 * and the CNY 26,000 yearly limit per recipient over every customer's orders, answered only as
 * "would exceed".
 */
let h: Harness;
let demo: string;
let demo2: string;
let cbec: TaxRegime;
let postal: TaxRegime;
const currencies = new Map([
  ['JPY', 0],
  ['CNY', 2],
]);

beforeAll(async () => {
  h = await createHarness();
  [demo, demo2] = await Promise.all(['demo', 'demo2'].map((n) => h.login(n)));
  const channels = await loadChannelTax(h.db);
  cbec = channels.get('JP')!.regime!;
  postal = channels.get('EMS')!.regime!;
});

const approved = (postalRate: string | null, consumptionRate: string | null = null): CatalogueEntry => ({
  status: 'approved',
  postalRate,
  consumptionRate,
});
const J1 = jan(820_001);

describe('the regimes, as the migration seeds them', () => {
  it('reads rates and limits from data', () => {
    expect(cbec).toMatchObject({
      code: 'cbec',
      dutyRate: '0',
      vatRate: '0.13',
      levyShare: '0.70',
      orderLimit: '5000.00',
      yearlyLimit: '26000.00',
    });
    expect(postal).toMatchObject({ code: 'postal', waiver: '50.00', yearlyLimit: null });
  });

  // [name, regime, item (unit price in minor units, currency, quantity), catalogue entry, expected]
  const cases: [
    string,
    () => TaxRegime,
    { unitPrice: number; currency: string; quantity: number },
    CatalogueEntry | undefined,
    Partial<ReturnType<typeof estimateTax> & object>,
  ][] = [
    // JPY 10,000 = CNY 480.00; VAT 62.40 × 70 % = 43.68.
    [
      'cbec, VAT only at 70 %',
      () => cbec,
      { unitPrice: 10_000, currency: 'JPY', quantity: 1 },
      approved('0.20'),
      {
        valueFen: 48_000,
        vatFen: 4_368,
        consumptionFen: 0,
        dutyFen: 0,
        totalFen: 4_368,
        overOrderLimit: false,
        incomplete: false,
      },
    ],
    // Consumption tax 15 %: 480 × 0.15 / 0.85 = 84.71; VAT (480 + 84.71) × 13 % = 73.41; each × 70 %.
    [
      'cbec, consumption tax where the category has one',
      () => cbec,
      { unitPrice: 10_000, currency: 'JPY', quantity: 1 },
      approved('0.20', '0.15'),
      { valueFen: 48_000, consumptionFen: 5_930, vatFen: 5_139, totalFen: 11_069 },
    ],
    // Quantity counts: 3 × JPY 10,000.
    [
      'cbec, quantity',
      () => cbec,
      { unitPrice: 10_000, currency: 'JPY', quantity: 3 },
      approved(null),
      { valueFen: 144_000, vatFen: 13_104, totalFen: 13_104 },
    ],
    // Exactly CNY 5,000 is within the limit; 70 % applies.
    [
      'cbec, at the CNY 5,000 limit',
      () => cbec,
      { unitPrice: 500_000, currency: 'CNY', quantity: 1 },
      approved(null),
      { valueFen: 500_000, vatFen: 45_500, overOrderLimit: false },
    ],
    // A fen over: no longer a cross-border retail import, taxed at full rates.
    [
      'cbec, over the CNY 5,000 limit',
      () => cbec,
      { unitPrice: 500_001, currency: 'CNY', quantity: 1 },
      approved(null),
      { valueFen: 500_001, vatFen: 65_000, overOrderLimit: true },
    ],
    // Not in the catalogue: VAT still known, consumption tax unknown.
    [
      'cbec, unknown item',
      () => cbec,
      { unitPrice: 10_000, currency: 'JPY', quantity: 1 },
      undefined,
      { vatFen: 4_368, incomplete: true },
    ],
    // Postal 13 %: 480 × 13 % = 62.40, above 50: collected.
    [
      'postal 13 %',
      () => postal,
      { unitPrice: 10_000, currency: 'JPY', quantity: 1 },
      approved('0.13'),
      { postalFen: 6_240, totalFen: 6_240, waived: false },
    ],
    [
      'postal 20 %',
      () => postal,
      { unitPrice: 10_000, currency: 'JPY', quantity: 1 },
      approved('0.20'),
      { postalFen: 9_600, totalFen: 9_600 },
    ],
    [
      'postal 50 %',
      () => postal,
      { unitPrice: 10_000, currency: 'JPY', quantity: 1 },
      approved('0.50'),
      { postalFen: 24_000, totalFen: 24_000 },
    ],
    // CNY 250 × 20 % = exactly 50: waived.
    [
      'postal, CNY 50 is waived',
      () => postal,
      { unitPrice: 25_000, currency: 'CNY', quantity: 1 },
      approved('0.20'),
      { postalFen: 5_000, totalFen: 0, waived: true },
    ],
    [
      'postal, CNY 50.01 is collected',
      () => postal,
      { unitPrice: 25_005, currency: 'CNY', quantity: 1 },
      approved('0.20'),
      { postalFen: 5_001, totalFen: 5_001, waived: false },
    ],
    [
      'postal, pending item has no tax data',
      () => postal,
      { unitPrice: 10_000, currency: 'JPY', quantity: 1 },
      { status: 'pending', postalRate: '0.50', consumptionRate: null },
      { postalFen: 0, totalFen: 0, incomplete: true },
    ],
  ];
  it.each(cases)('%s', (_name, regime, item, entry, expected) => {
    const entries = new Map(entry ? [[J1, entry]] : []);
    const e = estimateTax({ items: [{ jan: J1, ...item }] }, regime(), entries, currencies);
    expect(e).not.toBeNull();
    expect(e).toMatchObject(expected);
  });

  it('no regime, no estimate; money is integers', () => {
    expect(
      estimateTax({ items: [{ jan: J1, unitPrice: 1, quantity: 1, currency: 'JPY' }] }, null, new Map(), currencies),
    ).toBeNull();
    expect(fenText(11_069)).toBe('110.69');
    expect(fenText(5)).toBe('0.05');
    // Past 2^53 the product is exact through BigInt.
    expect(mulDiv(9_000_000_000_000, 10_000, 10_000)).toBe(9_000_000_000_000);
  });

  it('the yearly limit: over CNY 26,000, not at it', () => {
    const over = (regime: TaxRegime, earlierFen: number, orderFen: number) =>
      mayReceive({ yearly: { limit: regime.yearlyLimit, earlierFen, orderFen } }).overYearlyLimit;
    expect(over(cbec, 2_500_000, 100_000)).toBe(false);
    expect(over(cbec, 2_500_000, 100_001)).toBe(true);
    expect(over(postal, 99_999_999, 1)).toBe(false);
  });
});

const order = (channel: string, idCardNo: string, unitPrice: string, jans: string[] = [jan(820_100)]) => ({
  channel,
  orderNo: `TAX${Math.random().toString(36).slice(2, 10).toUpperCase()}`,
  recipient: { ...validRecipient, idCard: idCardNo },
  sender: { name: 'DEMO Trading', address: 'Tokyo', phone: '03-1234-5678' },
  items: jans.map((j) => ({ jan: j, name: '商品', quantity: 1, unitPrice })),
  confirm: ['crossBorderLimit'],
});

describe('demo seed', () => {
  it('demo and demo2 orders carry the estimate of their channel; a channel without a regime none', async () => {
    const rows = await h.db
      .selectFrom('orders as o')
      .innerJoin('customers as c', 'c.id', 'o.customer_id')
      .select(['c.code', 'o.channel_code', 'o.tax_estimate'])
      .where('c.code', 'in', ['DEMO', 'DEMO2'])
      .execute();
    const jp = rows.filter((r) => r.channel_code === 'JP');
    expect(new Set(jp.map((r) => r.code))).toEqual(new Set(['DEMO', 'DEMO2']));
    for (const r of jp) expect(r.tax_estimate).toMatch(/^\d+\.\d{2}$/);
    for (const r of rows.filter((x) => x.channel_code === 'USD')) expect(r.tax_estimate).toBeNull();
  });
});

describe('through the API', () => {
  it('single create, order detail and the order list export carry the estimate; rates changed in data apply', async () => {
    const makeUp = jan(820_010);
    const luxury = jan(820_011);
    await catalogueItem(h, 'DEMO', makeUp, 'approved', { taxCode: '04020100', categoryEn: 'Make-up' });
    await catalogueItem(h, 'DEMO', luxury, 'approved', { taxCode: '04990000' });
    const id = idCard('19800101', '110105', '301');

    const c = await h.post('order/createImport', order('JP', id, '10000', [makeUp]), demo);
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    expect(c.body.data.taxEstimate).toEqual({
      regime: 'cbec',
      value: '480.00',
      duty: '0.00',
      vat: '51.39',
      consumption: '59.30',
      postal: '0.00',
      total: '110.69',
      waived: false,
      overOrderLimit: false,
      incomplete: false,
    });
    const d = await h.post('order/order', { id: c.body.data.id }, demo);
    expect(d.body.data.taxEstimate).toMatchObject({ total: '110.69' });

    const p = await h.post('order/createImport', order('EMS', id, '10000', [luxury]), demo);
    expect(p.body.data.taxEstimate).toMatchObject({ regime: 'postal', postal: '240.00', total: '240.00' });

    // The 70 % is data: a new share applies to the next estimate, no release.
    await h.db.updateTable('tax_regimes').set({ levy_share: '1' }).where('code', '=', 'cbec').execute();
    try {
      const full = await h.post('order/order', { id: c.body.data.id }, demo);
      expect(full.body.data.taxEstimate).toMatchObject({ vat: '73.41', consumption: '84.71', total: '158.12' });
    } finally {
      await h.db.updateTable('tax_regimes').set({ levy_share: '0.70' }).where('code', '=', 'cbec').execute();
    }

    const x = await download(h, 'order/downloadOrderExcel', demo, {
      sort: 'createdAt',
      order: 'desc',
      numbers: c.body.data.orderNo,
    });
    expect(x.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(x.data as never);
    const ws = wb.worksheets[0]!;
    const header = (ws.getRow(1).values as unknown[]).slice(1);
    const col = header.findIndex((t) => t === '预估税费 (CNY)' || t === 'Tax estimate (CNY)') + 1;
    expect(col).toBeGreaterThan(0);
    const rows: Record<string, unknown> = {};
    ws.eachRow((r, n) => {
      if (n > 1) rows[String(r.getCell(1).value)] = r.getCell(col).value;
    });
    expect(rows[c.body.data.orderNo]).toBe(110.69);
  });

  it('the yearly limit sums every customer’s orders by ID number, answers only "would exceed"', async () => {
    const id = idCard('19820202', '110105', '402');
    // The item is in both catalogues: the only warnings left are the limit's.
    await catalogueItem(h, 'DEMO', jan(820_100), 'approved');
    await catalogueItem(h, 'DEMO2', jan(820_100), 'approved');
    // demo2 sends the recipient 5 × JPY 100,000 = CNY 24,000 this year.
    const theirs: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await h.post('order/createImport', order('JP', id, '100000'), demo2);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.data.warnings).toEqual([]);
      theirs.push(r.body.data.orderNo);
    }
    // demo: + CNY 1,440 = 25,440, within; then + CNY 960 = 26,400, past it.
    const within = await h.post('order/createImport', order('JP', id, '30000'), demo);
    expect(within.body.data.warnings).toEqual([]);
    const past = await h.post('order/createImport', order('JP', id, '20000'), demo, { 'accept-language': 'en' });
    expect(past.status).toBe(200);
    expect(past.body.data.warnings).toEqual([
      {
        kind: 'yearlyLimit',
        field: 'recipient.idCard',
        message: 'This order would take the recipient past the CNY 26,000 yearly cross-border shopping limit.',
      },
    ]);
    // An update that moves an order onto this recipient is told as well (it was not checked).
    const other = idCard('19830303', '110105', '403');
    const moved = await h.post('order/createImport', order('JP', other, '1000'), demo);
    expect(moved.body.data.warnings).toEqual([]);
    const { confirm: _c, orderNo: _n, channel: _ch, ...body } = order('JP', id, '1000');
    const upd = await h.post('order/order/update', { id: moved.body.data.id, ...body }, demo, {
      'accept-language': 'en',
    });
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    expect(upd.body.data.warnings.map((w: { kind: string }) => w.kind)).toEqual(['yearlyLimit']);
    // Its own value is not counted twice: back to the other recipient, no warning.
    const back = await h.post(
      'order/order/update',
      { id: moved.body.data.id, ...body, recipient: { ...body.recipient, idCard: other } },
      demo,
    );
    expect(back.body.data.warnings).toEqual([]);
    const zh = await h.post('order/createImport', order('JP', id, '1000'), demo, { 'accept-language': 'zh-CN' });
    expect(zh.body.data.warnings[0].message).toBe('该订单将使收件人超过跨境电商个人年度交易限值 26,000 元。');
    // Nothing of the others' orders leaks: no sum, no order number.
    const text = JSON.stringify([past.body.data.warnings, zh.body.data.warnings, past.body.data.taxEstimate]);
    for (const s of ['24000', '24,000', '25440', '26400', ...theirs]) expect(text).not.toContain(s);

    // A postal-channel order does not count and is not checked.
    const ems = await catalogueItem(h, 'DEMO', jan(820_200), 'approved').then(() =>
      h.post('order/createImport', order('EMS', id, '100000', [jan(820_200)]), demo),
    );
    expect(ems.status).toBe(200);
    expect(ems.body.data.warnings).toEqual([]);

    // Last year's orders do not count.
    const lastYear = new Date(Date.UTC(new Date().getUTCFullYear() - 1, 5, 1)).toISOString();
    await h.db.updateTable('orders').set({ created_at: lastYear }).where('order_no', 'in', theirs).execute();
    const fresh = await h.post('order/createImport', order('JP', id, '20000'), demo);
    expect(fresh.body.data.warnings).toEqual([]);
  });

  it('a batch preview flags the order that passes the limit, its own earlier rows counted', async () => {
    const id = idCard('19830303', '110105', '503');
    // demo2: 4 × CNY 4,800 = 19,200.
    for (let i = 0; i < 4; i++)
      expect((await h.post('order/createImport', order('JP', id, '100000'), demo2)).status).toBe(200);
    const tpl = await template(h, demo, 'download/importOrder');
    // demo's sheet: CNY 4,800 (24,000: within), then another 4,800 (28,800: past).
    const rows = [
      baseRow(821_001, { orderNo: 'TAXB1', recipientIdCard: id, quantity: 1, unitPrice: 100_000 }),
      baseRow(821_002, { orderNo: 'TAXB2', boxNo: 'BOX-2', recipientIdCard: id, quantity: 1, unitPrice: 100_000 }),
    ];
    const up = await upload(
      h,
      'order/batch/createImport',
      demo,
      { channel: 'JP' },
      { name: 't.xlsx', data: await fill(tpl, rows) },
    );
    expect(up.status).toBe(200);
    const p = await settle(h, demo, up.body.data.id);
    expect(p).toMatchObject({ status: 'preview', invalidRows: 0, orderCount: 2 });
    expect(p.orderNotes.map((o: any) => [o.orderNo, o.yearlyLimit])).toEqual([
      ['TAXB1', false],
      ['TAXB2', true],
    ]);
    expect(p.orderNotes[1].messages).toContain(
      'This order would take the recipient past the CNY 26,000 yearly cross-border shopping limit.',
    );
    // Each order's estimate: JPY 100,000 = CNY 4,800, VAT 624 × 70 % = 436.80; unknown item.
    expect(p.orderNotes[0].taxEstimate).toMatchObject({
      regime: 'cbec',
      value: '4800.00',
      total: '436.80',
      incomplete: true,
    });
    expect(p.notesSummary).toMatchObject({ yearlyLimitOrders: 1, taxTotal: '873.60', taxedOrders: 2 });
    expect(JSON.stringify([p.orderNotes, p.notesSummary])).not.toContain('19200');
    // Stored with each order as it is made.
    await h.post('order/batch/confirm', { id: p.id, confirmations: [] }, demo);
    expect((await settle(h, demo, p.id)).status).toBe('done');
    const stored = await h.db
      .selectFrom('orders')
      .select(['order_no', 'tax_estimate'])
      .where('batch_id', '=', p.id)
      .orderBy('order_no')
      .execute();
    expect(stored).toEqual([
      { order_no: 'TAXB1', tax_estimate: '436.80' },
      { order_no: 'TAXB2', tax_estimate: '436.80' },
    ]);
  });
});

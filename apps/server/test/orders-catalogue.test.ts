import { beforeAll, describe, expect, it } from 'vitest';
import { batches } from '@console/contract';
import { createHarness, type Harness } from './harness.ts';
import { baseRow, fill, jan, settle, template, upload } from './batches/helpers.ts';
import { catalogueItem } from './support/catalogue.ts';
import { validRecipient } from './support/orders.ts';

/**
 * Issue 12 "Orders use the catalogue": every order item whose JAN is not approved in the
 * customer's own catalogue is marked (unknown, pending, failed) on batch preview, single
 * create and update — a warning, or a refusal (422 per item field) on a channel that takes
 * registered items only (EMS in the seed). Another customer's approved item does not count.
 */
let h: Harness;
let demo: string;
const J = {
  approved: jan(810_001),
  pending: jan(810_002),
  failed: jan(810_003),
  unknown: jan(810_004),
  /** Approved in demo2's catalogue, not demo's. */
  demo2: jan(810_005),
};
const en = { 'accept-language': 'en' };
const zh = { 'accept-language': 'zh-CN' };
let n = 0;
const body = (channel: string, jans: string[]) => ({
  channel,
  orderNo: `CAT${Date.now() % 1e7}${n++}`,
  recipient: validRecipient,
  sender: { name: 'DEMO Trading', address: 'Tokyo', phone: '03-1234-5678' },
  items: jans.map((j, i) => ({ jan: j, name: `商品${i}`, quantity: 1, unitPrice: '1500' })),
});

beforeAll(async () => {
  h = await createHarness();
  demo = await h.login('demo');
  await catalogueItem(h, 'DEMO', J.approved, 'approved');
  await catalogueItem(h, 'DEMO', J.pending, 'pending');
  await catalogueItem(h, 'DEMO', J.failed, 'failed');
  await catalogueItem(h, 'DEMO2', J.demo2, 'approved');
});

describe('single create and order detail', () => {
  it('marks unknown, pending and failed items with a warning and makes the order; detail shows each status', async () => {
    const r = await h.post(
      'order/createImport',
      body('JP', [J.approved, J.pending, J.failed, J.unknown, J.demo2]),
      demo,
      en,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const warnings = r.body.data.warnings as { kind: string; field: string; message: string }[];
    expect(warnings.map((w) => [w.kind, w.field])).toEqual([
      ['catalogue', 'items.1.jan'],
      ['catalogue', 'items.2.jan'],
      ['catalogue', 'items.3.jan'],
      ['catalogue', 'items.4.jan'],
    ]);
    expect(warnings[0]!.message).toBe(`JAN ${J.pending} is still awaiting review in the item catalogue.`);
    expect(warnings[1]!.message).toBe(`JAN ${J.failed} failed review in the item catalogue.`);
    expect(warnings[2]!.message).toBe(`JAN ${J.unknown} is not in the customer’s item catalogue.`);
    // demo2's approved item says nothing about demo's catalogue.
    expect(warnings[3]!.message).toBe(`JAN ${J.demo2} is not in the customer’s item catalogue.`);

    const d = await h.post('order/order', { id: r.body.data.id }, demo);
    expect(d.body.data.items.map((i: any) => [i.jan, i.catalogueStatus])).toEqual([
      [J.approved, 'approved'],
      [J.pending, 'pending'],
      [J.failed, 'failed'],
      [J.unknown, 'unknown'],
      [J.demo2, 'unknown'],
    ]);
    expect(d.body.data.taxEstimate).toMatchObject({ regime: 'cbec', incomplete: true });
  });

  it('an order of approved items only has no warning, in either language', async () => {
    for (const lang of [en, zh]) {
      const r = await h.post('order/createImport', body('JP', [J.approved]), demo, lang);
      expect(r.status).toBe(200);
      expect(r.body.data.warnings).toEqual([]);
    }
    const r = await h.post('order/createImport', body('JP', [J.unknown]), demo, zh);
    expect(r.body.data.warnings[0].message).toBe(`JAN ${J.unknown} 不在该客户的商品备案中。`);
  });

  it('a channel that needs registered items refuses the others with the field and reason (422), both languages', async () => {
    const ok = await h.post('order/createImport', body('EMS', [J.approved]), demo, en);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data.taxEstimate).toMatchObject({ regime: 'postal' });

    const before = await h.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const r = await h.post(
      'order/createImport',
      body('EMS', [J.approved, J.unknown, J.pending, J.failed, J.demo2]),
      demo,
      en,
    );
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.data).sort()).toEqual(['items.1.jan', 'items.2.jan', 'items.3.jan', 'items.4.jan']);
    expect(r.body.data['items.1.jan'][0]).toBe(
      `This channel takes approved catalogue items only: JAN ${J.unknown} is not in the item catalogue.`,
    );
    expect(r.body.data['items.2.jan'][0]).toMatch(/still awaiting review/);
    expect(r.body.data['items.3.jan'][0]).toMatch(/failed review/);
    expect(r.body.data['items.4.jan'][0]).toMatch(/not in the item catalogue/);
    const z = await h.post('order/createImport', body('EMS', [J.demo2]), demo, zh);
    expect(z.status).toBe(422);
    expect(z.body.data['items.0.jan'][0]).toBe(`该渠道只接受已备案通过的商品：JAN ${J.demo2} 不在商品备案中。`);
    const after = await h.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('the setting is data: turned off, the same order is made with warnings', async () => {
    await h.db
      .updateTable('channel_tax_settings')
      .set({ requires_registered_items: 0 })
      .where('channel_code', '=', 'EMS')
      .execute();
    try {
      const r = await h.post('order/createImport', body('EMS', [J.unknown]), demo, en);
      expect(r.status).toBe(200);
      expect(r.body.data.warnings.map((w: any) => w.field)).toEqual(['items.0.jan']);
    } finally {
      await h.db
        .updateTable('channel_tax_settings')
        .set({ requires_registered_items: 1 })
        .where('channel_code', '=', 'EMS')
        .execute();
    }
  });
});

describe('order update', () => {
  it('warns on changed items, refuses them on a channel that needs registered items', async () => {
    const c = await h.post('order/createImport', body('JP', [J.approved]), demo, en);
    const upd = (id: number, jans: string[]) => ({
      id,
      recipient: validRecipient,
      sender: { name: 'DEMO Trading', address: 'Tokyo', phone: '03-1234-5678' },
      items: jans.map((j, i) => ({ jan: j, name: `商品${i}`, quantity: 1, unitPrice: '1500' })),
    });
    const u = await h.post('order/order/update', upd(c.body.data.id, [J.approved, J.failed]), demo, en);
    expect(u.status, JSON.stringify(u.body)).toBe(200);
    expect(u.body.data.warnings.map((w: any) => [w.field, w.message])).toEqual([
      ['items.1.jan', `JAN ${J.failed} failed review in the item catalogue.`],
    ]);
    const stored = await h.db
      .selectFrom('orders')
      .select('tax_estimate')
      .where('id', '=', c.body.data.id)
      .executeTakeFirstOrThrow();
    expect(stored.tax_estimate).toMatch(/^\d+\.\d{2}$/);

    const e = await h.post('order/createImport', body('EMS', [J.approved]), demo, en);
    const refused = await h.post('order/order/update', upd(e.body.data.id, [J.approved, J.pending]), demo, en);
    expect(refused.status).toBe(422);
    expect(Object.keys(refused.body.data)).toEqual(['items.1.jan']);
    const items = await h.db.selectFrom('order_items').select('jan').where('order_id', '=', e.body.data.id).execute();
    expect(items.map((i) => i.jan)).toEqual([J.approved]);
  });
});

describe('batch preview', () => {
  it('lists each order item not approved in the catalogue; an approved one is not flagged', async () => {
    const tpl = await template(h, demo, 'download/importOrder');
    const rows = [
      baseRow(811_001, { jan: J.approved, orderNo: 'CATB1' }),
      baseRow(811_002, { jan: J.pending, orderNo: 'CATB2', boxNo: 'BOX-2' }),
      baseRow(811_003, { jan: J.failed, orderNo: 'CATB3', boxNo: 'BOX-3' }),
      baseRow(811_004, { jan: J.unknown, orderNo: 'CATB4', boxNo: 'BOX-4' }),
      baseRow(811_005, { jan: J.demo2, orderNo: 'CATB5', boxNo: 'BOX-5' }),
    ];
    const up = await upload(
      h,
      'order/batch/createImport',
      demo,
      { channel: 'JP' },
      { name: 'o.xlsx', data: await fill(tpl, rows) },
    );
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const p = await settle(h, demo, up.body.data.id);
    expect(p).toMatchObject({ status: 'preview', invalidRows: 0, orderCount: 5 });
    const notes = p.orderNotes as { orderNo: string; items: { jan: string; status: string }[]; messages: string[] }[];
    expect(notes.map((o) => [o.orderNo, o.items.map((i) => i.status)])).toEqual([
      ['CATB1', []],
      ['CATB2', ['pending']],
      ['CATB3', ['failed']],
      ['CATB4', ['unknown']],
      ['CATB5', ['unknown']],
    ]);
    expect(notes[0]!.messages).toEqual([]);
    expect(notes[3]!.messages).toEqual([`JAN ${J.unknown} is not in the customer’s item catalogue.`]);
    expect(p.notesSummary).toMatchObject({ unregisteredItems: 4, taxedOrders: 5 });
    // Warnings do not stop the import.
    expect((await h.post('order/batch/confirm', { id: p.id, confirmations: [] }, demo)).status).toBe(200);
    expect((await settle(h, demo, p.id)).status).toBe('done');
  });

  it('an EMS sheet refuses rows whose JAN is not approved, with the reason per row', async () => {
    const tpl = await template(h, demo, batches.templates.ems.path);
    const rows = [
      baseRow(812_001, { jan: J.approved, orderNo: 'CATE1', unitPrice: 1250 }),
      baseRow(812_002, { jan: J.unknown, orderNo: 'CATE2', unitPrice: 1250 }),
      baseRow(812_003, { jan: J.demo2, orderNo: 'CATE3', unitPrice: 1250 }),
    ];
    const up = await upload(
      h,
      'order/batch/createEmsImport',
      demo,
      {},
      { name: 'e.xlsx', data: await fill(tpl, rows) },
    );
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const p = await settle(h, demo, up.body.data.id);
    expect(p).toMatchObject({ status: 'preview', invalidRows: 2, orderCount: 1 });
    expect(p.errors.map((e: any) => [e.row, e.columnTitle, e.message])).toEqual([
      [4, 'JAN', `This channel takes approved catalogue items only: JAN ${J.unknown} is not in the item catalogue.`],
      [5, 'JAN', `This channel takes approved catalogue items only: JAN ${J.demo2} is not in the item catalogue.`],
    ]);
  });
});

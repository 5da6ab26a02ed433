import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type HttpClient, listening } from '../harness.ts';
import { createOrder, jpOrderBody } from '../support/orders.ts';

/**
 * Issue 28 #3: the last save no longer wins. Two saves of one order from the version both were
 * loaded from go truly in parallel over HTTP (not app.inject), on SQLite and on PostgreSQL
 * (TEST_DATABASE_URL): exactly one lands, the other is a 409 carrying the order as it is now.
 */
let h: Harness;
let http: HttpClient;
let demo: string;

beforeAll(async () => {
  h = await createHarness();
  http = await listening(h.app);
  demo = await h.login('demo');
});

const call = (path: string, body: unknown, lang = 'en') => http.post(path, body, demo, { 'accept-language': lang });
const detailOf = async (id: number) => (await call('order/order', { id })).body.data;
const save = (d: any, address: string, version?: number) =>
  call('order/order/update', {
    id: d.id,
    recipient: { ...d.recipient, address },
    sender: d.sender,
    remark: d.remark,
    confirm: ['minorId', 'crossBorderLimit', 'multiplePricesPerJan'],
    ...(version === undefined ? {} : { version }),
  });
const storedAddress = async (id: number) =>
  (await h.db.selectFrom('orders').select('recipient_address').where('id', '=', id).executeTakeFirstOrThrow())
    .recipient_address;

describe('order versions', () => {
  it('the detail carries a version, and a save answers the next one', async () => {
    const o = await createOrder(call, demo, jpOrderBody('VER'));
    const d = await detailOf(o.id);
    expect(d.version).toEqual(expect.any(Number));
    const r = await save(d, '文三路1号', d.version);
    expect(r.status).toBe(200);
    expect(r.body.data.version).toBeGreaterThan(d.version);
    expect((await detailOf(o.id)).version).toBe(r.body.data.version);
    // The answered version is the one to save from next.
    expect((await save(d, '文三路2号', r.body.data.version)).status).toBe(200);
  });

  it('two saves from one version sent together: exactly one lands, the other is a 409 with the winner', async () => {
    for (let i = 0; i < 8; i++) {
      const o = await createOrder(call, demo, jpOrderBody('VERP'));
      const d = await detailOf(o.id);
      const answers = await Promise.all([save(d, `甲路${i}号`, d.version), save(d, `乙路${i}号`, d.version)]);
      const won = answers.filter((a) => a.status === 200);
      const lost = answers.filter((a) => a.status === 409);
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      const winner = answers[0]!.status === 200 ? `甲路${i}号` : `乙路${i}号`;
      expect(await storedAddress(o.id)).toBe(winner);
      expect(lost[0]!.body.message).toMatch(/changed this record/);
      expect(lost[0]!.body.data.current.recipient.address).toBe(winner);
      expect(lost[0]!.body.data.version).toBe(won[0]!.body.data.version);
    }
  });

  it('a save from an old version after another save is a 409 in the caller language, with the order now', async () => {
    const o = await createOrder(call, demo, jpOrderBody('VERO'));
    const d = await detailOf(o.id);
    expect((await save(d, '先到路1号', d.version)).status).toBe(200);
    const stale = await save(d, '后到路2号', d.version);
    expect(stale.status).toBe(409);
    expect(stale.body.message).toMatch(/changed this record/);
    expect(stale.body.data.current.recipient.address).toBe('先到路1号');
    expect(stale.body.data.version).toBe((await detailOf(o.id)).version);
    expect(await storedAddress(o.id)).toBe('先到路1号');
    const zh = await call(
      'order/order/update',
      {
        id: d.id,
        recipient: d.recipient,
        sender: d.sender,
        confirm: ['minorId', 'crossBorderLimit'],
        version: d.version,
      },
      'zh-CN',
    );
    expect(zh.status).toBe(409);
    expect(zh.body.message).toMatch(/其他人已修改/);
  });

  it('any other write (a flag) bumps the version, so a form loaded before it is stale', async () => {
    const o = await createOrder(call, demo, jpOrderBody('VERF'));
    const d = await detailOf(o.id);
    expect((await call('order/setFlag', { ids: [o.id], flag: 'pushS', value: true })).status).toBe(200);
    expect((await detailOf(o.id)).version).toBeGreaterThan(d.version);
    expect((await save(d, '旗路1号', d.version)).status).toBe(409);
  });

  it('order lines: two line saves from one order version sent together, exactly one lands', async () => {
    for (let i = 0; i < 6; i++) {
      const o = await createOrder(call, demo, jpOrderBody('VERL'));
      const d = await detailOf(o.id);
      const line = d.items[0];
      const saveLine = (name: string) =>
        call('order/item/update', {
          id: line.id,
          name,
          quantity: line.quantity,
          unitPrice: line.unitPrice,
          confirm: ['multiplePricesPerJan', 'crossBorderLimit'],
          orderVersion: d.version,
        });
      const answers = await Promise.all([saveLine(`甲品${i}`), saveLine(`乙品${i}`)]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      const winner = answers[0]!.status === 200 ? `甲品${i}` : `乙品${i}`;
      const lost = answers.find((a) => a.status === 409)!;
      expect(lost.body.data.current.items[0].name).toBe(winner);
      const stored = await h.db.selectFrom('order_items').select('name').where('id', '=', line.id).executeTakeFirst();
      expect(stored?.name).toBe(winner);
      // A line added from the old version is refused too.
      const added = await call('order/item/create', {
        orderId: o.id,
        name: '新品',
        quantity: 1,
        unitPrice: '100',
        confirm: ['multiplePricesPerJan', 'crossBorderLimit'],
        orderVersion: d.version,
      });
      expect(added.status).toBe(409);
    }
  });

  it('the API document declares the 409 on the calls that take a version', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    // Error answers are shared responses (issue 30 #5): a versioned save's 409 is the stale one.
    expect(doc.components.responses.E409Stale.description).toMatch(/stale `version`/i);
    for (const path of ['order/order/update', 'order/item/update', 'item/update', 'export/update'])
      expect(doc.paths[`/api/${path}`].post.responses[409].$ref).toBe('#/components/responses/E409Stale');
    expect(doc.paths['/api/order/order/delete'].post.responses[409].$ref).toBe('#/components/responses/E409');
  });

  it('a save without a version (the spec call) still lands: the last save wins for such clients', async () => {
    const o = await createOrder(call, demo, jpOrderBody('VERN'));
    const d = await detailOf(o.id);
    expect((await save(d, '无版本路1号')).status).toBe(200);
    expect((await save(d, '无版本路2号')).status).toBe(200);
    expect(await storedAddress(o.id)).toBe('无版本路2号');
  });
});

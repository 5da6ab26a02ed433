import type { AddressInfo } from 'node:net';
import { allCalls, items as C } from '@console/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { openResponse, sealRequest } from './aes-client.ts';
import { createHarness, type Harness } from './harness.ts';
import { aes, fetchImage, freshJan, itemBody, jpeg, outsider, png, uploadImage } from './items/helpers.ts';

/**
 * Issue 12 security: the tenant matrix (demo2 reads, changes, adopts and downloads nothing of
 * demo's by any id; an agent only its customers'), AES on the whole item group, images checked
 * by content, and the JAN race (unique per customer, settled by the database).
 */
let h: Harness;
let demo: string;
let demo2: string;
let agent: string;
let operator: string;
let other: { customerId: number; token: string };

beforeAll(async () => {
  h = await createHarness();
  [demo, demo2, agent, operator] = await Promise.all(['demo', 'demo2', 'agent', 'operator'].map((n) => h.login(n)));
  other = await outsider(h);
});

describe('tenant matrix', () => {
  it('demo2 reads, changes, adopts, rejects and downloads nothing of demo’s, by any id', async () => {
    const up = await uploadImage(h, demo, { name: 'a.png', data: png(40, 30) });
    expect(up.status).toBe(200);
    const item = (await aes(h, 'item/create', itemBody({ imageId: up.data.imageId }), demo)).data as C.ItemRow;
    expect(item.imageId).toBe(up.data.imageId);
    const adj = await aes(h, 'item/adjust', { id: item.id, changes: { specs: '99g' } }, operator);
    const adj2 = await aes(
      h,
      'item/adjust',
      { id: (await aes(h, 'item/create', itemBody(), demo)).data.id, changes: { specs: '1g' } },
      operator,
    );

    expect((await aes(h, 'item', { id: item.id }, demo2)).status).toBe(404);
    const upd = await aes(h, 'item/update', { ...itemBody({ jan: item.jan }), id: item.id, nameZh: '被改了' }, demo2);
    expect(upd.status).toBe(404);
    expect((await aes(h, 'item/adopt', { id: adj.data.id }, demo2)).status).toBe(404);
    expect((await aes(h, 'item/reject', { id: adj2.data.id }, demo2)).status).toBe(404);
    expect((await fetchImage(h, demo2, up.data.imageId)).status).toBe(404);
    // Someone else's image id cannot be attached to one's own item either.
    const steal = await aes(h, 'item/create', itemBody({ imageId: up.data.imageId }), demo2);
    expect(steal.status).toBe(422);
    expect(steal.body.data.imageId).toHaveLength(1);
    // Acting for demo by naming its customer id is refused.
    const asDemo = await aes(h, 'item/create', itemBody({ customerId: item.customerId }), demo2);
    expect(asDemo.status).toBe(422);
    expect(asDemo.body.data.customerId).toHaveLength(1);

    const lists = await aes(h, 'items', { limit: 500 }, demo2);
    expect(lists.data.list.some((r: any) => r.customerId === item.customerId)).toBe(false);
    const byCustomer = await aes(h, 'items', { customerId: item.customerId, limit: 500 }, demo2);
    expect(byCustomer.data.total).toBe(0);
    const adjs = await aes(h, 'item/adj', { limit: 500 }, demo2);
    expect(adjs.data.list.some((a: any) => a.customerId === item.customerId)).toBe(false);

    // Nothing changed.
    const after = await aes(h, 'item', { id: item.id }, demo);
    expect(after.data).toMatchObject({ nameZh: item.nameZh, pendingAdjustments: 1 });
    expect(after.data.adjustments.map((a: any) => a.status)).toEqual(['pending']);
    // The owner and operators see the image.
    const mine = await fetchImage(h, demo, up.data.imageId);
    expect(mine.status).toBe(200);
    expect(mine.type).toBe('image/png');
    expect(Buffer.compare(mine.bytes, png(40, 30))).toBe(0);
    expect((await fetchImage(h, operator, up.data.imageId)).status).toBe(200);
  });

  it('an agent sees and changes its customers’ items, and nothing of a customer outside its book', async () => {
    const demoItem = (await aes(h, 'item/create', itemBody(), demo)).data as C.ItemRow;
    const up = await uploadImage(h, other.token, { name: 'o.jpg', data: jpeg(100, 80) });
    expect(up.data).toMatchObject({ mime: 'image/jpeg', width: 100, height: 80 });
    const outItem = (await aes(h, 'item/create', itemBody({ imageId: up.data.imageId }), other.token))
      .data as C.ItemRow;
    const outAdj = await aes(h, 'item/adjust', { id: outItem.id, changes: { specs: 'x' } }, operator);

    expect((await aes(h, 'item', { id: demoItem.id }, agent)).status).toBe(200);
    const changed = await aes(
      h,
      'item/update',
      { ...itemBody({ jan: demoItem.jan }), id: demoItem.id, specs: '代理修改' },
      agent,
    );
    expect(changed.data.specs).toBe('代理修改');

    expect((await aes(h, 'item', { id: outItem.id }, agent)).status).toBe(404);
    expect((await aes(h, 'item/update', { ...itemBody({ jan: outItem.jan }), id: outItem.id }, agent)).status).toBe(
      404,
    );
    expect((await aes(h, 'item/adopt', { id: outAdj.data.id }, agent)).status).toBe(404);
    expect((await fetchImage(h, agent, up.data.imageId)).status).toBe(404);
    const list = await aes(h, 'items', { limit: 500 }, agent);
    const customers = new Set(list.data.list.map((r: any) => r.customerCode));
    expect(customers.has('DEMO')).toBe(true);
    expect(customers.has('OUTSIDER')).toBe(false);
    const upForOther = await uploadImage(
      h,
      agent,
      { name: 'x.png', data: png(20, 20) },
      { customerId: other.customerId },
    );
    expect(upForOther.status).toBe(422);
    // The outsider's own item is untouched and its owner sees its image.
    expect((await aes(h, 'item', { id: outItem.id }, other.token)).data.specs).toBe('120g');
    expect((await fetchImage(h, other.token, up.data.imageId)).status).toBe(200);
  });
});

describe('AES on the whole item group', () => {
  const itemCalls = allCalls.filter((c) => c.path === 'items' || c.path === 'item' || c.path.startsWith('item/'));
  it('every item call is marked AES in the contract and the OpenAPI document', async () => {
    expect(itemCalls.length).toBeGreaterThanOrEqual(17);
    expect(itemCalls.every((c) => c.aes)).toBe(true);
    const doc = (await h.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    for (const c of itemCalls) expect(doc.paths[`/api/${c.path}`].post['x-aes'], c.path).toBe(true);
  });
  it.each(itemCalls.filter((c) => c.kind === 'json').map((c) => [c.path, c]))(
    '%s: a plain body is 400',
    async (_p, call) => {
      // An operator holds every item permission, so the refusal is the envelope's, not a 403.
      const plain = await h.post(call.path, {}, operator);
      expect(plain.status).toBe(400);
      expect(plain.body.message).toMatch(/encrypted/);
      // A sealed body without the header is refused too.
      expect((await h.post(call.path, sealRequest(operator, {}), operator)).status).toBe(400);
    },
  );
  it('answers travel sealed: no plain data in the envelope', async () => {
    const r = await h.post('items', sealRequest(demo, {}), demo, { aes: '1' });
    expect(r.status).toBe(200);
    expect(r.headers.aes).toBe('1');
    expect(typeof r.body.data).toBe('string');
    // Field names in quotes: base64 has no quote, so a random run of 'jan' in the ciphertext cannot
    // match (unquoted, a few runs in a hundred failed on one).
    expect(JSON.stringify(r.body)).not.toMatch(/"nameZh"|"jan"/);
    const opened = openResponse(demo, r.body) as any;
    // The demo's catalogue is seeded, so the same check on the opened answer matches: the one above can fail.
    expect(opened.list.length).toBeGreaterThan(0);
    expect(JSON.stringify(opened)).toMatch(/"nameZh"|"jan"/);
  });
  it('the image upload and download refuse plain fields too', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/item/image',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${demo}` },
      payload: JSON.stringify({ imageId: 1 }),
    });
    expect(res.statusCode).toBe(400);
    const { multipart } = await import('./harness.ts');
    const m = multipart({}, { name: 'a.png', data: png(20, 20) });
    const up = await h.app.inject({
      method: 'POST',
      url: '/api/item/image/upload',
      headers: { 'content-type': m.contentType, authorization: `Bearer ${demo}` },
      payload: m.payload,
    });
    expect(up.statusCode).toBe(400);
  });
});

describe('images are checked by content', () => {
  it.each([
    [
      'a text file renamed .png',
      'notes.png',
      Buffer.from('just some text, not an image\n'.repeat(20)),
      /not a JPG or PNG/,
    ],
    ['a 0-byte file', 'empty.jpg', Buffer.alloc(0), /empty \(0 bytes\)/],
    ['an image over 2 MB', 'big.png', png(64, 64, 2 * 1024 * 1024 + 10), /larger than 2 MB/],
    ['an image of 9000 × 20 pixels', 'wide.png', png(9000, 20), /9000×20 pixels/],
    ['a PNG cut short', 'cut.png', png(40, 40).subarray(0, 14), /damaged or incomplete/],
    ['a JPEG without a frame', 'noframe.jpg', Buffer.from([0xff, 0xd8, 0xff, 0xd9]), /damaged or incomplete/],
  ])('%s is refused with a clear message', async (_label, name, data, message) => {
    const r = await uploadImage(h, demo, { name, data });
    expect(r.status).toBe(422);
    expect(r.body.data.file[0]).toMatch(message);
  });
  it('in Chinese too', async () => {
    const r = await uploadImage(h, demo, { name: 'x.jpg', data: Buffer.from('hello') }, {}, 'zh-CN');
    expect(r.body.data.file[0]).toMatch(/不是 JPG 或 PNG/);
  });
  it('accepts a PNG and a JPEG whatever their names, and reports their size', async () => {
    const a = await uploadImage(h, demo, { name: 'photo.txt', data: png(300, 200) });
    expect(a.data).toMatchObject({ mime: 'image/png', width: 300, height: 200 });
    const b = await uploadImage(h, demo, { name: 'photo.jpeg', data: jpeg(640, 480) });
    expect(b.data).toMatchObject({ mime: 'image/jpeg', width: 640, height: 480 });
  });
});

describe('JAN unique per customer, also under a race', () => {
  it('two creates of one JAN at once: one 200, one 422 duplicate on jan', async () => {
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
    for (let round = 0; round < 3; round++) {
      const jan = freshJan();
      // Built first, then sent together over real sockets: the requests overlap on the server.
      const requests = [0, 1].map(
        () => () =>
          fetch(`${base}/api/item/create`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${demo}`, aes: '1' },
            body: JSON.stringify(sealRequest(demo, itemBody({ jan }))),
          }).then(async (r) => ({ status: r.status, body: (await r.json()) as any })),
      );
      const answers = await Promise.all(requests.map((send) => send()));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 422]);
      const loser = answers.find((a) => a.status === 422)!;
      expect(loser.body.data.jan[0]).toMatch(/already in the catalogue/);
      expect(JSON.stringify(loser.body)).not.toMatch(/constraint|unique|sqlite|items_/i);
      const rows = await h.db.selectFrom('items').select('id').where('jan', '=', jan).execute();
      expect(rows).toHaveLength(1);
    }
  });
  it('another customer may declare the same JAN; an update onto a taken JAN is refused', async () => {
    const jan = freshJan();
    expect((await aes(h, 'item/create', itemBody({ jan }), demo)).status).toBe(200);
    expect((await aes(h, 'item/create', itemBody({ jan }), demo2)).status).toBe(200);
    const other = (await aes(h, 'item/create', itemBody(), demo)).data;
    const clash = await aes(h, 'item/update', { ...itemBody({ jan }), id: other.id }, demo, 'zh-CN');
    expect(clash.status).toBe(422);
    expect(clash.body.data.jan[0]).toMatch(/已有该 JAN/);
  });
});

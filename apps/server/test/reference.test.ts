import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

let h: Harness;
let token: string;
beforeAll(async () => {
  h = await createHarness({ seed: true });
  token = await h.login('demo');
});

describe('reference calls', () => {
  it('channels: the nine channels of the spec, in both languages', async () => {
    const r = (await h.post('channels', {}, token)).body.data;
    expect(r.map((c: any) => c.code)).toEqual(['JP', 'USA', 'EMS', 'SG', 'AU', 'UK', 'PH', 'TH', 'USD']);
    expect(r[0]).toMatchObject({ name: { zh: '日本包裹', en: 'Japan parcel' }, currency: 'JPY', hasBoxes: true });
  });
  it('currencies carry their minor-unit digits', async () => {
    const r = (await h.post('currencies', {}, token)).body.data;
    expect(r.find((c: any) => c.code === 'JPY').decimals).toBe(0);
    expect(r.find((c: any) => c.code === 'CNY').decimals).toBe(2);
  });
  it('China divisions come from the maintained dataset', async () => {
    const provinces = (await h.post('cn/address/provinces', {}, token)).body.data;
    expect(provinces.length).toBe(34);
    expect(provinces.find((p: any) => p.code === '330000').name).toBe('浙江省');
    const cities = (await h.post('cn/address/cities', { province: '330000' }, token)).body.data;
    expect(cities.find((c: any) => c.code === '330100').name).toBe('杭州市');
    const areas = (await h.post('cn/address/areas', { city: '330100' }, token)).body.data;
    expect(areas.map((a: any) => a.name)).toContain('西湖区');
  });
  it('issue 11 finding 9: the whole tree for the cascader agrees with the one-level calls', async () => {
    const tree = (await h.post('cn/address/tree', {}, token)).body.data;
    expect(tree.length).toBe(34);
    const zj = tree.find((p: any) => p.code === '330000');
    expect(zj.name).toBe('浙江省');
    const hz = zj.children.find((c: any) => c.code === '330100');
    const areas = (await h.post('cn/address/areas', { city: '330100' }, token)).body.data;
    expect(hz.children).toEqual(areas);
    expect(tree.find((p: any) => p.code === '810000').children.length).toBeGreaterThan(0);
  });
  it('clearance companies, order types and number kinds', async () => {
    expect((await h.post('customsClearanceCompanies', {}, token)).body.data.length).toBeGreaterThan(0);
    expect((await h.post('orderTypes', {}, token)).body.data.map((x: any) => x.code)).toContain('bc');
    expect((await h.post('noTypes', {}, token)).body.data.map((x: any) => x.code)).toEqual([
      'orderNo',
      'waybillNo',
      'splitWaybillNo',
      'systemNo',
      'userRefNo',
      'batchNo',
    ]);
  });
});

describe('notifications', () => {
  it('a new notice blocks ordering until read and agreed; info marks read', async () => {
    const op = await h.login('operator');
    const published = await h.post(
      'notice/publish',
      { title: { zh: '新规', en: 'New rule' }, content: { zh: '内容', en: 'Body' }, mustAgree: true },
      op,
    );
    expect(published.status).toBe(200);
    const id = published.body.data.id;
    // Customers cannot publish.
    expect(
      (await h.post('notice/publish', { title: { zh: 'x', en: 'x' }, content: { zh: 'x', en: 'x' } }, token)).status,
    ).toBe(403);

    let check = (await h.post('notice/check', {}, token)).body.data;
    expect(check.blocking).toBe(true);
    expect(check.notices.map((n: any) => n.id)).toEqual([id]);
    expect((await h.post('message', {}, token)).body.data.unread).toBe(1);

    // Agreeing before reading is refused.
    expect((await h.post('notice/agree', { id }, token)).status).toBe(422);
    const info = (await h.post('notification/info', { id }, token)).body.data;
    expect(info).toMatchObject({ id, read: true, agreed: false, content: { en: 'Body' } });
    check = (await h.post('notice/check', {}, token)).body.data;
    expect(check.blocking).toBe(true);
    expect((await h.post('notice/agree', { id }, token)).status).toBe(200);
    check = (await h.post('notice/check', {}, token)).body.data;
    expect(check.blocking).toBe(false);
    expect((await h.post('message', {}, token)).body.data.unread).toBe(0);
  });
  it('pages, filters unread and searches', async () => {
    const all = (await h.post('notifications', { offset: 0, limit: 2 }, token)).body.data;
    expect(all.total).toBeGreaterThanOrEqual(3);
    expect(all.list).toHaveLength(2);
    const found = (await h.post('notification/search', { keyword: 'Spring', offset: 0, limit: 10 }, token)).body.data;
    expect(found.total).toBe(1);
    expect(found.list[0].title.en).toMatch(/Spring Festival/);
    const none = (await h.post('notification/search', { keyword: '%', offset: 0, limit: 10 }, token)).body.data;
    expect(none.total).toBe(0);
    expect((await h.post('notification/info', { id: 99999 }, token)).body.message).toBe('no data');
  });
});

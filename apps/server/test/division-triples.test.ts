import { idCardCheckChar } from '@console/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { cnDivisions } from '../src/domain/cn-divisions.ts';
import { resolveDivision } from '../src/domain/order-input.ts';
import { createHarness, type Harness } from './harness.ts';

/**
 * Issue 36 #21: a municipality's one city stood for any city name, so "北京市 广州市 朝阳区" was
 * accepted and printed on a label. Every province–city–district triple must exist, on the
 * import, the single create and an edit alike (they share validateOrder) and on an address batch
 * (resolveDivision).
 */
describe('a municipality’s city', () => {
  it('is its own name, 市辖区 or one of its districts, and nothing else', () => {
    const bj = cnDivisions.findProvince('北京市')!;
    for (const ok of ['北京市', '北京', '市辖区', '朝阳区'])
      expect(cnDivisions.cityOf(bj.code, ok)?.name, ok).toBe('北京市');
    for (const bad of ['广州市', '杭州', '浦东新区']) expect(cnDivisions.cityOf(bj.code, bad), bad).toBeUndefined();
    expect(resolveDivision('北京市', '广州市', '朝阳区')).toMatchObject({ ok: false, field: 'city' });
    expect(resolveDivision('北京市', '北京市', '朝阳区')).toMatchObject({
      ok: true,
      city: '北京市',
      district: '朝阳区',
    });
    expect(resolveDivision('上海市', '上海市', '浦东新区')).toMatchObject({ ok: true });
    expect(resolveDivision('上海市', '北京市', '浦东新区')).toMatchObject({ ok: false, field: 'city' });
  });
});

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});

describe('the single create', () => {
  const order = (city: string) => ({
    channel: 'USA',
    orderNo: `DIV${Math.random().toString(36).slice(2, 10).toUpperCase()}`,
    recipient: {
      name: '王小明',
      idCard: '11010519800101123' + idCardCheckChar('11010519800101123'),
      phone: '13812345678',
      province: '北京市',
      city,
      district: '朝阳区',
      address: '建国路100号',
    },
    sender: { name: 'DEMO Trading', address: 'Tokyo', phone: '03-1234-5678' },
    items: [{ jan: '4901234567894', name: '明治 奶粉', quantity: 1, unitPrice: '10' }],
  });
  it('refuses 北京市 广州市 朝阳区 on the city, and takes 北京市 北京市 朝阳区', async () => {
    const demo = await h.login('demo');
    const bad = await h.post('order/createImport', order('广州市'), demo, { 'accept-language': 'en' });
    expect(bad.status, JSON.stringify(bad.body)).toBe(422);
    expect(Object.keys(bad.body.data)).toContain('recipient.city');
    const good = await h.post('order/createImport', order('北京市'), demo);
    expect(good.status, JSON.stringify(good.body)).toBe(200);
  });

  it('refuses an emoji in the recipient’s name on the field, in the caller’s language (issue 36 #22)', async () => {
    const demo = await h.login('demo');
    const body = order('北京市');
    const bad = await h.post(
      'order/createImport',
      { ...body, recipient: { ...body.recipient, name: '王小明🙂' } },
      demo,
      {
        'accept-language': 'zh-CN',
      },
    );
    expect(bad.status, JSON.stringify(bad.body)).toBe(422);
    expect(bad.body.data['recipient.name']).toEqual(['收件人姓名不能包含表情或符号，须与身份证上的姓名一致。']);
  });
});

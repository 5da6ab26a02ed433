import { idCardCheckChar, type recipients as C } from '@console/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness.ts';
import { outsider } from '../items/helpers.ts';

/**
 * The recipient address book: checked like an order's recipient (ID check digit, divisions,
 * phone) with 422s on the fields in both languages; masked in the list, whole in info; the
 * tenant matrix over list, info, create, update and delete.
 */
let h: Harness;
let demo: string;
let demo2: string;
let agent: string;
let operator: string;
let other: { customerId: number; token: string };
let ids: { demo: number; demo2: number };

const first17 = '11010519800101123';
const valid = {
  name: '王小明',
  idCard: first17 + idCardCheckChar(first17),
  phone: '13812345678',
  province: '浙江省',
  city: '杭州市',
  district: '西湖区',
  address: '文三路100号',
};
const wrongCheck = first17 + (idCardCheckChar(first17) === '1' ? '2' : '1');

beforeAll(async () => {
  h = await createHarness();
  [demo, demo2, agent, operator] = await Promise.all(['demo', 'demo2', 'agent', 'operator'].map((n) => h.login(n)));
  other = await outsider(h, 'recipientoutsider');
  const customers = await h.db.selectFrom('customers').select(['id', 'code']).execute();
  ids = { demo: customers.find((c) => c.code === 'DEMO')!.id, demo2: customers.find((c) => c.code === 'DEMO2')!.id };
});

describe('create, list, update, delete', () => {
  it('a customer adds a recipient; the list masks the ID number and phone; info gives them whole', async () => {
    const r = await h.post('recipient/create', { ...valid, name: '张三丰' }, demo);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toMatchObject({ ...valid, name: '张三丰', customerId: ids.demo, customerCode: 'DEMO' });
    const list = await h.post('recipient/list', { keyword: '张三' }, demo);
    expect(list.body.data.total).toBe(1);
    const row = list.body.data.list[0] as C.RecipientRow;
    expect(row.idCard).toBe(`1101${'*'.repeat(10)}${valid.idCard.slice(-4)}`);
    expect(row.phone).toBe('138****5678');
    const info = await h.post('recipient/info', { id: row.id }, demo);
    expect(info.body.data.idCard).toBe(valid.idCard);

    const upd = await h.post('recipient/update', { ...valid, id: row.id, name: '张三丰', address: '文二路1号' }, demo);
    expect(upd.status).toBe(200);
    expect(upd.body.data.address).toBe('文二路1号');
    expect((await h.post('recipient/delete', { id: row.id }, demo)).status).toBe(200);
    expect((await h.post('recipient/info', { id: row.id }, demo)).status).toBe(404);
  });

  it('a wrong ID check digit, an unknown district and a bad phone are 422s on the fields (en)', async () => {
    const r = await h.post(
      'recipient/create',
      { ...valid, idCard: wrongCheck, district: '不存在区', phone: 'abc' },
      demo,
      { 'accept-language': 'en' },
    );
    expect(r.status).toBe(422);
    expect(r.body.data).toEqual({
      idCard: ['The ID card number has a wrong check digit.'],
      district: [expect.stringContaining('不存在区')],
      phone: [expect.any(String)],
    });
  });

  it('the same checks answer in Chinese, and nothing is written', async () => {
    const before = await h.db.selectFrom('recipients').select('id').execute();
    const r = await h.post('recipient/create', { ...valid, idCard: wrongCheck, province: '火星省' }, demo, {
      'accept-language': 'zh-CN',
    });
    expect(r.status).toBe(422);
    expect(r.body.data.idCard).toEqual(['身份证号校验位错误。']);
    expect(r.body.data.province).toEqual(['未知的省份：火星省']);
    expect(await h.db.selectFrom('recipients').select('id').execute()).toHaveLength(before.length);
  });
});

describe('tenant matrix', () => {
  it("demo2 reads, changes and deletes nothing of demo's; agents name a customer in scope", async () => {
    const mine = (await h.post('recipient/create', { ...valid, name: '李四' }, demo)).body.data as C.RecipientRow;
    expect((await h.post('recipient/info', { id: mine.id }, demo2)).status).toBe(404);
    expect((await h.post('recipient/update', { ...valid, id: mine.id, name: '改名' }, demo2)).status).toBe(404);
    expect((await h.post('recipient/delete', { id: mine.id }, demo2)).status).toBe(404);
    expect((await h.post('recipient/info', { id: mine.id }, other.token)).status).toBe(404);
    expect((await h.post('recipient/list', { customerId: ids.demo }, demo2)).body.data.total).toBe(0);
    expect((await h.post('recipient/info', { id: mine.id }, demo)).body.data.name).toBe('李四');
    expect((await h.post('recipient/info', { id: mine.id }, agent)).status).toBe(200);
    expect((await h.post('recipient/info', { id: mine.id }, operator)).status).toBe(200);

    const forged = await h.post('recipient/create', { ...valid, customerId: ids.demo }, demo2);
    expect(forged.status).toBe(422);
    expect(Object.keys(forged.body.data)).toEqual(['customerId']);
    expect((await h.post('recipient/create', valid, agent)).status).toBe(422);
    expect((await h.post('recipient/create', { ...valid, customerId: other.customerId }, agent)).status).toBe(422);
    const byAgent = await h.post('recipient/create', { ...valid, customerId: ids.demo2 }, agent);
    expect(byAgent.body.data.customerId).toBe(ids.demo2);
    for (const path of ['recipient/list', 'recipient/info', 'recipient/create', 'recipient/update', 'recipient/delete'])
      expect((await h.post(path, {})).status, path).toBe(401);
  });
});

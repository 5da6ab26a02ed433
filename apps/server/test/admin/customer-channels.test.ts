import { admin, idCardCheckChar } from '@console/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseRow, fill, settle, template, upload } from '../batches/helpers.ts';
import { createHarness, type Harness } from '../harness.ts';

/**
 * A customer's allowed channels (issue 17): with rows the customer may use only those — the
 * channel list it is shown, single create, an upload's page channel and each row of the order
 * template — whoever acts for it; with none, every channel, as before.
 */
let h: Harness;
let tokens: Record<'demo' | 'demo2' | 'agent' | 'operator', string>;
let demo2: admin.CustomerRow;

const ALL = ['JP', 'USA', 'EMS', 'SG', 'AU', 'UK', 'PH', 'TH', 'USD'];
const en = { 'accept-language': 'en' };
const zh = { 'accept-language': 'zh-CN' };

const recipient = {
  name: '王小明',
  idCard: '11010519800101123' + idCardCheckChar('11010519800101123'),
  phone: '13812345678',
  province: '浙江省',
  city: '杭州市',
  district: '西湖区',
  address: '文三路100号',
};
const order = (channel: string, over: Record<string, unknown> = {}) => ({
  channel,
  orderNo: `CC${Math.random().toString(36).slice(2, 10).toUpperCase()}`,
  recipient,
  sender: { name: 'DEMO2 Trading', address: 'Tokyo', phone: '03-1234-5678' },
  // In the channel's currency: a small amount whatever it is, so no confirmation is asked.
  items: [{ jan: '4901234567894', name: '明治 奶粉', quantity: 1, unitPrice: channel === 'JP' ? '1500' : '10' }],
  ...over,
});

/** The customer as it is, with only its channels changed (update sets every field). */
const setChannels = (channels: string[], token = tokens.operator) =>
  h.post(
    admin.updateCustomer.path,
    {
      id: demo2.id,
      name: demo2.name,
      contactName: demo2.contactName,
      contactPhone: demo2.contactPhone,
      contactEmail: demo2.contactEmail,
      agentUserId: demo2.agentUserId,
      channels,
    },
    token,
    en,
  );
const channelsSeenBy = async (token: string) =>
  ((await h.post('channels', {}, token)).body.data as { code: string }[]).map((c) => c.code);

beforeAll(async () => {
  h = await createHarness();
  const names = ['demo', 'demo2', 'agent', 'operator'] as const;
  tokens = Object.fromEntries(await Promise.all(names.map(async (n) => [n, await h.login(n)]))) as typeof tokens;
  const list = await h.post(admin.customerList.path, { keyword: 'DEMO2' }, tokens.operator);
  demo2 = list.body.data.list.find((c: admin.CustomerRow) => c.code === 'DEMO2');
  expect(demo2.channels).toEqual([]);
  expect(demo2.agentUserId).not.toBeNull();
});

describe('allowed channels', () => {
  it('are set on the customer, answered in its row and audited; the customer user sees only them', async () => {
    const r = await setChannels(['EMS', 'JP']);
    expect(r.status).toBe(200);
    // In the channels' own order, whatever order they were given in.
    expect(r.body.data.channels).toEqual(['JP', 'EMS']);
    expect(r.body.data.agentUserId).toBe(demo2.agentUserId);
    const rows = await h.db.selectFrom('customer_channels').selectAll().where('customer_id', '=', demo2.id).execute();
    expect(rows.map((x) => x.channel_code).sort()).toEqual(['EMS', 'JP']);
    const log = await h.db
      .selectFrom('audit_log')
      .select(['action', 'target', 'detail', 'user_name'])
      .where('action', '=', 'customer.update')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(log).toMatchObject({ target: 'customer:DEMO2', user_name: 'operator' });
    expect(JSON.parse(log.detail)).toEqual({ channels: [[], ['JP', 'EMS']] });

    const listed = await h.post(admin.customerList.path, { keyword: 'DEMO2' }, tokens.operator);
    expect(listed.body.data.list.find((c: admin.CustomerRow) => c.id === demo2.id).channels).toEqual(['JP', 'EMS']);

    expect(await channelsSeenBy(tokens.demo2)).toEqual(['JP', 'EMS']);
    // Other customers, agents and operators are not limited by demo2's list.
    expect(await channelsSeenBy(tokens.demo)).toEqual(ALL);
    expect(await channelsSeenBy(tokens.agent)).toEqual(ALL);
    expect(await channelsSeenBy(tokens.operator)).toEqual(ALL);
  });

  it('single create on another channel is a 422 on channel, in both languages, for the customer and its agent', async () => {
    const refused = await h.post('order/createImport', order('SG'), tokens.demo2, en);
    expect(refused.status).toBe(422);
    expect(refused.body.data.channel).toEqual(['This customer may not use channel SG.']);
    const zhRefused = await h.post('order/createImport', order('SG'), tokens.demo2, zh);
    expect(zhRefused.body.data.channel).toEqual(['该客户不能使用渠道 SG。']);
    const byAgent = await h.post('order/createImport', order('SG', { customerId: demo2.id }), tokens.agent, en);
    expect(byAgent.status).toBe(422);
    expect(byAgent.body.data.channel).toEqual(['This customer may not use channel SG.']);
    const count = await h.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('order_no', 'like', 'CC%')
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);

    const ok = await h.post('order/createImport', order('JP'), tokens.demo2, en);
    expect(ok.status).toBe(200);
    // demo has no list: every channel.
    const demoSg = await h.post('order/createImport', order('SG'), tokens.demo, en);
    expect(demoSg.status).toBe(200);
  });

  it('an upload on a refused page channel is a 422 on channel, and no batch is made', async () => {
    const before = await h.db.selectFrom('batches').select('id').execute();
    const sg = await fill(await template(h, tokens.demo2, 'download/sg'), [baseRow(1, { unitPrice: '12.5' as never })]);
    const r = await upload(
      h,
      'order/batch/createImport',
      tokens.demo2,
      { channel: 'SG' },
      { name: 'sg.xlsx', data: sg },
    );
    expect(r.status).toBe(422);
    expect(r.body.data.channel).toEqual(['This customer may not use channel SG.']);
    const ot = await fill(await template(h, tokens.demo2, 'download/order'), [{ ...baseRow(2), channel: 'JP' }]);
    const byPage = await upload(
      h,
      'order/batch/create',
      tokens.demo2,
      { channel: 'USA' },
      { name: 'o.xlsx', data: ot },
    );
    expect(byPage.status).toBe(422);
    expect(byPage.body.data.channel).toEqual(['This customer may not use channel USA.']);
    expect(await h.db.selectFrom('batches').select('id').execute()).toHaveLength(before.length);
  });

  it('a row of the order template naming a refused channel is refused with the reason; the others pass', async () => {
    const tpl = await template(h, tokens.demo2, 'download/order');
    const file = await fill(tpl, [
      { ...baseRow(101, { orderNo: 'CH-ROW-JP' }), channel: 'JP' },
      { ...baseRow(102, { orderNo: 'CH-ROW-SG', unitPrice: '12.5' as never }), channel: 'SG' },
    ]);
    const up = await upload(
      h,
      'order/batch/create',
      tokens.demo2,
      { channel: 'JP' },
      { name: 'rows.xlsx', data: file },
    );
    expect(up.status).toBe(200);
    const p = await settle(h, tokens.demo2, up.body.data.id);
    expect(p).toMatchObject({ status: 'preview', orderCount: 1, invalidRows: 1 });
    const msgs = p.errors.map((e: { row: number; message: string }) => `${e.row}:${e.message}`);
    expect(msgs).toEqual(['4:This customer may not use channel SG.']);
  });

  it('a channel taken away between preview and confirm: the confirm is a 422 on id, nothing is written, the preview stays', async () => {
    const file = await fill(await template(h, tokens.demo2, 'download/importOrder'), [
      baseRow(201, { orderNo: 'CH-LATE-1' }),
      baseRow(202, { orderNo: 'CH-LATE-2' }),
    ]);
    const up = await upload(
      h,
      'order/batch/createImport',
      tokens.demo2,
      { channel: 'JP' },
      { name: 'late.xlsx', data: file },
    );
    expect(up.status).toBe(200);
    const p = await settle(h, tokens.demo2, up.body.data.id);
    expect(p).toMatchObject({ status: 'preview', orderCount: 2, invalidRows: 0 });
    const confirm = (lang: Record<string, string>) =>
      h.post(
        'order/batch/confirm',
        { id: p.id, confirmations: p.confirmations.map((c: { kind: string }) => c.kind) },
        tokens.demo2,
        lang,
      );

    expect((await setChannels(['EMS'])).status).toBe(200);
    const refused = await confirm(en);
    expect(refused.status).toBe(422);
    expect(refused.body.data.id).toEqual(['This customer may not use channel JP.']);
    expect((await confirm(zh)).body.data.id).toEqual(['该客户不能使用渠道 JP。']);
    // The preview keeps its orders' channels, so the check reads no order; a preview stored before
    // it kept them is checked from its stored orders, with the same answer.
    const stored = () => h.db.selectFrom('batches').select('preview').where('id', '=', p.id).executeTakeFirstOrThrow();
    const preview = JSON.parse((await stored()).preview!) as { channels?: string[] };
    expect(preview.channels).toEqual(['JP']);
    delete preview.channels;
    await h.db
      .updateTable('batches')
      .set({ preview: JSON.stringify(preview) })
      .where('id', '=', p.id)
      .execute();
    expect((await confirm(en)).body.data.id).toEqual(['This customer may not use channel JP.']);
    const written = () => h.db.selectFrom('orders').select('order_no').where('order_no', 'like', 'CH-LATE-%').execute();
    expect(await written()).toEqual([]);
    expect((await settle(h, tokens.demo2, p.id)).status).toBe('preview');

    // Given back, the same preview is confirmed and its orders written.
    expect((await setChannels(['EMS', 'JP'])).status).toBe(200);
    expect((await confirm(en)).status).toBe(200);
    expect((await settle(h, tokens.demo2, p.id)).status).toBe('done');
    expect((await written()).map((o) => o.order_no).sort()).toEqual(['CH-LATE-1', 'CH-LATE-2']);
  });

  it('unknown or repeated codes are a 422 on channels and change nothing', async () => {
    const unknown = await setChannels(['JP', 'MARS']);
    expect(unknown.status).toBe(422);
    expect(unknown.body.data.channels).toEqual(['No channel named MARS.']);
    const twice = await setChannels(['JP', 'JP']);
    expect(twice.status).toBe(422);
    expect(twice.body.data.channels).toEqual(['Channel JP is listed twice.']);
    const made = await h.post(
      admin.createCustomer.path,
      { code: 'CHBAD', name: 'Bad channels', channels: ['XX'] },
      tokens.operator,
      en,
    );
    expect(made.status).toBe(422);
    expect(await h.db.selectFrom('customers').select('id').where('code', '=', 'CHBAD').execute()).toEqual([]);
    expect(await channelsSeenBy(tokens.demo2)).toEqual(['JP', 'EMS']);
  });

  it('a new customer may be made with its channels', async () => {
    const made = await h.post(
      admin.createCustomer.path,
      { code: 'CHNEW', name: 'New with channels', channels: ['USA'] },
      tokens.operator,
      en,
    );
    expect(made.status).toBe(200);
    expect(made.body.data.channels).toEqual(['USA']);
  });

  it('customers and agents get 403 and the list stays', async () => {
    for (const who of ['demo', 'demo2', 'agent'] as const) {
      expect((await setChannels([], tokens[who])).status).toBe(403);
    }
    expect(await channelsSeenBy(tokens.demo2)).toEqual(['JP', 'EMS']);
  });

  it('an empty list gives every channel back', async () => {
    const r = await setChannels([]);
    expect(r.status).toBe(200);
    expect(r.body.data.channels).toEqual([]);
    expect(await channelsSeenBy(tokens.demo2)).toEqual(ALL);
    const sg = await h.post('order/createImport', order('SG'), tokens.demo2, en);
    expect(sg.status).toBe(200);
    // demo2's own Singapore segment (demo seed) gives the number.
    expect(sg.body.data.waybillNo).toMatch(/^D2SG\d{10}$/);
  });
});

import type { exportNominations as C } from '@console/contract';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { transition } from '../src/domain/order-life.ts';
import { openResponse, sealRequest } from './aes-client.ts';
import { createHarness, type Harness, listening } from './harness.ts';
import { aes, aesBlob, outsider } from './items/helpers.ts';
import { validRecipient } from './support/orders.ts';

/**
 * Export nominations (issue 13): every call through AES; the corporate number's check digit as
 * a 422 on the field; the tenant matrix; delete refused while an order not yet shipped names the
 * nomination (and allowed once it is shipped or cancelled); the workbook's content; the import
 * select (`exports`) lists what the pages create.
 */
let h: Harness;
let demo: string;
let demo2: string;
let agent: string;
let operator: string;
let other: { customerId: number; token: string };
let ids: { demo: number; demo2: number };
let operatorUserId: number;

const valid = {
  nameJa: 'テスト輸出株式会社',
  nameEn: 'Test Export K.K.',
  corporateNumber: '1180301018771',
  addressEn: '1 Toyota-cho, Toyota, Aichi',
  tel: '0565-28-2121',
  idMark: 'TST',
  receiveEmail: 'docs@test.example',
};

const blob = (path: string, body: unknown, token: string, lang = 'en') => aesBlob(h, path, body, token, lang);

async function create(token: string, body: Record<string, unknown>) {
  return aes(h, 'export/create', { ...valid, ...body }, token);
}

async function workbookRows(bytes: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as never);
  const ws = wb.worksheets[0]!;
  const rows: unknown[][] = [];
  ws.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
  return rows;
}

beforeAll(async () => {
  h = await createHarness();
  [demo, demo2, agent, operator] = await Promise.all(['demo', 'demo2', 'agent', 'operator'].map((n) => h.login(n)));
  other = await outsider(h, 'nominationoutsider');
  const customers = await h.db.selectFrom('customers').select(['id', 'code']).execute();
  ids = {
    demo: customers.find((c) => c.code === 'DEMO')!.id,
    demo2: customers.find((c) => c.code === 'DEMO2')!.id,
  };
  operatorUserId = (
    await h.db.selectFrom('users').select('id').where('name', '=', 'operator').executeTakeFirstOrThrow()
  ).id;
});

describe('create, read, update', () => {
  it('a customer creates one for itself; the list, the info call and the import select show it', async () => {
    const r = await create(demo, { nameEn: 'Listed Export K.K.' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const row = r.data as C.ExportNominationRow;
    expect(row).toMatchObject({ ...valid, nameEn: 'Listed Export K.K.', customerId: ids.demo, customerCode: 'DEMO' });
    const stored = await h.db.selectFrom('export_nominations').selectAll().where('id', '=', row.id).executeTakeFirst();
    expect(stored).toMatchObject({ customer_id: ids.demo, corporate_number: '1180301018771', deleted_at: null });

    const list = await aes(h, 'export/list', { name: 'listed export' }, demo);
    expect(list.status).toBe(200);
    expect(list.data.list.map((x: C.ExportNominationRow) => x.id)).toEqual([row.id]);
    expect((await aes(h, 'export/info', { id: row.id }, demo)).data.nameEn).toBe('Listed Export K.K.');
    // The order import's select reads the same rows.
    const select = await h.post('exports', {}, demo);
    expect(select.body.data.map((x: { id: number }) => x.id)).toContain(row.id);
  });

  it('a customer naming another customer is refused on customerId; agents and operators must name one in scope', async () => {
    const forged = await create(demo, { customerId: ids.demo2 });
    expect(forged.status).toBe(422);
    expect(Object.keys(forged.body.data)).toEqual(['customerId']);
    const none = await create(operator, {});
    expect(none.status).toBe(422);
    expect(Object.keys(none.body.data)).toEqual(['customerId']);
    const outOfScope = await create(agent, { customerId: other.customerId });
    expect(outOfScope.status).toBe(422);
    const byAgent = await create(agent, { customerId: ids.demo2, nameEn: 'Agent Made K.K.' });
    expect(byAgent.status).toBe(200);
    expect(byAgent.data.customerId).toBe(ids.demo2);
    const byOperator = await create(operator, { customerId: other.customerId, nameEn: 'Operator Made K.K.' });
    expect(byOperator.status).toBe(200);
    expect(byOperator.data.customerId).toBe(other.customerId);
    // The outsider now sees exactly the one made for it.
    const own = await aes(h, 'export/list', {}, other.token);
    expect(own.data.list.map((x: C.ExportNominationRow) => x.nameEn)).toEqual(['Operator Made K.K.']);
  });

  it.each([
    ['wrong check digit', '2180301018771', /check digit/],
    ['too short', '118030101877', /exactly 13 digits/],
    ['too long', '11803010187711', /exactly 13 digits/],
    ['letters', '11803O1018771', /digits only/],
    ['empty', '', /exactly 13 digits/],
  ])('the corporate number: %s is a 422 naming the field', async (_what, corporateNumber, message) => {
    const r = await create(demo, { corporateNumber });
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.data)).toEqual(['corporateNumber']);
    expect(r.body.data.corporateNumber[0]).toMatch(message);
  });

  it('the corporate number refusal reads in Chinese too; valid real numbers pass', async () => {
    const r = await aes(h, 'export/create', { ...valid, corporateNumber: '8000012050002' }, demo, 'zh-CN');
    expect(r.status).toBe(422);
    expect(r.body.data.corporateNumber[0]).toContain('法人番号无效');
    // The National Tax Agency's own number.
    expect((await create(demo, { corporateNumber: '7000012050002' })).status).toBe(200);
  });

  it('the receive email is checked as an email; empty is allowed on create', async () => {
    const bad = await create(demo, { receiveEmail: 'not-an-email' });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.data)).toEqual(['receiveEmail']);
    expect(bad.body.data.receiveEmail[0]).toMatch(/email address/);
    const none = await create(demo, { receiveEmail: '', idMark: undefined });
    expect(none.status).toBe(200);
    expect(none.data).toMatchObject({ receiveEmail: '', idMark: '' });
  });

  it('update changes the fields (not the customer) and is checked as create is', async () => {
    const { data: row } = await create(demo, { nameEn: 'Before K.K.' });
    const r = await aes(
      h,
      'export/update',
      { ...valid, id: row.id, nameEn: 'After K.K.', tel: '03-0000-0000', idMark: '' },
      demo,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.data).toMatchObject({ id: row.id, nameEn: 'After K.K.', tel: '03-0000-0000', idMark: '' });
    expect(r.data.updatedAt).not.toBeNull();
    const bad = await aes(h, 'export/update', { ...valid, id: row.id, corporateNumber: '1180301018772' }, demo);
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.data)).toEqual(['corporateNumber']);
    // customerId is not a field of update.
    const moved = await aes(h, 'export/update', { ...valid, id: row.id, customerId: ids.demo2 }, demo);
    expect(moved.status).toBe(422);
    const stored = await h.db.selectFrom('export_nominations').selectAll().where('id', '=', row.id).executeTakeFirst();
    expect(stored).toMatchObject({ name_en: 'After K.K.', customer_id: ids.demo });
  });

  it('user/updateReceiveEmail changes only the address, checked as an email', async () => {
    const { data: row } = await create(demo, { nameEn: 'Mail K.K.' });
    const r = await aes(h, 'user/updateReceiveEmail', { id: row.id, receiveEmail: 'new@docs.example' }, demo);
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ receiveEmail: 'new@docs.example', nameEn: 'Mail K.K.' });
    for (const receiveEmail of ['', 'a@b', 'two words@x.example', 'x@@y.example']) {
      const bad = await aes(h, 'user/updateReceiveEmail', { id: row.id, receiveEmail }, demo);
      expect(bad.status, receiveEmail).toBe(422);
      expect(Object.keys(bad.body.data)).toEqual(['receiveEmail']);
    }
    const stored = await h.db
      .selectFrom('export_nominations')
      .select('receive_email')
      .where('id', '=', row.id)
      .executeTakeFirst();
    expect(stored!.receive_email).toBe('new@docs.example');
  });
});

describe('list: filters, sort, paging on the server', () => {
  it('filters by name (either language, case-insensitive, wildcards literal), corporate number start and customer', async () => {
    await create(demo2, { nameJa: '並べ替え商事', nameEn: 'Sortable 100% Trading', corporateNumber: '9010401012345' });
    const byName = await aes(h, 'export/list', { name: 'SORTABLE 100%' }, demo2);
    expect(byName.data.list.map((x: C.ExportNominationRow) => x.nameEn)).toEqual(['Sortable 100% Trading']);
    expect((await aes(h, 'export/list', { name: '並べ替え' }, demo2)).data.total).toBe(1);
    // `%` is a character, not a wildcard.
    expect((await aes(h, 'export/list', { name: '1%0' }, demo2)).data.total).toBe(0);
    const byNumber = await aes(h, 'export/list', { corporateNumber: '901040101' }, demo2);
    expect(byNumber.data.list.every((x: C.ExportNominationRow) => x.corporateNumber.startsWith('901040101'))).toBe(
      true,
    );
    expect(byNumber.data.total).toBeGreaterThan(0);
    const ofDemo2 = await aes(h, 'export/list', { customerId: ids.demo2, limit: 500 }, operator);
    expect(ofDemo2.data.list.every((x: C.ExportNominationRow) => x.customerId === ids.demo2)).toBe(true);
  });

  it('sorts by each column both ways and pages without overlap', async () => {
    const all = await aes(h, 'export/list', { limit: 500, sort: 'nameEn', order: 'asc' }, operator);
    const names = all.data.list.map((x: C.ExportNominationRow) => x.nameEn);
    expect(names.length).toBeGreaterThan(6);
    const cmp = [...names].sort((a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0));
    expect(names).toEqual(cmp);
    const desc = await aes(h, 'export/list', { limit: 500, sort: 'nameEn', order: 'desc' }, operator);
    expect(desc.data.list.map((x: C.ExportNominationRow) => x.nameEn)).toEqual([...cmp].reverse());
    for (const sort of ['createdAt', 'nameJa', 'corporateNumber'] as const) {
      expect((await aes(h, 'export/list', { sort, order: 'asc' }, operator)).status).toBe(200);
    }
    const p1 = await aes(h, 'export/list', { limit: 3, offset: 0, sort: 'nameEn', order: 'asc' }, operator);
    const p2 = await aes(h, 'export/list', { limit: 3, offset: 3, sort: 'nameEn', order: 'asc' }, operator);
    expect(p1.data.total).toBe(all.data.total);
    expect([...p1.data.list, ...p2.data.list].map((x: C.ExportNominationRow) => x.nameEn)).toEqual(cmp.slice(0, 6));
    const bad = await aes(h, 'export/list', { sort: 'tel' }, operator);
    expect(bad.status).toBe(422);
  });
});

describe('tenant matrix', () => {
  it("demo2 and an outsider read, change and delete nothing of demo's; the agent and the operator can", async () => {
    const { data: row } = await create(demo, { nameEn: 'Tenant K.K.' });
    const id = row.id;
    for (const t of [demo2, other.token]) {
      expect((await aes(h, 'export/info', { id }, t)).status).toBe(404);
      expect((await aes(h, 'export/update', { ...valid, id, nameEn: 'Hijacked' }, t)).status).toBe(404);
      expect((await aes(h, 'user/updateReceiveEmail', { id, receiveEmail: 'evil@x.example' }, t)).status).toBe(404);
      expect((await aes(h, 'export/delete', { id }, t)).status).toBe(404);
      const list = await aes(h, 'export/list', { limit: 500 }, t);
      expect(list.data.list.map((x: C.ExportNominationRow) => x.customerId)).not.toContain(ids.demo);
      // Filtering on another customer narrows to nothing, never widens.
      expect((await aes(h, 'export/list', { customerId: ids.demo }, t)).data.total).toBe(0);
      const wb = await blob('export/export', {}, t);
      expect(wb.status).toBe(200);
      expect((await workbookRows(wb.bytes)).flat()).not.toContain('Tenant K.K.');
      const select = await h.post('exports', {}, t);
      expect(select.body.data.map((x: { id: number }) => x.id)).not.toContain(id);
    }
    const stored = await h.db.selectFrom('export_nominations').selectAll().where('id', '=', id).executeTakeFirst();
    expect(stored).toMatchObject({ name_en: 'Tenant K.K.', receive_email: valid.receiveEmail, deleted_at: null });

    // The agent of demo and demo2 reads and changes both; an operator everything.
    const agentList = await aes(h, 'export/list', { limit: 500 }, agent);
    const agentCustomers = new Set(agentList.data.list.map((x: C.ExportNominationRow) => x.customerId));
    expect([...agentCustomers].sort()).toEqual([ids.demo, ids.demo2].sort());
    expect((await aes(h, 'export/update', { ...valid, id, nameEn: 'By Agent K.K.' }, agent)).status).toBe(200);
    expect((await aes(h, 'export/info', { id }, operator)).data.nameEn).toBe('By Agent K.K.');
    const operatorList = await aes(h, 'export/list', { limit: 500 }, operator);
    expect(operatorList.data.list.map((x: C.ExportNominationRow) => x.customerId)).toContain(other.customerId);
    expect((await aes(h, 'export/delete', { id }, operator)).status).toBe(200);
  });

  it("the agent cannot read an outsider's nomination", async () => {
    const { data: row } = await create(other.token, { nameEn: 'Outsider K.K.' });
    expect((await aes(h, 'export/info', { id: row.id }, agent)).status).toBe(404);
    expect((await aes(h, 'export/delete', { id: row.id }, agent)).status).toBe(404);
  });
});

describe('delete', () => {
  // One listening server for the tests that need truly parallel requests.
  let listener: ReturnType<typeof listening> | undefined;
  const server = () => (listener ??= listening(h.app));

  /** Three of demo's seeded orders, made to name the nomination (the order import would). */
  async function ordersNaming(nominationId: number, n: number) {
    const orders = await h.db
      .selectFrom('orders')
      .select(['id', 'order_no'])
      .where('customer_id', '=', ids.demo)
      .where('status', '=', 'created')
      .where('intercepted', '=', 0)
      .where('export_nomination_id', 'is', null)
      .orderBy('id')
      .limit(n)
      .execute();
    expect(orders).toHaveLength(n);
    await h.db
      .updateTable('orders')
      .set({ export_nomination_id: nominationId })
      .where(
        'id',
        'in',
        orders.map((o) => o.id),
      )
      .execute();
    return orders;
  }
  const move = (t: 'print' | 'receive' | 'ship' | 'cancel', orderIds: number[]) =>
    h.db
      .transaction()
      .execute((trx) => transition(trx, t, orderIds, { at: new Date().toISOString(), by: operatorUserId }));

  it('refused (409) while an unshipped order names it, saying how many and which; allowed once shipped or cancelled', async () => {
    const { data: row } = await create(demo, { nameEn: 'In Use K.K.' });
    const [a, b] = await ordersNaming(row.id, 2);

    const refused = await aes(h, 'export/delete', { id: row.id }, demo);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('2 order(s) not yet shipped');
    expect(refused.body.message).toContain(a!.order_no);
    expect(refused.body.message).toContain(b!.order_no);
    expect(refused.body.data).toEqual({ orders: 2, orderNos: [a!.order_no, b!.order_no], batches: 0 });
    const zh = await aes(h, 'export/delete', { id: row.id }, demo, 'zh-CN');
    expect(zh.body.message).toContain('2 个未发货的订单');

    // One shipped (printed → received → shipped), the other still waiting: still refused.
    expect((await move('receive', [a!.id])).done).toEqual([a!.id]);
    expect((await move('ship', [a!.id])).done).toEqual([a!.id]);
    const still = await aes(h, 'export/delete', { id: row.id }, demo);
    expect(still.status).toBe(409);
    expect(still.body.data).toEqual({ orders: 1, orderNos: [b!.order_no], batches: 0 });
    expect((await aes(h, 'export/info', { id: row.id }, demo)).status).toBe(200);

    expect((await move('cancel', [b!.id])).done).toEqual([b!.id]);
    const ok = await aes(h, 'export/delete', { id: row.id }, demo);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);

    // Gone for every reader and every call; the orders still name it (history stays).
    expect((await aes(h, 'export/info', { id: row.id }, demo)).status).toBe(404);
    expect((await aes(h, 'export/delete', { id: row.id }, demo)).status).toBe(404);
    expect(
      (await aes(h, 'export/list', { limit: 500 }, demo)).data.list.map((x: C.ExportNominationRow) => x.id),
    ).not.toContain(row.id);
    expect((await h.post('exports', {}, demo)).body.data.map((x: { id: number }) => x.id)).not.toContain(row.id);
    const named = await h.db.selectFrom('orders').select('export_nomination_id').where('id', '=', a!.id).execute();
    expect(named[0]!.export_nomination_id).toBe(row.id);
  });

  it('refused while an import batch not yet committed names it', async () => {
    const { data: row } = await create(demo, { nameEn: 'Batch Use K.K.' });
    const batch = await h.db
      .selectFrom('batches')
      .select(['id', 'status', 'export_nomination_id'])
      .where('customer_id', '=', ids.demo)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await h.db
      .updateTable('batches')
      .set({ status: 'preview', export_nomination_id: row.id })
      .where('id', '=', batch.id)
      .execute();
    try {
      const refused = await aes(h, 'export/delete', { id: row.id }, demo);
      expect(refused.status).toBe(409);
      expect(refused.body.data).toEqual({ orders: 0, orderNos: [], batches: 1 });
      expect(refused.body.message).toContain('1 import batch(es)');
    } finally {
      await h.db
        .updateTable('batches')
        .set({ status: batch.status, export_nomination_id: batch.export_nomination_id })
        .where('id', '=', batch.id)
        .execute();
    }
    expect((await aes(h, 'export/delete', { id: row.id }, demo)).status).toBe(200);
  });

  it('parallel deletes over HTTP delete once; the others are not found', async () => {
    const { data: row } = await create(demo, { nameEn: 'Race K.K.' });
    const http = await server();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        http.post('export/delete', sealRequest(demo, { id: row.id }), demo, { aes: '1' }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 404, 404, 404, 404, 404]);
  });

  it('an order created while the nomination is deleted: either the order lands and the delete is refused, or the order is refused', async () => {
    const http = await server();
    const outcomes = new Set<string>();
    for (let round = 0; round < 12; round++) {
      const { data: row } = await create(demo, { nameEn: `Race Order ${round} K.K.` });
      const [made, deleted] = await Promise.all([
        http.post(
          'order/createImport',
          {
            channel: 'JP',
            exportNominationId: row.id,
            orderNo: `NOMRACE${Date.now().toString(36).toUpperCase()}${round}`,
            recipient: validRecipient,
            sender: { name: '山田商事', address: '東京都千代田区丸の内1-1-1', phone: '03-1234-5678' },
            items: [{ jan: '4901234567894', name: '明治 奶粉', quantity: 1, unitPrice: '1500' }],
            confirm: ['minorId', 'crossBorderLimit', 'multiplePricesPerJan'],
          },
          demo,
        ),
        http.post('export/delete', sealRequest(demo, { id: row.id }), demo, { aes: '1' }),
      ]);
      const nomination = await h.db
        .selectFrom('export_nominations')
        .select('deleted_at')
        .where('id', '=', row.id)
        .executeTakeFirstOrThrow();
      const naming = await h.db.selectFrom('orders').select('id').where('export_nomination_id', '=', row.id).execute();
      // Never both: a deleted nomination that an order not yet shipped names.
      if (nomination.deleted_at !== null) {
        expect(naming, `round ${round}`).toHaveLength(0);
        expect(deleted.status).toBe(200);
        expect(made.status).toBe(422);
        outcomes.add('order refused');
      } else {
        expect(naming, `round ${round}`).toHaveLength(1);
        expect(made.status).toBe(200);
        expect(deleted.status).toBe(409);
        outcomes.add('delete refused');
      }
    }
    // Both orders of arrival happen over the rounds, on both databases (seen; not asserted,
    // since the scheduler decides).
    expect(outcomes.size).toBeGreaterThan(0);
  });
});

describe('export/export', () => {
  it("an xlsx of the caller's nominations, filters and sort applied, in the caller's language", async () => {
    await create(demo, { nameEn: 'Zeta Export K.K.', corporateNumber: '5010401067252', receiveEmail: '' });
    await create(demo, { nameEn: 'Alpha Export K.K.', corporateNumber: '1180301018771' });
    const r = await blob('export/export', { name: 'export k.k.', sort: 'nameEn', order: 'asc' }, demo);
    expect(r.status).toBe(200);
    expect(String(r.headers['content-type'])).toContain('spreadsheetml');
    expect(String(r.headers['content-disposition'])).toContain('export-nominations');
    const rows = await workbookRows(r.bytes);
    expect(rows[0]).toEqual([
      'Customer',
      'Japanese name',
      'English name',
      'Corporate number',
      'English address',
      'Tel',
      'ID mark',
      'Receive email',
      'Created',
      'Updated',
    ]);
    const listed = await aes(h, 'export/list', { name: 'export k.k.', sort: 'nameEn', order: 'asc', limit: 500 }, demo);
    const body = rows.slice(1);
    expect(body.map((x) => x[2])).toEqual(listed.data.list.map((x: C.ExportNominationRow) => x.nameEn));
    expect(body.every((x) => x[0] === 'DEMO')).toBe(true);
    const alpha = body.find((x) => x[2] === 'Alpha Export K.K.')!;
    // The corporate number is text (a number cell would lose nothing here, but 0-led ones would).
    expect(alpha.slice(0, 8)).toEqual([
      'DEMO',
      valid.nameJa,
      'Alpha Export K.K.',
      '1180301018771',
      valid.addressEn,
      valid.tel,
      valid.idMark,
      valid.receiveEmail,
    ]);
    expect(alpha[8]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const zeta = body.find((x) => x[2] === 'Zeta Export K.K.')!;
    expect(zeta[7] ?? null).toBeNull();

    const zh = await workbookRows((await blob('export/export', { name: 'Alpha Export' }, demo, 'zh-CN')).bytes);
    expect(zh[0]![3]).toBe('法人番号');
    expect(zh.slice(1).map((x) => x[2])).toEqual(['Alpha Export K.K.']);
  });
});

describe('AES and permissions', () => {
  it('every call refuses a plain body (400) and answers sealed', async () => {
    const calls: [string, unknown][] = [
      ['export/list', {}],
      ['export/info', { id: 1 }],
      ['export/create', valid],
      ['export/update', { ...valid, id: 1 }],
      ['export/delete', { id: 1 }],
      ['export/export', {}],
      ['user/updateReceiveEmail', { id: 1, receiveEmail: 'a@b.example' }],
    ];
    for (const [path, body] of calls) {
      const plain = await h.post(path, body, demo);
      expect(plain.status, path).toBe(400);
    }
    const sealed = await h.post('export/list', sealRequest(demo, {}), demo, { aes: '1' });
    expect(sealed.status).toBe(200);
    expect(typeof sealed.body.data).toBe('string');
    const opened = openResponse(demo, sealed.body) as { total: number };
    expect(opened.total).toBeGreaterThanOrEqual(3);
  });
});

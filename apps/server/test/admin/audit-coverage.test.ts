import { allCalls, type CallDef, pickups } from '@console/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness.ts';
import { STAFF_AUDITED_WRITES } from '../../src/lib/staff-writes.ts';
import { aes } from '../items/helpers.ts';

/**
 * Finding 5 of issue 26: administrative changes went unaudited (a −999 CNY credit wrote no row).
 * This walks every call of the contract: each is a read, a write that must leave an audit row,
 * a write on a customer's data that leaves one when staff or an agent makes it (issue 36 #6,
 * lib/staff-writes.ts, walked in staff-writes-audit.test.ts), or on the short list of deliberate
 * exceptions (the caller's own session and settings, previews) with its reason. A call in none of them fails
 * the first test, so a new call has to be classified before it lands.
 */

/**
 * Reads, by the last part of the path (or the whole path): lists, look-ups, progress, templates.
 * Calls that answer a file (`kind: 'blob'`) are reads too; the sensitive ones (ID-card images,
 * permits) audit themselves, which is outside this walk.
 */
const readNames = new Set([
  'list',
  'info',
  'search',
  'progress',
  'template',
  'templateExcel',
  'slots',
  'select',
  'capacity',
  'orders',
  'items',
  'item',
  'lines',
  'months',
  'stats',
  'abbr',
  'shippable',
  'shipments',
  'batchNumber',
  'operationLocationList',
  'parts',
  'brands',
  'categories',
  'exportCategories',
  'taxes',
  'segments',
  'settings',
  'message',
  'check',
  'tracking',
  'idCard',
  'order',
  'abnormal',
  'error',
  'originSelect',
  'selectAllRule',
  'numberSegments',
  'orderList',
  'order/list/interception',
  'found',
  'getItemByJan',
  'getSendAddress',
  'getDefaultNumber',
  'resolveAddress',
  'identifyPostalCode',
  // whole paths
  'me',
  'bills',
  'notifications',
  'exportDeclarations',
  'storageOrders',
  'orderReviews',
  'meituan_reservation_orders',
  'meituan_reservation_order',
  'order/batches',
  'channels',
  'customers',
  'customsClearanceCompanies',
  'exports',
  'noTypes',
  'orderTypes',
  'currencies',
  'provinces',
  'cities',
  'areas',
  'tree',
  // the list of item adjustments
  'item/adj',
  // a search by an uploaded list of numbers: nothing is stored but the search's own result
  'order/orderBatchSearch',
  // where a declarations commit on the job queue stands
  'exportDeclaration/batchRun',
  // where a print job stands (its starter's only)
  'order/printLabelAResult',
  // one webhook delivery and its attempts
  'webhook/delivery/get',
]);

const OWN = "the caller's own data or session, not a change of anyone else's";
const PREVIEW = 'a preview: nothing changes until its apply, which is classified itself';

/**
 * Writes that deliberately write no audit row, each with its reason: the caller's own session and
 * settings, and previews that change nothing. Every write on a customer's data is in
 * `STAFF_AUDITED_WRITES` (issue 36 #6): made by staff or an agent it leaves a `staff.write` row.
 */
const exceptions: Record<string, string> = {
  login: 'sign-in: the sessions table records every session (created, ended and why)',
  refresh: 'token rotation of an existing session: the sessions table records it',
  logout: OWN,
  updatePassWord: `${OWN}; every other session ends with reason password_changed, recorded on the sessions`,
  'user/settings/save': OWN,
  'user/updateReceiveEmail': OWN,
  'notice/agree': `${OWN}: the agreement row (user, notice, time) is the record`,
  'order/setDefaultNumber': OWN,
  'order/getOrderNumber': 'hands out a fresh order number to the caller: no record changes',
  'updateLableB/prompt': PREVIEW,
  'order/batchSender/preview': PREVIEW,
  'order/batchSender/previewSheet': PREVIEW,
  'order/updates/preview': PREVIEW,
  'item/import/upload': PREVIEW,
  // As on v1: an event (re)sent changes no setting; the delivery log records it, attempt by attempt.
  'webhook/endpoint/test': 'a test event to the caller’s own endpoint: the delivery log is its record',
  'webhook/delivery/resend': 'the same event sent again: the delivery log records each attempt',
};

let h: Harness;
let tokens: { admin: string; operator: string; demo: string };
/** What earlier calls of the walk made, for the bodies of later ones. */
const made: Record<string, number> = {};

const idOf = async (table: 'users' | 'customers', column: 'name' | 'code', value: string) =>
  (
    await h.db
      .selectFrom(table as 'users')
      .select('id')
      .where(column as 'name', '=', value)
      .executeTakeFirstOrThrow()
  ).id;

interface Audited {
  who: 'admin' | 'operator' | 'demo';
  action: string;
  /** One call or several (disable and enable), each must leave its row. */
  bodies: () => Promise<unknown[]>;
  after?: (data: any) => void;
}

/**
 * Every audited write with a valid body, built from the demo seed, in the order the walk makes
 * them (later ones act on what earlier ones made), and the action its row names.
 */
const audited: Record<string, Audited> = {
  'admin/customer/create': {
    who: 'operator',
    action: 'customer.create',
    bodies: async () => [{ code: 'AUDITCO', name: 'Audit Trading', contactName: 'Ms Li' }],
    after: (d) => (made.customer = d.id),
  },
  'admin/customer/update': {
    who: 'operator',
    action: 'customer.update',
    bodies: async () => [{ id: made.customer, name: 'Audit Trading Ltd', contactName: 'Ms Li' }],
  },
  'admin/customer/segment/create': {
    who: 'operator',
    action: 'segment.create',
    bodies: async () => [
      {
        customerId: made.customer,
        channelCode: 'JP',
        name: 'audit walk',
        prefix: 'QQ',
        suffix: 'JP',
        scheme: 's10',
        firstSeq: 1,
        lastSeq: 100,
      },
    ],
    after: (d) => (made.segment = d.id),
  },
  'admin/customer/segment/retire': {
    who: 'operator',
    action: 'segment.retire',
    bodies: async () => [{ id: made.segment }],
  },
  // API keys (issue 39): a customer makes one; the admin revokes it.
  'apiKey/create': {
    who: 'demo',
    action: 'apiKey.create',
    bodies: async () => [{ name: 'audit walk', scopes: ['orders:read'] }],
    after: (d) => (made.apiKey = d.id),
  },
  'apiKey/revoke': {
    who: 'admin',
    action: 'apiKey.revoke',
    bodies: async () => [{ id: made.apiKey }],
  },
  // Webhook endpoints from the console (issue 39 item 5): the rows the v1 calls write.
  'webhook/endpoint/create': {
    who: 'demo',
    action: 'webhookEndpoint.create',
    bodies: async () => [{ url: 'https://example.com/hook', eventTypes: ['order.created'] }],
    after: (d) => (made.webhook = d.id),
  },
  'webhook/endpoint/update': {
    who: 'demo',
    action: 'webhookEndpoint.update',
    bodies: async () => [{ id: made.webhook, description: 'audit walk' }],
  },
  'webhook/endpoint/rotateSecret': {
    who: 'demo',
    action: 'webhookEndpoint.rotateSecret',
    bodies: async () => [{ id: made.webhook }],
  },
  'webhook/endpoint/delete': {
    who: 'demo',
    action: 'webhookEndpoint.delete',
    bodies: async () => [{ id: made.webhook }],
  },
  'admin/user/create': {
    who: 'operator',
    action: 'user.create',
    bodies: async () => [{ name: 'audit.walker', displayName: 'Walker', role: 'customer', customerId: made.customer }],
    after: (d) => (made.user = d.user.id),
  },
  'admin/user/resetPassword': {
    who: 'operator',
    action: 'user.resetPassword',
    bodies: async () => [{ id: made.user }],
  },
  'admin/user/disable': {
    who: 'operator',
    action: 'user.disable',
    bodies: async () => [{ id: made.user, disabled: true }],
  },
  'admin/user/endSessions': {
    who: 'operator',
    action: 'user.endSessions',
    bodies: async () => [{ id: made.user }],
  },
  'admin/role/update': {
    who: 'admin',
    action: 'role.update',
    bodies: async () => {
      const roles = await h.post('admin/role/list', {}, tokens.admin);
      const agent = roles.body.data.find((r: { role: string }) => r.role === 'agent');
      return [{ role: 'agent', routes: agent.routes.filter((r: string) => r !== 'recipient.list') }];
    },
  },
  'session/end': {
    who: 'operator',
    action: 'user.endSessions',
    bodies: async () => [{ userName: 'audit.walker' }],
  },
  'session/endOne': {
    who: 'operator',
    action: 'user.endSession',
    bodies: async () => {
      await h.login('demo');
      const demo = await idOf('users', 'name', 'demo');
      const s = await h.db.selectFrom('sessions').select('id').where('user_id', '=', demo).orderBy('id', 'desc');
      return [{ id: (await s.executeTakeFirstOrThrow()).id }];
    },
  },
  'user/disable': {
    who: 'operator',
    action: 'user.(en|dis)able',
    bodies: async () => [
      { userName: 'audit.walker', disabled: false },
      { userName: 'audit.walker', disabled: true },
    ],
  },
  'bill/adjust': {
    who: 'operator',
    action: 'bill.adjust',
    bodies: async () => [
      {
        customerId: await idOf('customers', 'code', 'DEMO'),
        currency: 'CNY',
        amount: '-999',
        reason: 'goodwill credit',
      },
    ],
  },
  'bill/issue': {
    who: 'operator',
    action: 'bill.issue',
    bodies: async () => {
      const open = await h.db
        .selectFrom('bills')
        .select('id')
        .where('status', '=', 'open')
        .orderBy('id')
        .executeTakeFirstOrThrow();
      made.bill = open.id;
      return [{ id: open.id }];
    },
  },
  'bill/markPaid': {
    who: 'operator',
    action: 'bill.markPaid',
    bodies: async () => [{ id: made.bill }],
  },
  'rateCards/save': {
    who: 'operator',
    action: 'rateCard.save',
    bodies: async () => [
      {
        channelCode: 'JP',
        customerId: null,
        effectiveFrom: '2031-01-01',
        rules: { firstWeightG: 500, firstPrice: 1200 },
      },
    ],
  },
  'notice/publish': {
    who: 'operator',
    action: 'notice.publish',
    bodies: async () => [
      { title: { zh: '审计', en: 'Audit' }, content: { zh: '内容', en: 'Content' }, mustAgree: false },
    ],
  },
  'validateAbnormalRule/updateRule': {
    who: 'operator',
    action: 'abnormalRule.update',
    bodies: async () => [{ code: 'invalidPhone', enabled: false }],
  },
  'storageOrder/reweigh': {
    who: 'operator',
    action: 'order.reweigh',
    bodies: async () => {
      const received = await h.db
        .selectFrom('orders')
        .select('id')
        .where('status', '=', 'received')
        .orderBy('id')
        .executeTakeFirstOrThrow();
      return [{ orderId: received.id, grossWeightG: 2345, reason: 'scale recalibrated' }];
    },
  },
  'subscribe/time/capacity/update': {
    who: 'operator',
    action: 'pickupCapacity.update',
    bodies: async () => [{ region: 'tokyo', slot: pickups.PICKUP_SLOTS[0], capacity: 7 }],
  },
};

const segmentsOf = (path: string) => [path, path.split('/').at(-1)!];
const isRead = (c: CallDef) => c.kind === 'blob' || segmentsOf(c.path).some((s) => readNames.has(s));

beforeAll(async () => {
  h = await createHarness();
  tokens = { admin: await h.login('admin'), operator: await h.login('operator'), demo: await h.login('demo') };
});

describe('every write of the contract is audited or a listed exception (finding 5)', () => {
  it('every call is classified: read, audited, a staff write or an exception with its reason', () => {
    const unclassified = allCalls
      .filter((c) => !isRead(c) && !(c.path in audited) && !(c.path in exceptions) && !STAFF_AUDITED_WRITES.has(c.path))
      .map((c) => c.path);
    expect(unclassified).toEqual([]);
    // A staff write is audited by the router or its service, never also excused or walked here.
    expect([...STAFF_AUDITED_WRITES].filter((p) => p in exceptions || p in audited)).toEqual([]);
    // No name on the lists that the contract does not have, and none both read and write.
    const paths = new Set(allCalls.map((c) => c.path));
    expect([...Object.keys(audited), ...Object.keys(exceptions)].filter((p) => !paths.has(p))).toEqual([]);
    const both = allCalls
      .filter((c) => isRead(c) && (c.path in audited || c.path in exceptions || STAFF_AUDITED_WRITES.has(c.path)))
      .map((c) => c.path);
    expect(both).toEqual([]);
    expect(Object.keys(audited).filter((p) => p in exceptions)).toEqual([]);
  });

  it.each(Object.keys(audited))('%s writes an audit row in its change', async (path) => {
    const entry = audited[path]!;
    const def = allCalls.find((c) => c.path === path)!;
    const token = tokens[entry.who];
    for (const body of await entry.bodies()) {
      const before = await h.db.selectFrom('audit_log').select('id').orderBy('id', 'desc').executeTakeFirst();
      const r = def.aes
        ? await aes(h, path, body, token)
        : await h.post(path, body, token, { 'accept-language': 'en' }).then((x) => ({ ...x, data: x.body?.data }));
      expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
      const data: unknown = r.data;
      entry.after?.(data);
      const rows = await h.db
        .selectFrom('audit_log')
        .select(['action', 'user_name', 'target', 'ip'])
        .where('id', '>', before?.id ?? 0)
        .execute();
      expect(rows.map((x) => x.action)).toEqual([expect.stringMatching(new RegExp(`^${entry.action}$`))]);
      expect(rows[0]).toMatchObject({ user_name: entry.who });
      expect(rows[0]!.target).not.toBe('');
      expect(rows[0]!.ip).not.toBe('');
    }
  });
});

describe('the row is written in the change’s transaction', () => {
  const lastId = async () =>
    (await h.db.selectFrom('audit_log').select('id').orderBy('id', 'desc').executeTakeFirst())?.id ?? 0;

  it('a refused change leaves no row (a bill issued twice, a rate card with bad brackets)', async () => {
    const before = await lastId();
    const again = await h.post('bill/issue', { id: made.bill }, tokens.operator);
    expect(again.status).toBe(409);
    const card = await h.post(
      'rateCards/save',
      {
        channelCode: 'JP',
        effectiveFrom: '2031-02-01',
        rules: { firstWeightG: 500, firstPrice: 1200, brackets: [{ upToG: 400, stepG: 100, price: 100 }] },
      },
      tokens.operator,
    );
    expect(card.status).toBe(422);
    expect(Object.keys(card.body.data)).toEqual(['rules.brackets']);
    expect(await lastId()).toBe(before);
  });

  it('the −999 CNY credit names its amount, currency and reason', async () => {
    const row = await h.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'bill.adjust')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.detail)).toMatchObject({ amount: '-999', currency: 'CNY', reason: 'goodwill credit' });
    const charge = await h.db
      .selectFrom('charges')
      .select(['amount_minor', 'currency'])
      .where('id', '=', JSON.parse(row.detail).charge)
      .executeTakeFirstOrThrow();
    expect({ amount: Number(charge.amount_minor), currency: charge.currency }).toEqual({
      amount: -99900,
      currency: 'CNY',
    });
  });
});

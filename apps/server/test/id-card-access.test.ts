import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, multipart } from './harness.ts';

/**
 * Finding 6 of issue 10: agents could add and replace ID-card images (`order/idCard/upload`)
 * and learn from `order/idCard` whether an ID number is on file. One rule for every ID-card
 * call (id-cards.rules.ts): the customer's own users and operators only.
 */
let h: Harness;
const tokens: Record<string, string> = {};
let order: { id: number; recipient_id_card: string };
let cardId: number;

const jpeg = (size = 4096) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(size, 7)]);

async function send(path: string, token: string, body: object | { multipart: ReturnType<typeof multipart> }) {
  const m = 'multipart' in body ? (body.multipart as ReturnType<typeof multipart>) : null;
  const res = await h.app.inject({
    method: 'POST',
    url: `/api/${path}`,
    headers: {
      authorization: `Bearer ${token}`,
      'accept-language': 'en',
      'content-type': m ? m.contentType : 'application/json',
    },
    payload: m ? m.payload : JSON.stringify(body),
  });
  return { status: res.statusCode, body: res.body };
}

/** Every ID-card call, with a body that is valid for a caller the rule lets through. */
const calls: [string, () => object][] = [
  ['order/idCard', () => ({ limit: 10, keyword: order.recipient_id_card })],
  [
    'order/idCard/upload',
    () => ({ multipart: multipart({ side: 'front', orderId: String(order.id) }, { name: 'f.jpg', data: jpeg() }) }),
  ],
  ['order/idCard/image', () => ({ id: cardId, side: 'front' })],
  ['order/idCard/template', () => ({})],
  ['order/idCard/import', () => ({ multipart: multipart({}, { name: 'x.xlsx', data: Buffer.from('not a zip') }) })],
  ['order/idCard/import/errors', () => ({ fileId: 999_999 })],
];

beforeAll(async () => {
  h = await createHarness();
  // The migration took the grant away from agents (their menu no longer shows the page) …
  const granted = await h.db
    .selectFrom('role_permissions')
    .select('route_name')
    .where('role', '=', 'agent')
    .where('route_name', '=', 'order.idCard')
    .execute();
  expect(granted).toEqual([]);
  // … and the service refuses them even when an admin grants it again: that is what is tested.
  await h.db.insertInto('role_permissions').values({ role: 'agent', route_name: 'order.idCard' }).execute();
  for (const n of ['demo', 'agent', 'operator', 'admin']) tokens[n] = await h.login(n);
  const demoId = (await h.db.selectFrom('customers').select('id').where('code', '=', 'DEMO').executeTakeFirstOrThrow())
    .id;
  order = await h.db
    .selectFrom('orders')
    .select(['id', 'recipient_id_card'])
    .where('customer_id', '=', demoId)
    .where('status', '=', 'created')
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const up = await send('order/idCard/upload', tokens.demo!, calls[1]![1]());
  expect(up.status).toBe(200);
  cardId = JSON.parse(up.body).data.id;
});

describe('finding 6: one rule for every ID-card call', () => {
  for (const [path, body] of calls) {
    it(`${path}: agents are refused (403), even with the permission granted`, async () => {
      const r = await send(path, tokens.agent!, body());
      expect(r.status).toBe(403);
      expect(JSON.parse(r.body).message).toBe('Only the customer itself or an operator can add or see ID cards.');
    });
    for (const role of ['demo', 'operator', 'admin']) {
      it(`${path}: ${role} passes the rule`, async () => {
        const r = await send(path, tokens[role]!, body());
        // What happens next is each call's own business (a 422 for the bad workbook, a 404 for
        // an unknown error file); the rule does not stop these callers.
        expect(r.status).not.toBe(403);
        expect([200, 404, 422]).toContain(r.status);
      });
    }
  }

  it('an agent can neither replace the front image of a customer’s card nor tell whether an ID number is on file', async () => {
    const before = await h.db.selectFrom('id_cards').selectAll().where('id', '=', cardId).executeTakeFirstOrThrow();
    const replace = await send('order/idCard/upload', tokens.agent!, calls[1]![1]());
    expect(replace.status).toBe(403);
    const after = await h.db.selectFrom('id_cards').selectAll().where('id', '=', cardId).executeTakeFirstOrThrow();
    expect(after.front_file_id).toBe(before.front_file_id);
    const probe = await send('order/idCard', tokens.agent!, { limit: 10, keyword: order.recipient_id_card });
    expect(probe.status).toBe(403);
    expect(probe.body).not.toContain('"total"');
    // The owner still finds it by the same number.
    const own = await send('order/idCard', tokens.demo!, { limit: 10, keyword: order.recipient_id_card });
    expect(JSON.parse(own.body).data.total).toBeGreaterThan(0);
  });
});

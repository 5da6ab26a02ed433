import { admin } from '@console/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness.ts';
import { aes } from '../items/helpers.ts';

/**
 * Administration (issue 17): a customer and its user made through the calls can log in, must
 * change the one-time password before anything else, and see only their own data; disabling
 * ends sessions (430 with the reason); role edits show in `me` at the next load; the audit log
 * records changes and ID-card image reads; customers and agents get 403 on every call.
 */
let h: Harness;
let tokens: Record<'demo' | 'demo2' | 'agent' | 'operator' | 'admin', string>;

const NEW_PASSWORD = 'Fresh-Start-2026';

beforeAll(async () => {
  h = await createHarness();
  tokens = {
    demo: await h.login('demo'),
    demo2: await h.login('demo2'),
    agent: await h.login('agent'),
    operator: await h.login('operator'),
    admin: await h.login('admin'),
  };
});

/** A plain or AES admin call, as the console makes it. */
async function call(def: { path: string; aes: boolean }, body: unknown, token: string) {
  if (def.aes) return aes(h, def.path, body, token);
  const r = await h.post(def.path, body, token, { 'accept-language': 'en' });
  return { status: r.status, body: r.body, data: r.body?.data };
}

async function newCustomerWithUser(code: string, userName: string, token = tokens.operator) {
  const cust = await call(admin.createCustomer, { code, name: `${code} Trading`, contactName: 'Ms Li' }, token);
  expect(cust.status).toBe(200);
  const user = await call(
    admin.createUser,
    { name: userName, displayName: `${code} user`, role: 'customer', customerId: cust.data.id },
    token,
  );
  expect(user.status).toBe(200);
  return { customer: cust.data, user: user.data.user, password: user.data.password as string };
}

describe('the tenant wall', () => {
  const bodies: [{ path: string; aes: boolean }, unknown][] = [
    [admin.customerList, {}],
    [admin.createCustomer, { code: 'NOPE', name: 'x' }],
    [admin.updateCustomer, { id: 1, name: 'x' }],
    [admin.customerSegments, { customerId: 1 }],
    [
      admin.createSegment,
      { customerId: 1, channelCode: 'JP', name: 'x', prefix: 'NOPE', scheme: 'plain', firstSeq: 1, lastSeq: 9 },
    ],
    [admin.retireSegment, { id: 1 }],
    [admin.userList, {}],
    [admin.createUser, { name: 'nope1', displayName: 'x', role: 'customer', customerId: 1 }],
    [admin.resetPassword, { id: 1 }],
    [admin.disableUser, { id: 1, disabled: true }],
    [admin.endUserSessions, { id: 1 }],
    [admin.roleList, {}],
    [admin.updateRole, { role: 'customer', routes: ['index'] }],
    [admin.auditList, {}],
  ];
  it('covers every admin call', () => {
    const all = Object.values(admin).filter((v) => typeof v === 'object' && v !== null && 'path' in v);
    expect(bodies.map(([d]) => d.path).sort()).toEqual(all.map((d) => (d as { path: string }).path).sort());
  });
  it.each(['demo', 'demo2', 'agent'] as const)('%s gets 403 on every admin call and nothing changes', async (who) => {
    for (const [def, body] of bodies) {
      const r = await call(def, body, tokens[who]);
      expect(r.status, def.path).toBe(403);
    }
    const users = await h.db.selectFrom('users').select('name').where('name', '=', 'nope1').execute();
    expect(users).toEqual([]);
    expect(await h.db.selectFrom('customers').select('id').where('code', '=', 'NOPE').execute()).toEqual([]);
    expect(await h.db.selectFrom('number_segments').select('id').where('prefix', '=', 'NOPE').execute()).toEqual([]);
  });
  it('operators may not edit roles; the admin may', async () => {
    expect((await call(admin.roleList, {}, tokens.operator)).status).toBe(403);
    expect((await call(admin.roleList, {}, tokens.admin)).status).toBe(200);
  });
  it('without a token: 401', async () => {
    expect((await h.post(admin.customerList.path, {})).status).toBe(401);
  });
});

describe('a customer and its user made through the calls', () => {
  it('logs in, must change the password first, then sees only its own data', async () => {
    const { customer, user, password } = await newCustomerWithUser('ACME', 'acme.li');
    expect(user).toMatchObject({ role: 'customer', customerId: customer.id, mustChangePassword: true });
    expect(password).toMatch(/^.{14}$/);

    const login = await h.post('login', { name: 'acme.li', password });
    expect(login.status).toBe(200);
    expect(login.body.data.mustChangePassword).toBe(true);
    const token = login.body.data.access_token as string;

    // `me` answers (the console needs it to show the dialog) and says so.
    const me = await aes(h, 'me', {}, token);
    expect(me.status).toBe(200);
    expect(me.data.mustChangePassword).toBe(true);
    // Anything else is refused until the password is changed.
    const refused = await h.post('order/orderList', {}, token, { 'accept-language': 'en' });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/one-time password/);

    const weak = await h.post('updatePassWord', { old_password: password, password: 'password' }, token);
    expect(weak.status).toBe(422);
    const changed = await h.post('updatePassWord', { old_password: password, password: NEW_PASSWORD }, token);
    expect(changed.status).toBe(200);

    const me2 = await aes(h, 'me', {}, token);
    expect(me2.data.mustChangePassword).toBe(false);
    expect(me2.data.customer).toMatchObject({ id: customer.id, code: 'ACME' });
    const again = await h.post('login', { name: 'acme.li', password: NEW_PASSWORD });
    expect(again.body.data.mustChangePassword).toBe(false);

    // Sees only its own data: a new customer has no orders, while demo has some.
    const mine = await h.post('order/orderList', { offset: 0, limit: 50 }, token);
    const demos = await h.post('order/orderList', { offset: 0, limit: 50 }, tokens.demo);
    expect(mine.status).toBe(200);
    expect(mine.body.data.total).toBe(0);
    expect(demos.body.data.total).toBeGreaterThan(0);
    // And no admin call.
    expect((await call(admin.customerList, {}, token)).status).toBe(403);
  });

  it('refuses bad input with the field and reason', async () => {
    const dup = await call(admin.createCustomer, { code: 'ACME', name: 'again' }, tokens.operator);
    expect(dup.status).toBe(422);
    expect(dup.data.code[0]).toMatch(/exists/);
    const code = await call(admin.createCustomer, { code: 'lower case', name: 'x' }, tokens.operator);
    expect(code.status).toBe(422);
    expect(Object.keys(code.data)).toEqual(['code']);
    const orphan = await call(
      admin.createUser,
      { name: 'orphan', displayName: 'x', role: 'customer', customerId: null },
      tokens.operator,
    );
    expect(orphan.status).toBe(422);
    expect(orphan.data.customerId).toBeDefined();
    const higher = await call(
      admin.createUser,
      { name: 'boss2', displayName: 'x', role: 'admin-none', customerId: null },
      tokens.operator,
    );
    expect(higher.status).toBe(422);
    expect(higher.data.role).toBeDefined();
    const taken = await call(
      admin.createUser,
      { name: 'demo', displayName: 'x', role: 'agent', customerId: null },
      tokens.operator,
    );
    expect(taken.status).toBe(422);
    expect(taken.data.name).toBeDefined();
    const notAgent = await call(
      admin.createCustomer,
      { code: 'BAD-AGENT', name: 'x', agentUserId: 1 },
      tokens.operator,
    );
    expect(notAgent.status).toBe(422);
    expect(notAgent.data.agentUserId).toBeDefined();
  });

  it('an agent made through the calls acts for the customers given to it', async () => {
    const ag = await call(admin.createUser, { name: 'agent.wu', displayName: 'Wu', role: 'agent' }, tokens.operator);
    expect(ag.status).toBe(200);
    const cust = await call(
      admin.createCustomer,
      { code: 'WUCO', name: 'Wu Co', agentUserId: ag.data.user.id },
      tokens.operator,
    );
    expect(cust.data).toMatchObject({ agentUserId: ag.data.user.id, agentName: 'agent.wu' });
    const list = await call(admin.customerList, { agentUserId: ag.data.user.id }, tokens.operator);
    expect(list.data.list.map((c: { code: string }) => c.code)).toEqual(['WUCO']);
    const upd = await call(
      admin.updateCustomer,
      { id: cust.data.id, name: 'Wu Company', agentUserId: null },
      tokens.operator,
    );
    expect(upd.data).toMatchObject({ name: 'Wu Company', agentUserId: null });
  });
});

describe('accounts', () => {
  it('disabling ends the sessions: the next call answers 430 with the reason; login refused', async () => {
    const { user, password } = await newCustomerWithUser('DISCO', 'disco.user');
    const token = (await h.post('login', { name: 'disco.user', password })).body.data.access_token as string;
    const r = await call(admin.disableUser, { id: user.id, disabled: true }, tokens.operator);
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ disabled: true, sessions: 0 });
    const next = await h.post('me', {}, token, { 'accept-language': 'en' });
    expect(next.status).toBe(430);
    expect(next.body.message).toMatch(/disabled/);
    expect((await h.post('login', { name: 'disco.user', password })).status).toBe(400);
    await call(admin.disableUser, { id: user.id, disabled: false }, tokens.operator);
    expect((await h.post('login', { name: 'disco.user', password })).status).toBe(200);
  });

  it('reset password: a new one-time password, old sessions end, old password refused', async () => {
    const { user, password } = await newCustomerWithUser('RESET', 'reset.user');
    const token = (await h.post('login', { name: 'reset.user', password })).body.data.access_token as string;
    const r = await call(admin.resetPassword, { id: user.id }, tokens.operator);
    expect(r.status).toBe(200);
    expect(r.data.password).not.toBe(password);
    expect((await h.post('me', {}, token)).status).toBe(430);
    expect((await h.post('login', { name: 'reset.user', password })).status).toBe(400);
    const fresh = await h.post('login', { name: 'reset.user', password: r.data.password });
    expect(fresh.body.data.mustChangePassword).toBe(true);
  });

  it('end sessions: 430 with the operator reason', async () => {
    const { user, password } = await newCustomerWithUser('ENDS', 'ends.user');
    const token = (await h.post('login', { name: 'ends.user', password })).body.data.access_token as string;
    const r = await call(admin.endUserSessions, { id: user.id }, tokens.operator);
    expect(r.data.ended).toBe(1);
    const next = await h.post('me', {}, token, { 'accept-language': 'en' });
    expect(next.status).toBe(430);
    expect(next.body.message).toMatch(/operator/);
  });

  it('no one acts on their own account or a higher role', async () => {
    const adminId = (await h.db.selectFrom('users').select('id').where('name', '=', 'admin').executeTakeFirstOrThrow())
      .id;
    const opId = (await h.db.selectFrom('users').select('id').where('name', '=', 'operator').executeTakeFirstOrThrow())
      .id;
    expect((await call(admin.disableUser, { id: adminId, disabled: true }, tokens.operator)).status).toBe(403);
    expect((await call(admin.resetPassword, { id: opId }, tokens.operator)).status).toBe(403);
    expect((await call(admin.endUserSessions, { id: adminId }, tokens.admin)).status).toBe(403);
  });

  it('the user list filters by role and name', async () => {
    const r = await call(admin.userList, { role: 'agent', limit: 100 }, tokens.operator);
    expect(r.data.list.every((u: { role: string }) => u.role === 'agent')).toBe(true);
    expect(r.data.list.map((u: { name: string }) => u.name)).toContain('agent');
    const k = await call(admin.userList, { keyword: 'demo2' }, tokens.operator);
    expect(k.data.list.map((u: { name: string }) => u.name)).toEqual(['demo2']);
  });

  it('two operators creating the same name at once: one account', async () => {
    const body = { name: 'race.user', displayName: 'Race', role: 'agent' };
    const rs = await Promise.all([
      call(admin.createUser, body, tokens.operator),
      call(admin.createUser, body, tokens.admin),
    ]);
    expect(rs.map((r) => r.status).sort()).toEqual([200, 422].sort());
    expect(await h.db.selectFrom('users').select('id').where('name', '=', 'race.user').execute()).toHaveLength(1);
  });
});

describe('roles', () => {
  it('a role edit changes `me` at the next load', async () => {
    const roles = await call(admin.roleList, {}, tokens.admin);
    const customerRoutes: string[] = roles.data.find((r: { role: string }) => r.role === 'customer').routes;
    expect(customerRoutes).toContain('order.list');
    const before = await aes(h, 'me', {}, tokens.demo);
    expect(before.data.accessedRoutes.map((r: { name: string }) => r.name)).toContain('order.list');

    const without = customerRoutes.filter((r) => r !== 'order.list');
    expect((await call(admin.updateRole, { role: 'customer', routes: without }, tokens.admin)).status).toBe(200);
    const after = await aes(h, 'me', {}, tokens.demo);
    expect(after.data.accessedRoutes.map((r: { name: string }) => r.name)).not.toContain('order.list');
    expect((await h.post('order/orderList', {}, tokens.demo)).status).toBe(403);

    expect((await call(admin.updateRole, { role: 'customer', routes: customerRoutes }, tokens.admin)).status).toBe(200);
    const back = await aes(h, 'me', {}, tokens.demo);
    expect(back.data.accessedRoutes.map((r: { name: string }) => r.name)).toContain('order.list');
  });

  it('refuses to grant the System menu to customers or agents, and unknown routes', async () => {
    const sys = await call(admin.updateRole, { role: 'agent', routes: ['index', 'system.users'] }, tokens.admin);
    expect(sys.status).toBe(422);
    expect(sys.data.routes[0]).toMatch(/system.users/);
    const unknown = await call(admin.updateRole, { role: 'customer', routes: ['nope.route'] }, tokens.admin);
    expect(unknown.status).toBe(422);
    const agentMe = await aes(h, 'me', {}, tokens.agent);
    expect(agentMe.data.accessedRoutes.map((r: { name: string }) => r.name)).not.toContain('system.users');
  });
});

describe('the audit log', () => {
  it('records admin changes with who, what and from where, without passwords', async () => {
    await newCustomerWithUser('AUDIT', 'audit.user');
    const r = await call(admin.auditList, { target: 'customer:AUDIT' }, tokens.operator);
    expect(r.status).toBe(200);
    expect(r.data.list).toHaveLength(1);
    expect(r.data.list[0]).toMatchObject({ action: 'customer.create', userName: 'operator', target: 'customer:AUDIT' });
    expect(r.data.list[0].ip).not.toBe('');
    const u = await call(admin.auditList, { action: 'user.create', target: 'audit.user' }, tokens.operator);
    expect(u.data.list).toHaveLength(1);
    const all = await h.db.selectFrom('audit_log').select('detail').execute();
    const pw = await h.db
      .selectFrom('users')
      .select('password_hash')
      .where('name', '=', 'audit.user')
      .executeTakeFirstOrThrow();
    expect(all.some((a) => a.detail.includes(pw.password_hash))).toBe(false);
    const roleRows = await call(admin.auditList, { action: 'role.' }, tokens.operator);
    expect(roleRows.data.total).toBeGreaterThan(0);
  });

  it('filters by user and day (China time), pages newest first', async () => {
    const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    const r = await call(
      admin.auditList,
      { userName: 'operator', dateFrom: today, dateTo: today, limit: 2 },
      tokens.operator,
    );
    expect(r.data.total).toBeGreaterThan(2);
    expect(r.data.list).toHaveLength(2);
    expect(r.data.list[0].at >= r.data.list[1].at).toBe(true);
    const none = await call(admin.auditList, { dateTo: '2020-01-01' }, tokens.operator);
    expect(none.data.total).toBe(0);
  });
});

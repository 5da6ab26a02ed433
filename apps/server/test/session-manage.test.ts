/**
 * The operators' session page (issue 28 #22): `session/list` shows every account's live sessions
 * (user, browser id and agent, address, last seen) and `session/endOne` ends one of them, audited,
 * under the rules of ending all of an account's (not one's own, not a higher role's).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../src/seed/demo.ts';
import { createHarness, type Harness } from './harness.ts';

let h: Harness;
let operator: string;
beforeAll(async () => {
  h = await createHarness();
  operator = await h.login('operator');
});

/** Logs in as from one browser: its uuid and user agent. */
const loginFrom = async (name: string, uuid: string, agent: string) => {
  const r = await h.post('login', { name, password: DEMO_PASSWORD, uuid }, undefined, { 'user-agent': agent });
  expect(r.status).toBe(200);
  return r.body.data.access_token as string;
};
const list = (body: Record<string, unknown>, token = operator) =>
  h.post('session/list', body, token, { 'accept-language': 'en' });
const sessionOf = async (uuid: string) =>
  (await h.db.selectFrom('sessions').select('id').where('uuid', '=', uuid).executeTakeFirstOrThrow()).id;
const orders = (token: string) => h.post('order/error', { offset: 0, limit: 1 }, token);

describe('session/list', () => {
  it('lists live sessions with user, browser and address; a logged-out one is not there', async () => {
    await loginFrom('demo2', 'uuid-live-1', 'Mozilla/5.0 Firefox/140.0');
    const out = await loginFrom('demo2', 'uuid-logged-out', 'Mozilla/5.0 Chrome/141.0');
    expect((await h.post('logout', {}, out)).status).toBe(200);
    const r = await list({ keyword: 'demo2', sort: 'lastSeenAt' });
    expect(r.status).toBe(200);
    const rows = r.body.data.list as any[];
    expect(rows.map((x) => x.uuid)).toContain('uuid-live-1');
    expect(rows.map((x) => x.uuid)).not.toContain('uuid-logged-out');
    expect(rows.find((x) => x.uuid === 'uuid-live-1')).toMatchObject({
      userName: 'demo2',
      role: 'customer',
      customerCode: 'DEMO2',
      userAgent: 'Mozilla/5.0 Firefox/140.0',
      ip: '127.0.0.1',
      current: false,
    });
    expect(r.body.data.total).toBe(rows.length);
  });

  it('filters by user on the server, pages and sorts, and marks the caller’s own session', async () => {
    await loginFrom('agent', 'uuid-agent-a', 'UA-a');
    h.clock.now = new Date(h.clock.now.getTime() + 60_000);
    await loginFrom('agent', 'uuid-agent-b', 'UA-b');
    h.clock.now = new Date();
    const first = await list({ keyword: 'agent', limit: 1, offset: 0, sort: 'createdAt', order: 'asc' });
    expect(first.body.data.total).toBe(2);
    expect(first.body.data.list.map((x: any) => x.uuid)).toEqual(['uuid-agent-a']);
    const second = await list({ keyword: 'agent', limit: 1, offset: 1, sort: 'createdAt', order: 'asc' });
    expect(second.body.data.list.map((x: any) => x.uuid)).toEqual(['uuid-agent-b']);
    const desc = await list({ keyword: 'agent', sort: 'createdAt', order: 'desc' });
    expect(desc.body.data.list.map((x: any) => x.uuid)).toEqual(['uuid-agent-b', 'uuid-agent-a']);
    // A LIKE wildcard in the keyword is matched literally.
    expect((await list({ keyword: 'ag%' })).body.data.total).toBe(0);
    const mine = (await list({ keyword: 'operator', limit: 500 })).body.data.list as any[];
    expect(mine.filter((x) => x.current)).toHaveLength(1);
  });

  it('is the operators’: a customer and an agent get 403', async () => {
    expect((await list({}, await h.login('demo'))).status).toBe(403);
    expect((await list({}, await h.login('agent'))).status).toBe(403);
  });
});

describe('session/endOne', () => {
  it('ends that session only (430 there), writes an audit row, and the list no longer shows it', async () => {
    const a = await loginFrom('demo', 'uuid-end-a', 'UA');
    const b = await loginFrom('demo', 'uuid-end-b', 'UA');
    const id = await sessionOf('uuid-end-a');
    const r = await h.post('session/endOne', { id }, operator);
    expect(r.status).toBe(200);
    expect((await orders(a)).status).toBe(430);
    expect((await orders(b)).status).toBe(200);
    const audit = await h.db
      .selectFrom('audit_log')
      .select(['action', 'target', 'user_name', 'detail'])
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ action: 'user.endSession', target: 'user:demo', user_name: 'operator' });
    expect(JSON.parse(audit.detail)).toEqual({ session: id });
    const rows = (await list({ keyword: 'demo', limit: 500 })).body.data.list as any[];
    expect(rows.map((x) => x.uuid)).not.toContain('uuid-end-a');
    expect(rows.map((x) => x.uuid)).toContain('uuid-end-b');
  });

  it('refuses the operator’s own account and a higher role’s (403), and a session already over (404)', async () => {
    await loginFrom('operator', 'uuid-op-other', 'UA');
    await loginFrom('admin', 'uuid-admin', 'UA');
    const en = { 'accept-language': 'en' };
    const own = await h.post('session/endOne', { id: await sessionOf('uuid-op-other') }, operator, en);
    expect(own.status).toBe(403);
    const admin = await h.post('session/endOne', { id: await sessionOf('uuid-admin') }, operator, en);
    expect(admin.status).toBe(403);
    const out = await loginFrom('demo', 'uuid-out', 'UA');
    await h.post('logout', {}, out);
    const over = await h.post('session/endOne', { id: await sessionOf('uuid-out') }, operator, en);
    expect(over.status).toBe(404);
    expect(over.body.message).toBe('This session has already ended.');
  });

  it('two operators ending one session at once end it once: one 200, the others 404, one audit row', async () => {
    await loginFrom('demo', 'uuid-race', 'UA');
    const id = await sessionOf('uuid-race');
    const admin = await h.login('admin');
    const before = (await h.db.selectFrom('audit_log').select('id').orderBy('id', 'desc').executeTakeFirst())?.id ?? 0;
    const rs = await Promise.all(
      [operator, admin, operator, admin, operator].map((t) => h.post('session/endOne', { id }, t)),
    );
    expect(rs.map((r) => r.status).sort()).toEqual([200, 404, 404, 404, 404]);
    const rows = await h.db.selectFrom('audit_log').select('action').where('id', '>', before).execute();
    expect(rows).toEqual([{ action: 'user.endSession' }]);
  });
});

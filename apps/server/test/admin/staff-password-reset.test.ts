import { admin } from '@console/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness.ts';
import { aes } from '../items/helpers.ts';

/**
 * Finding 12 of issue 26: an operator reset a peer operator's password, read the one-time
 * password from the answer and could log in as them. Only an admin resets a staff member's
 * (operator's or admin's) password; operators still reset customers' and agents' users.
 */
let h: Harness;
let adminToken: string;
let operatorToken: string;

const hashOf = async (name: string) =>
  (await h.db.selectFrom('users').select('password_hash').where('name', '=', name).executeTakeFirstOrThrow())
    .password_hash;
const idOf = async (name: string) =>
  (await h.db.selectFrom('users').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;

beforeAll(async () => {
  h = await createHarness();
  adminToken = await h.login('admin');
  operatorToken = await h.login('operator');
  const peer = await aes(
    h,
    admin.createUser.path,
    { name: 'peer.operator', displayName: 'Peer', role: 'operator', customerId: null },
    adminToken,
  );
  expect(peer.status).toBe(200);
});

describe('resetting a staff password', () => {
  it.each([
    ['en', /Only an administrator/],
    ['zh-CN', /只有管理员/],
  ])("an operator gets 403 on a peer operator's password (%s), and it stays unchanged", async (lang, message) => {
    const before = await hashOf('peer.operator');
    const r = await aes(h, admin.resetPassword.path, { id: await idOf('peer.operator') }, operatorToken, lang);
    expect(r.status).toBe(403);
    expect(r.body.message).toMatch(message);
    expect(r.body.data?.password).toBeUndefined();
    expect(await hashOf('peer.operator')).toBe(before);
  });

  it("an operator gets 403 on an admin's password, and it stays unchanged", async () => {
    const before = await hashOf('admin');
    const r = await aes(h, admin.resetPassword.path, { id: await idOf('admin') }, operatorToken);
    expect(r.status).toBe(403);
    expect(await hashOf('admin')).toBe(before);
  });

  it("an operator still resets a customer's and an agent's user", async () => {
    for (const name of ['demo', 'agent']) {
      const before = await hashOf(name);
      const r = await aes(h, admin.resetPassword.path, { id: await idOf(name) }, operatorToken);
      expect(r.status, name).toBe(200);
      expect(await hashOf(name)).not.toBe(before);
      expect((await h.post('login', { name, password: r.data.password })).status).toBe(200);
    }
  });

  it("an admin resets an operator's password, who then logs in with the new one", async () => {
    const before = await hashOf('peer.operator');
    const r = await aes(h, admin.resetPassword.path, { id: await idOf('peer.operator') }, adminToken);
    expect(r.status).toBe(200);
    expect(await hashOf('peer.operator')).not.toBe(before);
    const login = await h.post('login', { name: 'peer.operator', password: r.data.password });
    expect(login.status).toBe(200);
    expect(login.body.data.mustChangePassword).toBe(true);
  });
});

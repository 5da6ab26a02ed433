/** Finding 23: the session rules (spec §4, §6): role filter of routes, login and logout, forgetting a user. */
import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_ROLE, routeCatalogue, type AccessedRoute } from '@console/contract';
import { sessionEvents } from '../src/lib/events.ts';
import { filterRoutes, getSession, login, logout, resetSession } from '../src/lib/session.ts';
import { getToken, getUuid, setToken } from '../src/lib/storage.ts';

const route = (name: string, roles?: string[]): AccessedRoute => ({
  name,
  path: `/${name}`,
  title: { zh: name, en: name },
  icon: undefined,
  parent: undefined,
  hidden: false,
  roles,
});
type Sent = { path: string; body: unknown; authorization?: string };
let sent: Sent[] = [];
const serve = (answers: Record<string, unknown>) => {
  sent = [];
  globalThis.fetch = (async (url: string, init: RequestInit) => {
    const path = String(url).replace('/api/', '');
    const headers = init.headers as Record<string, string>;
    sent.push({ path, body: JSON.parse(String(init.body)), authorization: headers.Authorization });
    return new Response(JSON.stringify({ code: 200, message: 'ok', data: answers[path] ?? null }), { status: 200 });
  }) as typeof fetch;
};
afterEach(() => localStorage.clear());

describe('finding 23: session', () => {
  it('routes with roles are kept only for a matching role; routes without roles for everyone', () => {
    const accessed = [route('order.list'), route('order.scan', ['operator']), route('order.idCard', ['customer'])];
    expect(filterRoutes(accessed, ['customer']).map((r) => r.name)).toEqual(['order.list', 'order.idCard']);
    expect(filterRoutes(accessed, ['operator']).map((r) => r.name)).toEqual(['order.list', 'order.scan']);
  });

  it('admin-none sees every route of the catalogue, keeping what the server sent for known ones', () => {
    const sentByServer = route(routeCatalogue[0]!.name);
    sentByServer.title = { zh: '服务器', en: 'server' };
    const all = filterRoutes([sentByServer], [ADMIN_ROLE]);
    expect(all.map((r) => r.name)).toEqual(routeCatalogue.map((r) => r.name));
    expect(all[0]!.title.en).toBe('server');
  });

  it('login stores the token and tells other tabs; logout ends it on the server, locally and in other tabs', async () => {
    serve({ login: { access_token: 'tok-1' } });
    await login('demo', 'Demo@2026');
    expect(getToken()).toBe('tok-1');
    expect(localStorage.getItem('isLogin')).toBe('true');
    expect(sent[0]).toMatchObject({ path: 'login', body: { name: 'demo', password: 'Demo@2026', uuid: getUuid() } });

    const resets: string[] = [];
    const off = sessionEvents.on((e) => resets.push(e.type));
    serve({ logout: null });
    await logout();
    off();
    expect(sent.map((s) => [s.path, s.authorization])).toEqual([['logout', 'Bearer tok-1']]);
    expect(getToken()).toBeUndefined();
    expect(localStorage.getItem('isLogin')).toBe('false');
    expect(resets).toEqual(['reset']);
    expect(getSession().user).toBeNull();
  });

  it('logout without a token does not call the server; resetSession forgets routes', () => {
    serve({});
    setToken('x');
    resetSession();
    expect(getToken()).toBeUndefined();
    expect(getSession().routeNames.size).toBe(0);
    return logout().then(() => expect(sent).toEqual([]));
  });
});

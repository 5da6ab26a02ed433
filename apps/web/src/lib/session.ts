/**
 * The logged-in user (spec §4 login flow, §6 permissions). Outside React so the HTTP
 * client, the guard and components share one truth; React reads it with `useSession()`.
 */
import {
  ADMIN_ROLE,
  auth,
  routeCatalogue,
  type AccessedRoute,
  type CallResponse,
  type RouteEntry,
} from '@console/contract';
import { useSyncExternalStore } from 'react';
import { call, UnreachableError } from './http.ts';
import { t } from './i18n.ts';
import { setLogUser } from './log.ts';
import { sessionEvents } from './events.ts';
import {
  IS_LOGIN_KEY,
  clearSessionCookies,
  getToken,
  getUuid,
  readLocal,
  removeCookie,
  removeLocal,
  setToken,
  writeLocal,
} from './storage.ts';

export type Me = CallResponse<typeof auth.me>;

interface SessionState {
  user: Me | null;
  /** Routes this user may open (hidden ones included), after the §6 role filter. */
  routes: AccessedRoute[];
  routeNames: ReadonlySet<string>;
}

let state: SessionState = { user: null, routes: [], routeNames: new Set() };
const listeners = new Set<() => void>();
function set(next: SessionState) {
  state = next;
  for (const l of listeners) l();
}

export function getSession() {
  return state;
}

export function useSession(): SessionState {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => state,
  );
}

/**
 * Spec §6: a route with role restrictions is kept only for a matching role; `admin-none`
 * sees every route of the catalogue. Hidden routes stay reachable but never reach the menu.
 */
export function filterRoutes(accessed: readonly AccessedRoute[], roles: readonly string[]): AccessedRoute[] {
  if (roles.includes(ADMIN_ROLE)) {
    const byName = new Map(accessed.map((r) => [r.name, r]));
    return routeCatalogue.map((r: RouteEntry) => byName.get(r.name) ?? toAccessed(r));
  }
  return accessed.filter((r) => !r.roles || r.roles.length === 0 || r.roles.some((x) => roles.includes(x)));
}

function toAccessed(r: RouteEntry): AccessedRoute {
  return {
    name: r.name,
    path: r.path,
    title: { zh: r.title.zh, en: r.title.en },
    icon: r.icon,
    parent: r.parent,
    hidden: r.hidden,
    roles: r.roles ? [...r.roles] : undefined,
  };
}

/** The server did not answer (network down, server gone, a timeout): not a verdict on the session. */
export const isNoAnswer = (e: unknown) =>
  e instanceof UnreachableError || (e instanceof Error && e.name === 'TimeoutError');

export class SessionError extends Error {
  override readonly name = 'SessionError';
}

/** Loads `me` (AES). Throws SessionError with the spec's texts when the answer is unusable. */
export async function loadUser(): Promise<Me> {
  let me: Me;
  try {
    me = await call(auth.me, {});
  } catch (e) {
    // No answer at all says nothing of the session: the caller keeps it and may ask again.
    if (isNoAnswer(e)) throw e;
    throw new SessionError(t('session.verificationFailed'));
  }
  if (!Array.isArray(me.roles) || me.roles.length === 0 || !Array.isArray(me.permissions)) {
    throw new SessionError('getInfo: roles or permissions must be a non-null array!');
  }
  const routes = filterRoutes(me.accessedRoutes ?? [], me.roles);
  if (me.mustChangePassword) writeLocal(PASSWORD_FIRST_KEY, true);
  else removeLocal(PASSWORD_FIRST_KEY);
  set({ user: me, routes, routeNames: new Set(routes.map((r) => r.name)) });
  setLogUser(me.name);
  return me;
}

/**
 * The session must change its password before anything else (a one-time password, issue 17): the
 * server refuses every other call with 403 until then. Known from the login's answer, then from
 * each `me`, and kept across reloads: the console's loading asks for the page's calls before `me`
 * has answered, and they were four 403s on a new user's first login (issue 36 #22).
 */
const PASSWORD_FIRST_KEY = 'passwordChangeFirst';
export const mustChangePasswordFirst = () => readLocal<boolean>(PASSWORD_FIRST_KEY, false) === true;

export async function login(name: string, password: string): Promise<void> {
  const answer = await call(auth.login, { name, password, uuid: getUuid() }, { silent: false });
  if (answer.mustChangePassword) writeLocal(PASSWORD_FIRST_KEY, true);
  else removeLocal(PASSWORD_FIRST_KEY);
  setToken(answer.access_token);
  localStorage.setItem(IS_LOGIN_KEY, 'true');
}

/** Forgets the session locally (cookies, user, cached data) without calling the server. */
export function resetSession(): void {
  removeCookie('token');
  removeLocal(PASSWORD_FIRST_KEY);
  set({ user: null, routes: [], routeNames: new Set() });
  setLogUser('');
  // Cached data of the previous user must not leak into the next one's pages.
  sessionEvents.emit({ type: 'reset' });
}

export async function logout(): Promise<void> {
  try {
    if (getToken()) await call(auth.logout, {}, { silent: true });
  } catch {
    // The session may already be gone server-side; logging out locally is what matters.
  }
  resetSession();
  // Other tabs listen to this key and go to login too (spec "cross-tab logout").
  localStorage.setItem(IS_LOGIN_KEY, 'false');
}

export function endSessionAndReload(): void {
  clearSessionCookies();
  location.reload();
}

export const hasRoute = (name: string) => state.routeNames.has(name);

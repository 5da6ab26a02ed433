/**
 * Session and per-user persistence (spec §4): token and uuid live in cookies named
 * `<version>-token` / `<version>-uuid` for 365 days; settings and tabs are kept per user
 * in localStorage so two accounts on one browser never see each other's tabs.
 */
export const APP_VERSION = __APP_VERSION__;
const COOKIE_DAYS = 365;

const cookieName = (key: string) => `${APP_VERSION}-${key}`;

export function getCookie(key: string): string | undefined {
  const name = `${encodeURIComponent(cookieName(key))}=`;
  for (const part of document.cookie.split('; ')) {
    if (part.startsWith(name)) return decodeURIComponent(part.slice(name.length));
  }
  return undefined;
}

/**
 * Only this page's script reads the token (it goes out as a Bearer header), so no request
 * from another site needs the cookie: SameSite=Strict. Under HTTPS it is also Secure, so it
 * never travels over plain HTTP (finding 13 of issue 10). The server sets no cookie.
 */
const cookieAttributes = () => `path=/; SameSite=Strict${location.protocol === 'https:' ? '; Secure' : ''}`;

export function setCookie(key: string, value: string, days = COOKIE_DAYS): void {
  const expires = new Date(Date.now() + days * 864e5).toUTCString();
  document.cookie = `${encodeURIComponent(cookieName(key))}=${encodeURIComponent(value)}; expires=${expires}; ${cookieAttributes()}`;
}

export function removeCookie(key: string): void {
  document.cookie = `${encodeURIComponent(cookieName(key))}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; ${cookieAttributes()}`;
}

export const getToken = () => getCookie('token');
export const setToken = (token: string) => setCookie('token', token);

/** The browser's uuid identifies it to the server's session list; made once, kept a year. */
export function getUuid(): string {
  let uuid = getCookie('uuid');
  if (!uuid) {
    uuid = crypto.randomUUID();
    setCookie('uuid', uuid);
  }
  return uuid;
}

export function clearSessionCookies(): void {
  removeCookie('token');
  removeCookie('uuid');
}

/** localStorage key shared by every tab: 'false' written by one tab logs the others out. */
export const IS_LOGIN_KEY = 'isLogin';

export function readLocal<T>(key: string, fallback: T): T {
  try {
    const raw = localStorage.getItem(`${APP_VERSION}-${key}`);
    return raw === null ? fallback : (JSON.parse(raw) as T);
  } catch {
    return fallback;
  }
}

export function writeLocal(key: string, value: unknown): void {
  try {
    localStorage.setItem(`${APP_VERSION}-${key}`, JSON.stringify(value));
  } catch {
    // Quota or privacy mode: settings then live for this page only, which is acceptable.
  }
}

export function removeLocal(key: string): void {
  localStorage.removeItem(`${APP_VERSION}-${key}`);
}

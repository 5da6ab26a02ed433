/**
 * Settings that follow the user (ARCHITECTURE.md "The console": tabs and appearance saved per user locally and on
 * the server). Local storage answers at once; the server copy is fetched after login and
 * wins, so a user's tabs and theme appear in another browser.
 */
import { auth, type CallRequest } from '@console/contract';
import { call } from '@/lib/http.ts';
import { nextSettingSeq } from '@/lib/server-settings.ts';
import { readLocal, removeLocal, writeLocal } from '@/lib/storage.ts';

export type SettingKey = CallRequest<typeof auth.saveUserSetting>['key'];

const pending = new Map<
  SettingKey,
  { timer: ReturnType<typeof setTimeout>; user: string; value: unknown; seq: string }
>();

export const localKey = (user: string, key: SettingKey) => `settings:${user}:${key}`;
/** Set while a change has not reached the server; the local copy then wins on the next load. */
const dirtyKey = (user: string, key: SettingKey) => `settings-dirty:${user}:${key}`;

export function readUserSetting<T>(user: string, key: SettingKey, fallback: T): T {
  return readLocal<T>(localKey(user, key), fallback);
}

/** `seq` is taken when the change is made, not when it is sent: the order of changes is what counts. */
function push(user: string, key: SettingKey, value: unknown, seq: string, keepalive = false) {
  void call(auth.saveUserSetting, { key, value, seq }, { silent: true, keepalive })
    .then(() => removeLocal(dirtyKey(user, key)))
    .catch(() => undefined);
}

/** Writes locally now and to the server shortly after (coalescing bursts like tab drags). */
export function saveUserSetting(user: string, key: SettingKey, value: unknown): void {
  writeLocal(localKey(user, key), value);
  writeLocal(dirtyKey(user, key), true);
  clearTimeout(pending.get(key)?.timer);
  const seq = nextSettingSeq();
  pending.set(key, {
    user,
    value,
    seq,
    timer: setTimeout(() => {
      pending.delete(key);
      push(user, key, value, seq);
    }, 400),
  });
}

/** A reload or closing the tab must not lose the last change: send it with keepalive. */
export function flushUserSettings(): void {
  for (const [key, p] of pending) {
    clearTimeout(p.timer);
    push(p.user, key, p.value, p.seq, true);
  }
  pending.clear();
}
if (typeof window !== 'undefined') window.addEventListener('pagehide', flushUserSettings);

/**
 * The value to start with after login: the server's copy (it follows the user across
 * browsers) unless this browser holds a change the server has not received yet.
 */
export function pickUserSetting(user: string, key: SettingKey, serverValue: unknown): unknown {
  if (readLocal(dirtyKey(user, key), false)) {
    const local = readLocal<unknown>(localKey(user, key), undefined);
    if (local !== undefined) {
      push(user, key, local, nextSettingSeq());
      return local;
    }
  }
  return serverValue;
}

/** The server's copy; failures fall back to local (the console must work without it). */
export async function fetchServerSettings(): Promise<Record<string, unknown>> {
  try {
    return await call(auth.userSettings, {}, { silent: true });
  } catch {
    return {};
  }
}

/**
 * Settings that follow the user (DESIGN: tabs and appearance saved per user locally and on
 * the server). Local storage answers at once; the server copy is fetched after login and
 * wins, so a user's tabs and theme appear in another browser.
 */
import { auth, type CallRequest } from '@console/contract';
import { call } from '@/lib/http.ts';
import { readLocal, writeLocal } from '@/lib/storage.ts';

export type SettingKey = CallRequest<typeof auth.saveUserSetting>['key'];

const timers = new Map<SettingKey, ReturnType<typeof setTimeout>>();

export const localKey = (user: string, key: SettingKey) => `settings:${user}:${key}`;

export function readUserSetting<T>(user: string, key: SettingKey, fallback: T): T {
  return readLocal<T>(localKey(user, key), fallback);
}

/** Writes locally now and to the server shortly after (coalescing bursts like tab drags). */
export function saveUserSetting(user: string, key: SettingKey, value: unknown): void {
  writeLocal(localKey(user, key), value);
  clearTimeout(timers.get(key));
  timers.set(
    key,
    setTimeout(() => {
      timers.delete(key);
      void call(auth.saveUserSetting, { key, value }, { silent: true }).catch(() => undefined);
    }, 400),
  );
}

/** The server's copy; failures fall back to local (the console must work without it). */
export async function fetchServerSettings(): Promise<Record<string, unknown>> {
  try {
    return await call(auth.userSettings, {}, { silent: true });
  } catch {
    return {};
  }
}

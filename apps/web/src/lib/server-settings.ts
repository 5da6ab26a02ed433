/**
 * The user's settings kept on the server (`user/settings`), read as a query, and saved so that
 * the cached copy changes at once: a page mounted again (another tab, a kept tab remounted)
 * starts from the new value, not the one fetched before.
 */
import { auth, type CallRequest } from '@console/contract';
import { call } from './http.ts';
import { callKey, queryClient, useCall } from './query.ts';

type SettingKey = CallRequest<typeof auth.saveUserSetting>['key'];

export const useServerSettings = () => useCall(auth.userSettings, {});

let lastSeq = 0;
/**
 * A stamp for each save, growing within a page and across reloads (the clock in hundredths of
 * a millisecond, 15 digits): the server keeps the newest, so the previous page's keepalive save
 * arriving after this page's first save is ignored instead of putting the old value back.
 */
export function nextSettingSeq(): string {
  lastSeq = Math.max(lastSeq + 1, Date.now() * 100);
  return String(lastSeq);
}

export function saveServerSetting(key: SettingKey, value: unknown) {
  const queryKey = callKey(auth.userSettings, {});
  // At once, in the click's own render (the checkbox clears as it is clicked)...
  queryClient.setQueryData<Record<string, unknown>>(queryKey, (old) => ({ ...old, [key]: value }));
  // ...and a read of the settings still in flight (the first screen's prefetch, a refetch on
  // mount) must not land after it and put the old value back: a column just hidden came back.
  // Cancelled, it reverts to the state set just above (a manual set is what it reverts to).
  void queryClient.cancelQueries({ queryKey });
  return call(auth.saveUserSetting, { key, value, seq: nextSettingSeq() });
}

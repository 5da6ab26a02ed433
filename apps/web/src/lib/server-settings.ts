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

export function saveServerSetting(key: SettingKey, value: unknown) {
  queryClient.setQueryData<Record<string, unknown>>(callKey(auth.userSettings, {}), (old) => ({
    ...old,
    [key]: value,
  }));
  return call(auth.saveUserSetting, { key, value });
}

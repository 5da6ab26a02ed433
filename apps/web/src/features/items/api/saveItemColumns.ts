import { auth } from '@console/contract';
import { call, callKey, queryClient } from '@/lib';

/**
 * `user/settings/save` of the Item List's columns, put in the cached settings at once, so a
 * page mounted again (another tab, a kept tab remounted) starts from the new choice.
 */
export const saveItemColumns = (value: string[]) => {
  queryClient.setQueryData<Record<string, unknown>>(callKey(auth.userSettings, {}), (old) => ({
    ...old,
    itemColumns: value,
  }));
  return call(auth.saveUserSetting, { key: 'itemColumns', value });
};

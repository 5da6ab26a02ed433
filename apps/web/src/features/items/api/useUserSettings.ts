import { auth } from '@console/contract';
import { useCall } from '@/lib';

/** `user/settings`: the saved Item List columns live there (`itemColumns`). */
export const useUserSettings = () => useCall(auth.userSettings, {});

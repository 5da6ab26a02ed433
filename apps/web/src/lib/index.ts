/**
 * What features may use from lib/. Import from '@/lib' (or the file itself for tree-shaking
 * in the login route).
 */
import './messages.ts';

export { ApiError, errorText, call, callBlob, callUpload, reportError, saveBlob, type CallOptions } from './http.ts';
export { callKey, invalidateCall, prefetchCall, queryClient, useCall, useCallMutation } from './query.ts';
export { getLocale, localized, registerMessages, setLocale, t, useI18n, type Locale, type TParams } from './i18n.ts';
export { formatDate, formatTime } from './time.ts';
export { hasRoute, useSession, type Me } from './session.ts';
export { saveServerSetting, useServerSettings } from './server-settings.ts';
export { addLog } from './log.ts';
export { useRecordForm, type RecordForm } from './record-form.ts';
export { getCookie, readLocal, writeLocal } from './storage.ts';

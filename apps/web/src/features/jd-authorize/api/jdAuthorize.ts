import { type CallRequest, jdAuthorize } from '@console/contract';
import { call, invalidateCall, useCall } from '@/lib';

/** The JD authorization calls (plain, as spec §7 marks them). The list pages with `usePagedQuery`. */
export const jdListCall = jdAuthorize.jdAuthorizeList;

export const useJdAuthorization = (id: number) => useCall(jdAuthorize.jdAuthorizeInfo, { id }, { enabled: id > 0 });

export async function refreshJd() {
  await Promise.all([
    invalidateCall(jdAuthorize.jdAuthorizeList),
    invalidateCall(jdAuthorize.jdAuthorizeInfo),
    invalidateCall(jdAuthorize.jdAuthorizeSelect),
  ]);
}

/** Create and update are silent: the form shows a 422 under its fields. */
export const createJd = (body: CallRequest<typeof jdAuthorize.createJdAuthorize>) =>
  call(jdAuthorize.createJdAuthorize, body, { silent: true });
export const updateJd = (body: CallRequest<typeof jdAuthorize.updateJdAuthorize>) =>
  call(jdAuthorize.updateJdAuthorize, body, { silent: true });
export const deleteJd = (id: number) => call(jdAuthorize.deleteJdAuthorize, { id });
export const authorizeUrl = (id: number) => call(jdAuthorize.getJdAuthorizeUrl, { id });
/** Silent: the page says what went wrong (a stale link, JD's refusal) in a dialog. */
export const exchangeJdCode = (code: string, state: string) =>
  call(jdAuthorize.getJdToken, { code, state }, { silent: true });
export const renewJd = (id: number) => call(jdAuthorize.renewJdToken, { id });

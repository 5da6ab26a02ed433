import { type CallRequest, interceptions } from '@console/contract';
import { call } from '@/lib';

/** The interception calls; the list pages with `usePagedQuery`. */
export const interceptionsCall = interceptions.interceptionList;

/** Silent: the form shows the refusal on its fields. */
export const createInterception = (body: CallRequest<typeof interceptions.createInterception>) =>
  call(interceptions.createInterception, body, { silent: true });
export const cancelInterception = (id: number, cancelReason: string) =>
  call(interceptions.cancelInterception, { id, cancelReason }, { silent: true });

import { type CallRequest, interceptions } from '@console/contract';
import { ApiError, call } from '@/lib';

/** The interception calls; the list pages with `usePagedQuery`. */
export const interceptionsCall = interceptions.interceptionList;

/** Silent: the form shows the refusal on its fields. */
export const createInterception = (body: CallRequest<typeof interceptions.createInterception>) =>
  call(interceptions.createInterception, body, { silent: true });
export const cancelInterception = (id: number, cancelReason: string) =>
  call(interceptions.cancelInterception, { id, cancelReason }, { silent: true });

/** 422 field errors → antd Form fields. */
export function formErrors(e: unknown): { name: string[]; errors: string[] }[] | null {
  if (!(e instanceof ApiError) || e.code !== 422) return null;
  return Object.entries(e.fieldErrors).map(([k, errors]) => ({ name: k.split('.'), errors }));
}

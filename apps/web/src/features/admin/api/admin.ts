import { admin, auth } from '@console/contract';
import type { CallRequest } from '@console/contract';
import { call, invalidateCall } from '@/lib';

/** The System menu's calls (operators and admins; the server refuses everyone else). */
export const customersCall = admin.customerList;
export const usersCall = admin.userList;
export const auditCall = admin.auditList;

const after = async <T>(p: Promise<T>, ...defs: { path: string }[]) => {
  const r = await p;
  await Promise.all([...defs, admin.auditList].map((d) => invalidateCall(d as never)));
  return r;
};
export const createCustomer = (b: CallRequest<typeof admin.createCustomer>) =>
  after(call(admin.createCustomer, b, { silent: true }), admin.customerList);
export const updateCustomer = (b: CallRequest<typeof admin.updateCustomer>) =>
  after(call(admin.updateCustomer, b, { silent: true }), admin.customerList);
export const createUser = (b: CallRequest<typeof admin.createUser>) =>
  after(call(admin.createUser, b, { silent: true }), admin.userList, admin.customerList);
export const resetPassword = (id: number) => after(call(admin.resetPassword, { id }), admin.userList);
export const disableUser = (id: number, disabled: boolean) =>
  after(call(admin.disableUser, { id, disabled }), admin.userList);
export const endSessions = (id: number) => after(call(admin.endUserSessions, { id }), admin.userList);
export const updateRole = (b: CallRequest<typeof admin.updateRole>) => after(call(admin.updateRole, b), admin.roleList);
export const customerSegmentsCall = admin.customerSegments;
export const createSegment = (b: CallRequest<typeof admin.createSegment>) =>
  after(call(admin.createSegment, b, { silent: true }), admin.customerSegments);
export const retireSegment = (id: number) => after(call(admin.retireSegment, { id }), admin.customerSegments);

/** The session page (issue 28 #22): live sessions of every account; ending one is audited. */
export const sessionsCall = auth.sessionList;
export const endOneSession = (id: number) => after(call(auth.endOneSession, { id }), auth.sessionList, admin.userList);

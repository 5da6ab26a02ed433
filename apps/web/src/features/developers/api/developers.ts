import { apiKeys } from '@console/contract';
import type { CallRequest } from '@console/contract';
import { call, invalidateCall } from '@/lib';

/** The Developers menu's calls (issue 39): the server keeps each caller to its own keys. */
export const apiKeysCall = apiKeys.apiKeyList;

export const createApiKey = async (b: CallRequest<typeof apiKeys.apiKeyCreate>) => {
  const r = await call(apiKeys.apiKeyCreate, b, { silent: true });
  await invalidateCall(apiKeys.apiKeyList as never);
  return r;
};
export const revokeApiKey = async (id: number) => {
  await call(apiKeys.apiKeyRevoke, { id });
  await invalidateCall(apiKeys.apiKeyList as never);
};

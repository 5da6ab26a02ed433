import { apiKeys, webhooks } from '@console/contract';
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

/** Webhook endpoints and their delivery log (the v1 webhooks' service, signed in). */
export const endpointsCall = webhooks.webhookEndpointList;
export const deliveriesCall = webhooks.webhookDeliveryList;
const afterEndpoints = async <T>(p: Promise<T>) => {
  const r = await p;
  await invalidateCall(webhooks.webhookEndpointList as never);
  return r;
};
export const createEndpoint = (b: CallRequest<typeof webhooks.webhookEndpointCreate>) =>
  afterEndpoints(call(webhooks.webhookEndpointCreate, b, { silent: true }));
export const updateEndpoint = (b: CallRequest<typeof webhooks.webhookEndpointUpdate>) =>
  afterEndpoints(call(webhooks.webhookEndpointUpdate, b, { silent: true }));
export const deleteEndpoint = (id: number) => afterEndpoints(call(webhooks.webhookEndpointDelete, { id }));
export const rotateSecret = (id: number) => afterEndpoints(call(webhooks.webhookEndpointRotate, { id }));
export const sendTest = async (id: number) => {
  const r = await call(webhooks.webhookEndpointTest, { id });
  await invalidateCall(webhooks.webhookDeliveryList as never);
  return r;
};
export const deliveryOf = (id: number) => call(webhooks.webhookDeliveryGet, { id });
export const resendDelivery = async (id: number) => {
  await call(webhooks.webhookDeliveryResend, { id });
  await invalidateCall(webhooks.webhookDeliveryList as never);
};

import { z } from 'zod';
import { defineCall, nothing } from './call.ts';
import { ErrorCode } from './envelope.ts';
import { idOf } from './fields.ts';
import * as hooks from './v1-webhooks.ts';

/**
 * The console's webhook calls (issue 39 item 5): the same endpoints, secrets and delivery log as
 * the v1 webhook calls (v1-webhooks.ts), for a signed-in customer or agent, who is kept to its
 * own customers' endpoints as a key is. Requests and answers are the v1 calls' own schemas, so
 * the two doors cannot drift; a v1 call's path `{id}` is a field of the body here.
 */
const id = z.object({ id: idOf });
const permission = 'developer.webhooks';

export const webhookEndpointList = defineCall({
  path: 'webhook/endpoint/list',
  summary: "Webhook endpoints of the caller's customers (an agent: of its customers, or of one).",
  permission,
  request: hooks.listWebhookEndpoints.query,
  response: hooks.listWebhookEndpoints.response,
});

export const webhookEndpointCreate = defineCall({
  path: 'webhook/endpoint/create',
  summary:
    'Register an endpoint: URL, event types, active or not; an agent names the customer. The signing secret is in this answer only.',
  permission,
  request: hooks.createWebhookEndpoint.body,
  response: hooks.createWebhookEndpoint.response,
});

export const webhookEndpointUpdate = defineCall({
  path: 'webhook/endpoint/update',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Change an endpoint (URL, description, event types, active); fields not sent stay.',
  permission,
  request: hooks.updateWebhookEndpoint.body.extend(id.shape),
  response: hooks.updateWebhookEndpoint.response,
});

export const webhookEndpointDelete = defineCall({
  path: 'webhook/endpoint/delete',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Delete an endpoint: nothing more is sent to it; its delivery log stays readable.',
  permission,
  request: id,
  response: nothing,
});

export const webhookEndpointRotate = defineCall({
  path: 'webhook/endpoint/rotateSecret',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'A new signing secret (in this answer only); the old one also signs for 24 h.',
  permission,
  request: id,
  response: hooks.rotateWebhookSecret.response,
});

export const webhookEndpointTest = defineCall({
  path: 'webhook/endpoint/test',
  answers: [ErrorCode.NOT_FOUND],
  summary: `Send a test event (${hooks.TEST_EVENT_TYPE}) to the endpoint now; its delivery is in the log.`,
  permission,
  request: id,
  response: hooks.testWebhookEndpoint.response,
});

export const webhookDeliveryList = defineCall({
  path: 'webhook/delivery/list',
  summary:
    'The delivery log, newest first: filter by endpoint, status or event id; the next page is the rows `before` the last id.',
  permission,
  request: hooks.listWebhookDeliveries.query,
  response: hooks.listWebhookDeliveries.response,
});

export const webhookDeliveryGet = defineCall({
  path: 'webhook/delivery/get',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'One delivery with each of its attempts.',
  permission,
  request: id,
  response: hooks.getWebhookDelivery.response,
});

export const webhookDeliveryResend = defineCall({
  path: 'webhook/delivery/resend',
  answers: [ErrorCode.NOT_FOUND],
  summary: "Send the delivery's event again (same webhook-id), whatever its status.",
  permission,
  request: id,
  response: nothing,
});

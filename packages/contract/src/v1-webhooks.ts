import { z } from 'zod';
import { ErrorCode, isoTime } from './envelope.ts';
import { idOf, text, whole } from './fields.ts';
import { ruleIssue } from './messages.ts';
import { billRow } from './bills.ts';
import { v1Batch } from './v1-actions.ts';
import { defineV1Call, v1Order } from './v1.ts';

/**
 * Webhooks of the v1 API (issue 39 item 4, docs/decisions/2026-12-07-webhooks.md): a customer's
 * endpoints, the events sent to them, and the log of their deliveries. Signed per Standard
 * Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,…`) with the endpoint's
 * `whsec_…` secret.
 */

/** Every event an endpoint may subscribe to; each is described in the v1 document's `webhooks`. */
export const webhookEventTypes = {
  'order.created': 'An order was created (console, import or v1).',
  'order.updated': 'An order’s fields changed (an edit, an address change, a flag).',
  'order.label_printed': 'The order’s waybill label was printed.',
  'order.received': 'The parcel was scanned into the warehouse (storage in).',
  'order.shipped': 'The parcel left the warehouse (out).',
  'order.clearance_passed': 'The clearance company released the parcel.',
  'order.clearance_failed': 'The clearance company refused the parcel; `data.note` says why.',
  'order.error_flagged': 'A check flagged the order (other than clearance); `data.note` has the reason code.',
  'order.error_cleared': 'The order’s error was fixed or cleared.',
  'order.cancelled': 'The order was cancelled.',
  'order.intercepted': 'The order was intercepted.',
  'order.interception_cancelled': 'The interception was lifted.',
  'batch.committed':
    'An order import (a file imported in the console) was committed: its orders now exist (each also sends `order.created`). `data.batch` as `GET /batches/{id}` gives it.',
  'batch.failed':
    'An order import failed: its file could not be read, its commit was refused (`data.batch.errorMessage` says why; none of its orders exist), or its preview expired unconfirmed.',
  'bill.issued':
    'A month’s bill was issued to the customer: `data.bill` has its period, line count and totals per currency, as the console’s bill list shows them.',
  'bill.paid':
    'An issued bill was marked paid by the operator: `data.bill` as for `bill.issued`, with `status` paid and `paidAt`.',
} as const;
export type WebhookEventType = keyof typeof webhookEventTypes;
export const webhookEventType = z.enum(Object.keys(webhookEventTypes) as [WebhookEventType, ...WebhookEventType[]]);
/** The event "send a test event" sends: no order, never subscribed to. */
export const TEST_EVENT_TYPE = 'webhook.test';

/** The JSON body of every event (what `webhook-signature` signs, byte for byte). */
export const webhookEventBody = z.object({
  /** The event's id: also the `webhook-id` header, the same on every retry: deduplicate on it. */
  id: z.string(),
  type: z.string(),
  /** When the change happened (ISO 8601, UTC). */
  timestamp: isoTime,
  /** 1, 2, 3… per order: a receiver keeps the highest it has applied and ignores lower ones. */
  sequence: z.number().int(),
  data: z.object({ order: v1Order, note: z.string().optional() }),
});

/** The body of a batch's event (`batch.*`): the same envelope, the batch in place of the order. */
export const webhookBatchEventBody = webhookEventBody.extend({
  /** A batch has one event (committed or failed): always 1. */
  sequence: z.number().int(),
  data: z.object({ batch: v1Batch }),
});

/** A bill as its event gives it: the console's bill row, without its CNY figure (rates change). */
export const webhookBill = billRow.pick({
  id: true,
  customerId: true,
  customerCode: true,
  period: true,
  status: true,
  lines: true,
  totals: true,
  issuedAt: true,
  paidAt: true,
});

/** The body of a bill's event (`bill.*`): the same envelope, the bill in place of the order. */
export const webhookBillEventBody = webhookEventBody.extend({
  /** A bill is issued once (1), then paid once (2). */
  sequence: z.number().int(),
  data: z.object({ bill: webhookBill }),
});

/** The body an event type is sent with (what the v1 document's `webhooks` entry describes). */
export const webhookEventBodyOf = (type: string) =>
  type.startsWith('batch.')
    ? webhookBatchEventBody
    : type.startsWith('bill.')
      ? webhookBillEventBody
      : webhookEventBody;

/** The longest webhook URL taken. */
export const WEBHOOK_URL_MAX = 2000;
/**
 * A webhook endpoint's URL, checked where it is registered or edited (both doors): a web address
 * (`.url()`), http or https only, with a host, no `user:password@` (a secret in a URL ends up in
 * logs and screens; receivers check the signature), no `#fragment` (never sent, so a receiver could
 * not tell two endpoints apart by it). Plain http is refused by the server unless
 * `WEBHOOK_ALLOW_HTTP` is on (a setting, so not here: webhookUrlHttps).
 */
export const webhookUrl = text({ min: 1, max: WEBHOOK_URL_MAX })
  .url()
  .check((ctx) => {
    let u: URL;
    try {
      u = new URL(ctx.value);
    } catch {
      return; // `.url()` said it
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') ctx.issues.push(ruleIssue(ctx.value, 'webhookUrlScheme'));
    else if (!u.hostname) ctx.issues.push(ruleIssue(ctx.value, 'webAddress'));
    else if (u.username || u.password) ctx.issues.push(ruleIssue(ctx.value, 'webhookUrlCredentials'));
    else if (ctx.value.includes('#')) ctx.issues.push(ruleIssue(ctx.value, 'webhookUrlFragment'));
  });

export const webhookEndpoint = z.object({
  id: z.number().int(),
  customerId: z.number().int(),
  url: z.string(),
  description: z.string(),
  eventTypes: z.array(webhookEventType),
  active: z.boolean(),
  /** Set when the endpoint was disabled for failing 3 days in a row (`active` false). */
  disabledAt: isoTime.nullable(),
  /** The first failure of the current run of failures; null when the last delivery succeeded. */
  failingSince: isoTime.nullable(),
  /**
   * The rule of the server's current settings this URL breaks (`webhookUrlHttps`: a plain http
   * address saved before https was required), or null. Nothing is sent to it until the URL is fixed:
   * each delivery fails once with this key as its error.
   */
  urlProblem: z.string().nullable(),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type WebhookEndpoint = z.infer<typeof webhookEndpoint>;
const withSecret = webhookEndpoint.extend({
  /** `whsec_…`: shown in this answer only. */
  secret: z.string(),
});

const idParam = z.object({ id: idOf });

export const listWebhookEndpoints = defineV1Call({
  method: 'GET',
  path: 'webhook-endpoints',
  scope: 'webhooks:manage',
  summary: 'The endpoints of the key’s customers (an agent’s key: those of its customers).',
  query: z.object({ customerId: idOf.optional() }),
  response: z.object({ list: z.array(webhookEndpoint) }),
});

export const createWebhookEndpoint = defineV1Call({
  method: 'POST',
  path: 'webhook-endpoints',
  scope: 'webhooks:manage',
  summary:
    'Register an endpoint: its URL, the event types it gets, active or not. The signing secret (`whsec_…`) is in this answer only. An agent’s key names the customer.',
  body: z.object({
    url: webhookUrl,
    description: text({ max: 200 }).default(''),
    eventTypes: z.array(webhookEventType).min(1).max(50),
    active: z.boolean().default(true),
    customerId: idOf.optional(),
  }),
  response: withSecret,
});

export const getWebhookEndpoint = defineV1Call({
  method: 'GET',
  path: 'webhook-endpoints/{id}',
  scope: 'webhooks:manage',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'One endpoint (404 when it is not the key’s).',
  params: idParam,
  response: webhookEndpoint,
});

export const updateWebhookEndpoint = defineV1Call({
  method: 'POST',
  path: 'webhook-endpoints/{id}',
  scope: 'webhooks:manage',
  answers: [ErrorCode.NOT_FOUND],
  summary:
    'Change an endpoint: the fields sent change, the others stay. Activating a disabled endpoint clears its failure run.',
  params: idParam,
  body: z.object({
    url: webhookUrl.optional(),
    description: text({ max: 200 }).optional(),
    eventTypes: z.array(webhookEventType).min(1).max(50).optional(),
    active: z.boolean().optional(),
  }),
  response: webhookEndpoint,
});

export const deleteWebhookEndpoint = defineV1Call({
  method: 'DELETE',
  path: 'webhook-endpoints/{id}',
  scope: 'webhooks:manage',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Delete an endpoint: nothing more is sent to it; its delivery log stays readable.',
  params: idParam,
  response: z.null(),
});

export const rotateWebhookSecret = defineV1Call({
  method: 'POST',
  path: 'webhook-endpoints/{id}/rotate-secret',
  scope: 'webhooks:manage',
  answers: [ErrorCode.NOT_FOUND],
  summary:
    'A new signing secret (in this answer only). For 24 h deliveries carry two signatures, the new secret’s and the old one’s, so a receiver can switch without losing one.',
  params: idParam,
  response: withSecret.extend({ previousValidUntil: isoTime }),
});

export const testWebhookEndpoint = defineV1Call({
  method: 'POST',
  path: 'webhook-endpoints/{id}/test',
  scope: 'webhooks:manage',
  answers: [ErrorCode.NOT_FOUND],
  summary: `Send a test event (\`${TEST_EVENT_TYPE}\`, no order) to the endpoint now; its delivery is in the log.`,
  params: idParam,
  response: z.object({ eventId: z.string(), deliveryId: z.number().int() }),
});

export const webhookDeliveryStatus = z.enum(['pending', 'succeeded', 'failed', 'cancelled']);
export const webhookAttempt = z.object({
  attempt: z.number().int(),
  at: isoTime,
  /** Null when no answer came (refused target, timeout, connection error: `error`). */
  statusCode: z.number().int().nullable(),
  latencyMs: z.number().int(),
  /** The first bytes of the answer (at most 1 KiB). */
  response: z.string(),
  error: z.string().nullable(),
});
export const webhookDelivery = z.object({
  id: z.number().int(),
  endpointId: z.number().int(),
  /** The customer whose event it is (added within v1: an admin's or an agent's log holds several customers'). */
  customerId: z.number().int(),
  eventId: z.string(),
  eventType: z.string(),
  orderId: z.number().int().nullable(),
  status: webhookDeliveryStatus,
  attempts: z.number().int(),
  lastStatusCode: z.number().int().nullable(),
  lastAttemptAt: isoTime.nullable(),
  createdAt: isoTime,
});

export const listWebhookDeliveries = defineV1Call({
  method: 'GET',
  path: 'webhook-deliveries',
  scope: 'webhooks:manage',
  summary: 'The delivery log, newest first: filter by endpoint, status or event; page with `before` (an id).',
  query: z.object({
    endpointId: idOf.optional(),
    status: webhookDeliveryStatus.optional(),
    eventId: text({ max: 64 }).optional(),
    before: idOf.optional(),
    limit: whole(1, 200).default(50),
  }),
  response: z.object({ list: z.array(webhookDelivery) }),
});

export const getWebhookDelivery = defineV1Call({
  method: 'GET',
  path: 'webhook-deliveries/{id}',
  scope: 'webhooks:manage',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'One delivery with each of its attempts.',
  params: idParam,
  response: webhookDelivery.extend({ attemptLog: z.array(webhookAttempt) }),
});

export const resendWebhookDelivery = defineV1Call({
  method: 'POST',
  path: 'webhook-deliveries/{id}/resend',
  scope: 'webhooks:manage',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Send the delivery’s event again (same `webhook-id`), whatever its status.',
  params: idParam,
  response: z.null(),
});

export const webhookCalls = [
  listWebhookEndpoints,
  createWebhookEndpoint,
  getWebhookEndpoint,
  updateWebhookEndpoint,
  deleteWebhookEndpoint,
  rotateWebhookSecret,
  testWebhookEndpoint,
  listWebhookDeliveries,
  getWebhookDelivery,
  resendWebhookDelivery,
] as const;

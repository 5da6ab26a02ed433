import { z } from 'zod';
import { batchRow } from './batches.ts';
import { errorEnvelope, ErrorCode } from './envelope.ts';
import { idOf, text } from './fields.ts';
import { addRuleMessages, ruleIssue } from './messages.ts';
import { createImport } from './orders.create.ts';
import { trackingEvent } from './orders.one.ts';
import { defineV1Call, v1Order } from './v1.ts';

/**
 * The v1 calls beyond create/get/list (issue 39 item 3): many orders in one call, cancel,
 * intercept, waybill label PDFs, tracking events and an import batch's status. Each is a console
 * use case behind a key; the definitions follow v1.ts (and its additive-only rule).
 */

/** Orders in one batch create at most (issue 39: "up to 500 orders in one call"). */
export const V1_BATCH_MAX = 500;
/** Orders in one label PDF through v1 at most (the console's own download takes 500). */
export const V1_LABELS_MAX = 100;

addRuleMessages({
  batchTooLarge: {
    en: `At most ${V1_BATCH_MAX} orders in one call: send the rest in another call.`,
    'zh-CN': `一次最多 ${V1_BATCH_MAX} 个订单：其余的请分次提交。`,
  },
  labelsTooMany: {
    en: `At most ${V1_LABELS_MAX} orders in one label PDF: ask for the rest in another call.`,
    'zh-CN': `一个面单 PDF 最多 ${V1_LABELS_MAX} 个订单：其余的请分次获取。`,
  },
});

/**
 * One order of a batch: any JSON object, checked on its own as the body of `POST /orders` so that
 * a bad order gets its own field errors while the others are made.
 */
const batchOrder = z
  .record(z.string(), z.unknown())
  .meta({ description: 'One order: exactly the body of `POST /api/v1/orders` (the same fields and rules).' });

export const createOrdersBatch = defineV1Call({
  method: 'POST',
  path: 'orders/batch',
  scope: 'orders:write',
  answers: [ErrorCode.CONFLICT, ErrorCode.NOTICES_PENDING],
  summary: `Create up to ${V1_BATCH_MAX} orders in one call, each checked and made as by \`POST /orders\` (the console's single create: same rules, defaults and messages). Answers a result per order, in the order sent: created (id, waybill) or refused (the console's error envelope: a 422 with its field errors, or a 409). Send \`Idempotency-Key\` to retry safely. More than ${V1_BATCH_MAX}: 422 on \`orders\`, nothing made.`,
  body: z.object({
    orders: z
      .array(batchOrder)
      .min(1)
      .check((ctx) => {
        if (ctx.value.length > V1_BATCH_MAX) ctx.issues.push(ruleIssue(ctx.value, 'batchTooLarge'));
      }),
  }),
  response: z.object({
    created: z.number().int(),
    refused: z.number().int(),
    results: z.array(
      z.discriminatedUnion('status', [
        z.object({
          /** Its place in `orders` (0-based). */
          index: z.number().int(),
          status: z.literal('created'),
          order: createImport.response,
        }),
        z.object({
          index: z.number().int(),
          status: z.literal('refused'),
          /** As sent (null when the order had none). */
          orderNo: z.string().nullable(),
          /** The console's error envelope for this order: `code`, `key`, `message`, `data`. */
          error: errorEnvelope(z.unknown()),
        }),
      ]),
    ),
  }),
});

const orderId = z.object({ id: idOf });

export const cancelOrder = defineV1Call({
  method: 'POST',
  path: 'orders/{id}/cancel',
  scope: 'orders:write',
  answers: [ErrorCode.NOT_FOUND, ErrorCode.CONFLICT],
  summary:
    'Cancel an order not yet received by the warehouse (created or printed, not intercepted), through the order’s life: a `cancelled` tracking event. Refused 409 with the order-life key (`lifeAlready_received`, `lifeIntercepted`, `lifeCancelled`, …). Send `Idempotency-Key` to retry safely.',
  params: orderId,
  body: z.object({ reason: text({ max: 200 }).optional() }).strict(),
  response: v1Order,
});

export const interceptOrder = defineV1Call({
  method: 'POST',
  path: 'orders/{id}/intercept',
  scope: 'orders:write',
  answers: [ErrorCode.NOT_FOUND, ErrorCode.CONFLICT],
  summary:
    'Intercept an order before it ships (created, printed or received), as the console’s interception does: a record with the reason, the order held at the warehouse scan. Refused 409 with the order-life key (`lifeAlready_shipped`, `lifeIntercepted`, `lifeCancelled`, …). Send `Idempotency-Key` to retry safely.',
  params: orderId,
  body: z.object({ reason: text({ min: 1, max: 200 }) }).strict(),
  response: z.object({ order: v1Order, interceptionId: z.number().int() }),
});

/** A PDF answer: the registrar sends the bytes, not the envelope (errors stay envelopes). */
const pdf = z.null();

export const orderLabel = defineV1Call({
  method: 'GET',
  path: 'orders/{id}/label',
  scope: 'labels:read',
  produces: 'application/pdf',
  answers: [ErrorCode.NOT_FOUND, ErrorCode.CONFLICT],
  summary:
    'The order’s waybill label, a 100 × 150 mm PDF, drawn as the console’s label download draws it. Counts as a print, as in the console (created → printed, a `printed` event). Refused 409 `labelsRefused` (`data.refused`: the order and why) when it is intercepted, cancelled, an error order or already received.',
  params: orderId,
  response: pdf,
});

export const labels = defineV1Call({
  method: 'GET',
  path: 'labels',
  scope: 'labels:read',
  produces: 'application/pdf',
  answers: [ErrorCode.NOT_FOUND, ErrorCode.CONFLICT],
  summary: `Waybill labels of up to ${V1_LABELS_MAX} orders in one PDF, a page each in the order asked: \`?ids=12,13,14\`. All or nothing, as the console's download: 409 \`labelsRefused\` lists each order that cannot be printed (or is not the key's) and why; 404 when none is the key's.`,
  query: z.object({
    ids: z.preprocess(
      (v) =>
        typeof v === 'string'
          ? v
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean)
          : v,
      z
        .array(idOf)
        .min(1)
        .check((ctx) => {
          if (ctx.value.length > V1_LABELS_MAX) ctx.issues.push(ruleIssue(ctx.value, 'labelsTooMany'));
        }),
    ),
  }),
  response: pdf,
});

export const orderTracking = defineV1Call({
  method: 'GET',
  path: 'orders/{id}/tracking',
  scope: 'tracking:read',
  answers: [ErrorCode.NOT_FOUND],
  summary:
    'The order’s tracking events, oldest first, as its owner sees them in the console: created, printed, received, intercepted, shipped, released, cancelled and the rest.',
  params: orderId,
  response: z.object({
    id: z.number().int(),
    orderNo: z.string(),
    waybillNo: z.string().nullable(),
    status: v1Order.shape.status,
    intercepted: z.boolean(),
    events: z.array(trackingEvent),
  }),
});

/** An import batch as v1 gives it: its status and counts. Fields may be added within v1. */
export const v1Batch = batchRow.pick({
  id: true,
  batchNo: true,
  customerId: true,
  channel: true,
  status: true,
  progress: true,
  totalRows: true,
  validRows: true,
  invalidRows: true,
  orderCount: true,
  receiveStatus: true,
  errorMessage: true,
  createdAt: true,
  updatedAt: true,
});

export const getBatch = defineV1Call({
  method: 'GET',
  path: 'batches/{id}',
  scope: 'orders:read',
  answers: [ErrorCode.NOT_FOUND],
  summary:
    'An import batch (a file imported in the console): its status (parsing → preview → committing → done | failed), progress and counts, as the console’s batch page shows them.',
  params: orderId,
  response: v1Batch,
});

/** The calls of this file, in the order the OpenAPI document lists them. */
export const v1ActionCalls = [
  createOrdersBatch,
  cancelOrder,
  interceptOrder,
  orderLabel,
  labels,
  orderTracking,
  getBatch,
] as const;

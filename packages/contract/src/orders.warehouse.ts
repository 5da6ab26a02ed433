import { z } from 'zod';
import { defineCall } from './call.ts';
import { ErrorCode } from './envelope.ts';
import { text } from './fields.ts';
import { channelCode } from './reference.ts';
import { errorOrders, orderStatus, receiveStatus } from './orders.rows.ts';
import { pastedNumbers, searchFound } from './orders.find.ts';
import { confirmationKind, itemInput, trackingEvent } from './orders.one.ts';

// ---------------------------------------------------------------------------
// Warehouse and tracking
// ---------------------------------------------------------------------------

export const scanOutcome = z.enum(['received', 'already', 'intercepted', 'cancelled', 'notFound']);
export const orderScan = defineCall({
  path: 'order/orderScan',
  summary: 'Scan a waybill at the warehouse: marks the order received and records a tracking event.',
  permission: 'order.scan',
  request: z.object({ code: text({ min: 1, max: 64 }), location: text({ max: 64 }).optional() }),
  response: z.object({
    outcome: scanOutcome,
    ok: z.boolean(),
    message: z.string(),
    code: z.string(),
    order: z
      .object({
        id: z.number().int(),
        orderNo: z.string(),
        waybillNo: z.string().nullable(),
        customerCode: z.string(),
        batchNo: z.string().nullable(),
      })
      .nullable(),
    batchReceiveStatus: receiveStatus.nullable(),
  }),
});

export const tracking = defineCall({
  path: 'order/tracking',
  answers: [ErrorCode.TOO_MANY_REQUESTS],
  summary: 'Public tracking: waybill numbers → events; no personal data beyond masked names. Rate-limited.',
  auth: false,
  request: z.object({
    waybillNos: pastedNumbers.pipe(
      z
        .array(text({ max: 64 }))
        .min(1)
        .max(20),
    ),
  }),
  response: z.array(
    z.object({
      waybillNo: z.string(),
      found: z.boolean(),
      channel: channelCode.nullable(),
      recipientName: z.string().nullable(),
      status: orderStatus.nullable(),
      events: z.array(trackingEvent.omit({ note: true })),
    }),
  ),
});

export type ItemInputOut = z.output<typeof itemInput>;
export type ConfirmationKind = z.infer<typeof confirmationKind>;
export type SearchFound = z.infer<typeof searchFound>;
export type AttentionRequest = z.output<typeof errorOrders.request>;
export type ScanOutcome = z.infer<typeof scanOutcome>;
export type ReceiveStatus = z.infer<typeof receiveStatus>;

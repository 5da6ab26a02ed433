import { z } from 'zod';
import { defineCall, empty } from './call.ts';
import { isoTime, paged, paging } from './envelope.ts';
import { text } from './fields.ts';
import { channelCode } from './reference.ts';

/** Lifecycle of an order; further transitions are the warehouse's (spec §4). */
export const orderStatus = z.enum(['created', 'printed', 'received', 'shipped', 'released', 'cancelled']);
export type OrderStatus = z.infer<typeof orderStatus>;
/** Receive (collection) status of a batch: none, partly or all picked up. */
export const receiveStatus = z.enum(['none', 'partial', 'all']);

/** One order in a list. ID numbers and phones are masked in lists. */
export const orderRow = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  waybillNo: z.string().nullable(),
  channel: channelCode,
  customerId: z.number().int(),
  customerCode: z.string(),
  batchNo: z.string().nullable(),
  status: orderStatus,
  recipientName: z.string(),
  recipientPhone: z.string(),
  recipientProvince: z.string(),
  recipientCity: z.string(),
  printCount: z.number().int(),
  printFlag: z.boolean(),
  intercepted: z.boolean(),
  released: z.boolean(),
  /** Why the order is an error order, in the caller's language (stored as codes). */
  errorReason: z.string().nullable(),
  /** Why the order is abnormal, in the caller's language (stored as codes). */
  abnormalReason: z.string().nullable(),
  createdAt: isoTime,
});
export type OrderRow = z.infer<typeof orderRow>;

/** Orders that failed a downstream check (header badge, spec §6). */
export const errorOrders = defineCall({
  path: 'order/error',
  summary: 'Orders that failed a downstream check, with the reason.',
  permission: 'order.error',
  request: paging.extend({ keyword: text({ max: 64 }).optional() }),
  response: paged(orderRow),
});
/** Orders caught by an abnormal rule (header badge, spec §6). */
export const abnormalOrders = defineCall({
  path: 'order/abnormal',
  summary: 'Orders caught by an abnormal rule and not resolved yet.',
  permission: 'order.abnormal',
  request: paging.extend({ keyword: text({ max: 64 }).optional() }),
  response: paged(orderRow),
});

export const orderStats = defineCall({
  path: 'order/stats',
  summary: 'Home page figures: orders by status and per day over the last 30 days.',
  permission: 'index',
  request: empty,
  response: z.object({
    byStatus: z.record(orderStatus, z.number().int()),
    errors: z.number().int(),
    abnormal: z.number().int(),
    last30Days: z.array(z.object({ day: z.string(), count: z.number().int() })),
  }),
});

import { z } from 'zod';
import { defineCall } from './call.ts';
import { isoTime, paged, paging, ErrorCode } from './envelope.ts';
import { idOf, text } from './fields.ts';
import { chinaDay, numberKind, orderStatus, pastedNumbers } from './orders.ts';

/**
 * Order interception (spec §2 "interceptions list and create", §3 Interception, §4 interception
 * status): a customer stops its own orders before they ship (an agent its customers', an
 * operator any) by any number of the order; the warehouse scan then refuses them until the
 * interception is cancelled with a reason. Each interception is a record; the order's flag and
 * its tracking events change through the order's life (server domain/order-life.ts).
 */

/** The number kinds an order is intercepted by (a batch number names many orders: not accepted). */
export const interceptNoType = numberKind.exclude(['batchNo']);
export type InterceptNoType = z.infer<typeof interceptNoType>;

/** Active (the order is held) or cancelled (spec §4: intercepted, with creation and cancellation). */
export const interceptionStatus = z.enum(['active', 'cancelled']);
export type InterceptionStatus = z.infer<typeof interceptionStatus>;

export const interceptionRow = z.object({
  id: z.number().int(),
  orderId: z.number().int(),
  orderNo: z.string(),
  /** The order's numbers and status as they are now (null once the order is deleted). */
  waybillNo: z.string().nullable(),
  orderStatus: orderStatus.nullable(),
  customerId: z.number().int(),
  customerCode: z.string(),
  noType: interceptNoType,
  /** The number as it was entered. */
  number: z.string(),
  reason: z.string(),
  status: interceptionStatus,
  createdBy: z.string().nullable(),
  createdAt: isoTime,
  cancelReason: z.string().nullable(),
  cancelledBy: z.string().nullable(),
  cancelledAt: isoTime.nullable(),
});
export type InterceptionRow = z.infer<typeof interceptionRow>;

const reason = text({ min: 1, max: 200 });

/** What became of each number entered. */
export const interceptOutcome = z.enum(['intercepted', 'notFound', 'refused']);
export const createInterception = defineCall({
  path: 'order/create/interception',
  summary:
    'Intercept orders by one kind of number (order, waybill, split waybill, system or reference number) with a ' +
    "reason. Each number is answered: intercepted, not found (also another tenant's), or refused with the reason " +
    '(shipped, cancelled, already intercepted).',
  permission: 'order.interceptions',
  request: z
    .object({
      noType: interceptNoType,
      numbers: pastedNumbers.pipe(z.array(z.string()).min(1).max(500)),
      reason,
    })
    .strict(),
  response: z.object({
    intercepted: z.number().int(),
    results: z.array(
      z.object({
        number: z.string(),
        outcome: interceptOutcome,
        orderNo: z.string().nullable(),
        /** Why not, in the caller's language (null when intercepted). */
        message: z.string().nullable(),
        interceptionId: z.number().int().nullable(),
      }),
    ),
  }),
});

export const interceptionSort = z.enum(['createdAt', 'orderNo', 'cancelledAt']);
export const interceptionListRequest = paging
  .extend({
    /** Matches the number entered, the order number or the waybill number. */
    number: text({ min: 1, max: 64 }).optional(),
    status: interceptionStatus.optional(),
    customerId: idOf.optional(),
    /** Creation day range, China calendar days (UTC+8), inclusive. */
    dateFrom: chinaDay.optional(),
    dateTo: chinaDay.optional(),
    sort: interceptionSort.default('createdAt'),
  })
  .strict();
export type InterceptionListRequest = z.output<typeof interceptionListRequest>;

export const interceptionList = defineCall({
  path: 'order/list/interception',
  summary: 'Interceptions: filters (number, status, customer, dates), sort, paging; tenant-scoped.',
  permission: 'order.interceptions',
  request: interceptionListRequest,
  response: paged(interceptionRow),
});

export const cancelInterception = defineCall({
  path: 'order/cancel/interception',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Cancel an active interception with a reason (required); the order may then be received and shipped.',
  permission: 'order.interceptions',
  request: z.object({ id: idOf, cancelReason: reason }).strict(),
  response: interceptionRow,
});
export type CreateInterceptionResponse = z.infer<typeof createInterception.response>;

import { z } from 'zod';
import { defineCall } from './call.ts';
import { paged, paging, ErrorCode } from './envelope.ts';
import { idOf, text } from './fields.ts';
import { pattern, ruleIssue } from './messages.ts';
import { lastWins, splitPastedNumbers } from './pasted.ts';
import { progressField } from './export-jobs.ts';
import { channelCode } from './reference.ts';
import { orderRow, orderStatus, receiveStatus } from './orders.rows.ts';

// ---------------------------------------------------------------------------
// Finding orders
// ---------------------------------------------------------------------------

/** The kinds of order numbers one can search by (reference call `noTypes`). */
export const numberKind = z.enum(['orderNo', 'waybillNo', 'splitWaybillNo', 'systemNo', 'userRefNo', 'batchNo']);
export type NumberKind = z.infer<typeof numberKind>;
/** Sortable columns of the order list. */
export const orderSort = z.enum(['createdAt', 'orderNo', 'waybillNo', 'status', 'printCount', 'channel']);
/** The days a request may name (see `chinaDay`). */
export const FIRST_DAY = '2000-01-01';
export const LAST_DAY = '2099-12-31';

/**
 * A calendar day (China, UTC+8), as the console's date pickers give it: the one date schema of
 * every call. The day must exist (no 2026-02-30) and lie in 2000-01-01..2099-12-31: no order,
 * rate card, pickup or audit row of this service is older than 2000, nothing is planned past this
 * century, and within these years every day and the day after it (the end of a range) is a valid
 * time on both databases and in JavaScript, where `9999-12-31`'s next day is not (a RangeError).
 * Both bounds have four-digit years, so the string order is the date order.
 */
export const chinaDay = text({ max: 10 })
  .regex(pattern(/^\d{4}-\d{2}-\d{2}$/, 'date'))
  .check((ctx) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(ctx.value)) return; // the pattern said it
    const [y, m, d] = ctx.value.split('-').map(Number) as [number, number, number];
    const at = new Date(Date.UTC(y, m - 1, d));
    const real = at.getUTCFullYear() === y && at.getUTCMonth() === m - 1 && at.getUTCDate() === d;
    if (!real) ctx.issues.push(ruleIssue(ctx.value, 'dateExists'));
    else if (ctx.value < FIRST_DAY || ctx.value > LAST_DAY) ctx.issues.push(ruleIssue(ctx.value, 'dateRange'));
  });
const MAX_NUMBERS = 1000;

/** Pasted numbers: one per line (commas, tabs and spaces also split); blanks dropped, a repeat kept where it last comes (spec §5). */
export const pastedNumbers = z
  .union([text({ max: 200_000, multiline: true, trim: false }), z.array(text({ max: 64 })).max(MAX_NUMBERS)])
  .transform((v) =>
    Array.isArray(v) ? lastWins(v.map((s) => s.trim()).filter(Boolean), (s) => s) : splitPastedNumbers(v),
  )
  .pipe(z.array(text({ min: 1, max: 64 })).max(MAX_NUMBERS));

/** Server-side filters of the order list (issue 5 "Finding orders"). */
export const orderFilter = z.object({
  noType: numberKind.default('orderNo'),
  numbers: pastedNumbers.optional(),
  customerId: idOf.optional(),
  batchId: idOf.optional(),
  channel: channelCode.optional(),
  status: orderStatus.optional(),
  receiveStatus: receiveStatus.optional(),
  intercepted: z.boolean().optional(),
  released: z.boolean().optional(),
  printFlag: z.boolean().optional(),
  recipientName: text({ min: 1, max: 64 }).optional(),
  recipientPhone: text({ min: 1, max: 32 }).optional(),
  dateFrom: chinaDay.optional(),
  dateTo: chinaDay.optional(),
});
export type OrderFilter = z.output<typeof orderFilter>;

export const orderListRequest = paging.extend(orderFilter.shape).extend({ sort: orderSort.default('createdAt') });
export type OrderListRequest = z.output<typeof orderListRequest>;

/**
 * A page of orders. Counting a million rows on every page turn is the classic trap, so the
 * server counts no further than a bound that grows with the page asked for (1,000 on the first
 * pages, the next multiple of 1,000 past `offset + limit` deeper): past it `total` is the bound,
 * `exact` is false and the console shows "1,000+" (docs/api.md, paged answers).
 */
export const orderPage = paged(orderRow).extend({ exact: z.boolean() });

export const orderList = defineCall({
  path: 'order/orderList',
  summary: 'Order List: filters on every number kind, channel, statuses, flags, recipient and dates; sort; paging.',
  permission: 'order.list',
  request: orderListRequest,
  response: orderPage,
});
export const batchOrders = defineCall({
  path: 'order/orders',
  summary: 'The orders of one batch (same filters as the order list).',
  permission: 'order.list',
  request: orderListRequest.extend({ batchId: idOf }),
  response: orderPage,
});
export const downloadOrderExcel = defineCall({
  path: 'order/downloadOrderExcel',
  summary: 'The current filter of the order list as an xlsx workbook (masked like the list).',
  permission: 'order.list',
  request: orderListRequest.omit({ offset: true, limit: true }).extend(progressField),
  response: z.null(),
  kind: 'blob',
  timeout: 0,
});

/** An order found by one of the numbers searched, and which number kind matched. */
export const searchFound = orderRow.extend({ matchedBy: numberKind, matched: z.string() });
export const searchResult = z.object({
  found: z.array(searchFound),
  notFound: z.array(z.string()),
});
/**
 * Search answers are paged on the server (issue 11): a batch number alone can match thousands
 * of orders. `total` counts the orders found; `notFound` lists every number that matched none.
 */
export const search = defineCall({
  path: 'order/search',
  summary: 'Order Search: pasted numbers of any kind → a page of the orders found, and the numbers not found.',
  permission: 'order.search',
  // Blanks are dropped (pastedNumbers); nothing left to look for is a 422 on the field, as in tracking.
  request: paging.extend({
    numbers: pastedNumbers.pipe(
      z
        .array(text({ max: 64 }))
        .min(1)
        .max(MAX_NUMBERS),
    ),
  }),
  response: paged(searchFound).extend({ notFound: z.array(z.string()) }),
});
export const orderBatchSearch = defineCall({
  path: 'order/orderBatchSearch',
  summary:
    'Batch Orders Search: an xlsx or BIFF8 xls (told by content) of numbers, first column → the search id to page ' +
    'its orders with `order/orderBatchSearch/found`, how many were found, the numbers not found, the result workbook.',
  permission: 'order.orderBatchSearch',
  request: z.object({}),
  response: z.object({
    searchId: z.number().int(),
    total: z.number().int(),
    notFound: z.array(z.string()),
    resultFileId: z.number().int(),
  }),
  kind: 'multipart',
  timeout: 0,
});
export const orderBatchSearchFound = defineCall({
  path: 'order/orderBatchSearch/found',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'A page of the orders a batch search found (its numbers are kept for the user who uploaded them).',
  permission: 'order.orderBatchSearch',
  request: paging.extend({ searchId: idOf }),
  response: paged(searchFound),
});
export const orderBatchSearchResult = defineCall({
  path: 'order/orderBatchSearch/download',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'The result workbook of a batch search.',
  permission: 'order.orderBatchSearch',
  request: z.object({ fileId: idOf }),
  response: z.null(),
  kind: 'blob',
  timeout: 0,
});

import { z } from 'zod';
import { defineCall, empty, nothing } from './call.ts';
import { isoTime, paged, paging, ErrorCode } from './envelope.ts';
import { progressField } from './export-jobs.ts';
import { idOf, text } from './fields.ts';
import { chinaDay } from './orders.ts';
import { itemStatus } from './items.ts';

/**
 * Order review (spec §2 orderReview pages, §4 "Order review: 0 pending, 1 completed", §7
 * "Order review (AES)"): before shipping, a customer uploads a sheet of orders (the order
 * template) for a check. Each order item is matched to the customer's item catalogue, its
 * price compared with the declared clearance price, and the order's rules run (the same
 * rules as order creation). Operators read the findings and complete the review with
 * remarks; the customer downloads the result. Every call travels in the AES envelope.
 */

/** Spec §4: 0 pending, 1 completed. */
export const orderReviewStatus = z.union([z.literal(0), z.literal(1)]);
export type OrderReviewStatus = z.infer<typeof orderReviewStatus>;

/** How the order item stands in the customer's catalogue: its item status, or unknown (not declared). */
export const catalogueMatch = z.union([itemStatus, z.literal('unknown')]);
export type CatalogueMatch = z.infer<typeof catalogueMatch>;

/**
 * One finding of one check. `check` names the check that made it (checks are a list on the
 * server, so a tax check adds its own name), `code` what it found; `message` is in the
 * caller's language. `error` findings block shipping as they are; `warning` ones ask a look.
 */
export const reviewCheck = z.enum(['catalogue', 'price', 'orderRules', 'abnormal']);
export const reviewFinding = z.object({
  check: z.string(),
  code: z.string(),
  severity: z.enum(['error', 'warning']),
  message: z.string(),
});
export type ReviewFinding = z.infer<typeof reviewFinding>;

/**
 * Where the review's parse stands (issue 27: it runs on the job queue, not in the upload's
 * request): queued, parsing, done (its figures and findings are there), failed (`parseError`).
 */
export const reviewParseState = z.enum(['queued', 'parsing', 'done', 'failed']);
export type ReviewParseState = z.infer<typeof reviewParseState>;

export const orderReviewRow = z.object({
  id: z.number().int(),
  reviewNo: z.string(),
  customerId: z.number().int(),
  customerCode: z.string(),
  status: orderReviewStatus,
  fileName: z.string(),
  orderCount: z.number().int(),
  itemCount: z.number().int(),
  /** Orders with at least one finding (their own or one of their items'). */
  flaggedOrders: z.number().int(),
  /** Sheet rows the order template's rules refused (not reviewed; see `rowErrors`). */
  rowErrorCount: z.number().int(),
  remarks: z.string().nullable(),
  completedBy: z.string().nullable(),
  completedAt: isoTime.nullable(),
  createdBy: z.string(),
  createdAt: isoTime,
  parseState: reviewParseState,
  /** Percent of the parse done (100 once it ended). */
  parseProgress: z.number().int(),
  /** Why the parse failed, in the caller's language. */
  parseError: z.string().nullable(),
});
export type OrderReviewRow = z.infer<typeof orderReviewRow>;

export const reviewRowError = z.object({
  row: z.number().int(),
  column: z.string().nullable(),
  message: z.string(),
});

export const reviewOrderRow = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  channel: z.string(),
  /** Masked as the Order List masks it. */
  recipientName: z.string(),
  province: z.string(),
  city: z.string(),
  itemCount: z.number().int(),
  /** Order value in CNY by the reference rates (decimal string). */
  valueCny: z.string().nullable(),
  findings: z.array(reviewFinding),
  /** Findings of the order and of its items. */
  findingCount: z.number().int(),
});
export type ReviewOrderRow = z.infer<typeof reviewOrderRow>;

export const reviewItemRow = z.object({
  id: z.number().int(),
  orderId: z.number().int(),
  orderNo: z.string(),
  jan: z.string().nullable(),
  name: z.string(),
  quantity: z.number().int(),
  /** In the currency's units (decimal string). */
  unitPrice: z.string(),
  currency: z.string(),
  catalogue: catalogueMatch,
  catalogueItemId: z.number().int().nullable(),
  /** The catalogue's declared clearance price (CNY), when the JAN is declared. */
  clearancePrice: z.string().nullable(),
  findings: z.array(reviewFinding),
});
export type ReviewItemRow = z.infer<typeof reviewItemRow>;

// ---------------------------------------------------------------------------

export const orderReviewSort = z.enum(['createdAt', 'status', 'orderCount', 'flaggedOrders']);
export const orderReviewListRequest = paging
  .extend({
    status: orderReviewStatus.optional(),
    reviewNo: text({ min: 1, max: 32 }).optional(),
    customerId: idOf.optional(),
    /** Creation day range, China calendar days (UTC+8), inclusive. */
    dateFrom: chinaDay.optional(),
    dateTo: chinaDay.optional(),
    sort: orderReviewSort.default('createdAt'),
  })
  .strict();
export type OrderReviewListRequest = z.output<typeof orderReviewListRequest>;

export const orderReviews = defineCall({
  path: 'orderReviews',
  summary: 'Order review batches: filters (status, number, customer, dates), sort, paging.',
  aes: true,
  permission: 'orderReview.list',
  request: orderReviewListRequest,
  response: paged(orderReviewRow),
});

/**
 * Upload one xlsx of orders (the order template) for review: multipart, the fields sealed as
 * `data`/`iv` beside the plain file (as `item/image/upload`). Answers once the file is stored and
 * the review queued (`parseState` queued); a worker parses and checks it, and the console reads
 * the review (the list, by `reviewNo`) until its parse is done or failed.
 */
export const createOrderReview = defineCall({
  path: 'orderReview/create',
  summary:
    'Upload an order-template xlsx for review (one file); answers the review queued for its check (`parseState`, `parseProgress`), which the review list then reports. With a progressId, `export/progress` reports the upload being stored.',
  aes: true,
  permission: 'orderReview.create',
  kind: 'multipart',
  timeout: 0,
  request: z
    .object({
      customerId: z.preprocess((v) => (v === '' ? undefined : v), idOf.optional()),
      ...progressField,
    })
    .strict(),
  response: orderReviewRow,
});

const reviewId = z.object({ id: idOf });

export const orderReviewOrders = defineCall({
  path: 'orderReview/orders',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'One review: its header, the sheet rows refused, and a page of its orders with their findings.',
  aes: true,
  permission: 'orderReview.info',
  request: paging
    .extend(reviewId.shape)
    .extend({
      /** Only orders with a finding (their own or an item's). */
      flaggedOnly: z.boolean().default(false),
      orderNo: text({ min: 1, max: 64 }).optional(),
    })
    .strict(),
  response: paged(reviewOrderRow).extend({ review: orderReviewRow, rowErrors: z.array(reviewRowError) }),
});

export const orderReviewOrderItems = defineCall({
  path: 'orderReview/order/items',
  answers: [ErrorCode.NOT_FOUND],
  summary: "Items of a review (or of one of its orders) with the catalogue's status, price and findings.",
  aes: true,
  permission: 'orderReview.info',
  request: paging
    .extend({
      id: idOf,
      orderId: idOf.optional(),
      catalogue: catalogueMatch.optional(),
      flaggedOnly: z.boolean().default(false),
    })
    .strict(),
  response: paged(reviewItemRow),
});

export const deleteOrderReview = defineCall({
  path: 'orderReview/delBatch',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Delete a pending review (409 once completed).',
  aes: true,
  permission: 'orderReview.list',
  request: reviewId.strict(),
  response: nothing,
});

export const completeOrderReview = defineCall({
  path: 'orderReview/complete',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Operator: complete a pending review (status 1) with remarks for the customer.',
  aes: true,
  permission: 'orderReview.complete',
  request: reviewId.extend({ remarks: text({ min: 1, max: 2000, multiline: true }) }).strict(),
  response: orderReviewRow,
});

export const downloadOrderReviewItems = defineCall({
  path: 'orderReview/downloadInfoItem',
  answers: [ErrorCode.NOT_FOUND],
  summary: "A review's items with their findings as a workbook.",
  aes: true,
  permission: 'orderReview.info',
  kind: 'blob',
  timeout: 0,
  request: reviewId.extend(progressField).strict(),
  response: nothing,
});

export const downloadOrderReviewTemplate = defineCall({
  path: 'orderReview/downloadTemplateExcel',
  summary: 'The order template to fill for a review.',
  aes: true,
  permission: 'orderReview.create',
  kind: 'blob',
  request: empty,
  response: nothing,
});

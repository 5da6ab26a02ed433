import { z } from 'zod';
import { defineCall, empty, nothing } from './call.ts';
import { isoTime, money, paged, paging, ErrorCode } from './envelope.ts';
import { idOf, text } from './fields.ts';
import { addRuleMessages, ruleIssue } from './messages.ts';
import { chinaDay, orderStatus } from './orders.ts';

/**
 * Inbound storage and outbound shipping (spec §2 storageOrder pages, §3 "Storage order: storage
 * method, waybill numbers, storage time", §7 "Storage (AES)", §8 "Bulk storage failure ... error
 * Excel"). A storage order records parcels arriving at the warehouse: each waybill typed or
 * scanned (or read from an xlsx) is one line, and storing marks its order received through the
 * order's life (the same move as the warehouse scan). Receiving and weighing are the
 * warehouse's (operators'): a customer's or agent's entry is a pre-alert that receives nothing and
 * whose weights are declared ones, kept apart from the measured weight charges use (issue 26).
 * Outbound ships received orders in shipments, each with a manifest workbook. Every call travels
 * in the AES envelope.
 */

/** Spec §3: manual or scanner entry (one line per waybill), or a batch Excel. */
export const storageMethod = z.enum(['entry', 'excel']);
export type StorageMethod = z.infer<typeof storageMethod>;
/** Where the parcels came from (`storageOrder/originSelect`). */
export const storageOrigin = z.enum(['pickup', 'selfSend', 'counter']);
export type StorageOrigin = z.infer<typeof storageOrigin>;
/** A parcel's gross weight at the scan, whole grams (issue 17: freight is priced by it). */
export const GROSS_WEIGHT_MAX_G = 100_000;
export const grossWeightG = z.number().int().min(1).max(GROSS_WEIGHT_MAX_G);

addRuleMessages({
  grossWeightsLength: {
    en: 'Give one weight per waybill (empty for none), as many as the waybills.',
    'zh-CN': '每个运单号对应一个重量（无重量留空），数量须与运单号相同。',
  },
});

/** received: every line stored; partial: some refused; refused: none stored. */
export const storageStatus = z.enum(['received', 'partial', 'refused']);
export type StorageStatus = z.infer<typeof storageStatus>;

/**
 * One line's result. `notFound` also answers a waybill of an order outside the caller's scope
 * (its existence is not told); `otherCustomer` is an order in scope but not of the storage
 * order's customer; `duplicate` a waybill twice in the entry or already a line of this storage
 * order; `alreadyReceived` an order received (or further) before; `refused` any other reason
 * of the order's life; `badWeight` an Excel row whose gross weight (column B) is not a whole
 * number of grams from 1 to 100,000 (the row is not stored); `preAlerted` a customer's or agent's
 * line: the order is announced (its declared weight kept) and waits for the warehouse's scan.
 */
export const storageOutcome = z.enum([
  'received',
  'preAlerted',
  'notFound',
  'duplicate',
  'alreadyReceived',
  'intercepted',
  'cancelled',
  'otherCustomer',
  'refused',
  'badWeight',
]);
export type StorageOutcome = z.infer<typeof storageOutcome>;

export const storageOrderRow = z.object({
  id: z.number().int(),
  storageNo: z.string(),
  /** Null: an operator's warehouse entry of any customers' parcels (operators only see it). */
  customerId: z.number().int().nullable(),
  customerCode: z.string().nullable(),
  method: storageMethod,
  origin: storageOrigin,
  lineCount: z.number().int(),
  receivedCount: z.number().int(),
  refusedCount: z.number().int(),
  status: storageStatus,
  fileName: z.string().nullable(),
  /**
   * A customer's or agent's entry: a pre-alert, nothing received by it; its received count counts
   * the lines announced.
   */
  preAlert: z.boolean(),
  createdBy: z.string(),
  /** Storage time. */
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type StorageOrderRow = z.infer<typeof storageOrderRow>;

const lineOrder = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  waybillNo: z.string().nullable(),
  customerCode: z.string(),
  status: orderStatus,
  receivedAt: isoTime.nullable(),
});

export const storageLine = z.object({
  id: z.number().int(),
  /** The waybill as entered (trimmed, upper case). */
  code: z.string(),
  outcome: storageOutcome,
  ok: z.boolean(),
  /** The reason in the caller's language. */
  message: z.string(),
  /** The gross weight (g) entered with this line (declared, on a pre-alert); null when none was. */
  grossWeightG: z.number().int().nullable(),
  /** The order's declared weight now (its latest pre-alert's); null: none declared or no order. */
  declaredWeightG: z.number().int().nullable(),
  /** The order's weight as the warehouse measured it now (what charges use); null: not weighed or no order. */
  measuredWeightG: z.number().int().nullable(),
  /** The order as it is now (its receive state); null when none was found. */
  order: lineOrder.nullable(),
  at: isoTime,
});
export type StorageLine = z.infer<typeof storageLine>;

/** Waybills of one entry: one per line as typed or scanned, duplicates kept (they are reported). */
const waybillList = z
  .array(text({ min: 1, max: 64 }))
  .min(1)
  .max(2000);
const optionalId = z.preprocess((v) => (v === '' || v === null ? undefined : v), idOf.optional());

// ---------------------------------------------------------------------------

export const storageOrderSort = z.enum(['createdAt', 'lineCount', 'receivedCount']);
export const storageOrderListRequest = paging
  .extend({
    storageNo: text({ min: 1, max: 32 }).optional(),
    method: storageMethod.optional(),
    origin: storageOrigin.optional(),
    status: storageStatus.optional(),
    customerId: idOf.optional(),
    /** Storage day range, China calendar days (UTC+8), inclusive. */
    dateFrom: chinaDay.optional(),
    dateTo: chinaDay.optional(),
    sort: storageOrderSort.default('createdAt'),
  })
  .strict();
export type StorageOrderListRequest = z.output<typeof storageOrderListRequest>;

export const storageOrders = defineCall({
  path: 'storageOrders',
  summary: 'Storage orders: filters (number, method, origin, status, customer, dates), sort, paging.',
  aes: true,
  permission: 'storageOrder.list',
  request: storageOrderListRequest,
  response: paged(storageOrderRow),
});

export const storageOrderOrders = defineCall({
  path: 'storageOrder/orders',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'One storage order: its header and a page of its lines with each order and its receive state.',
  aes: true,
  permission: 'storageOrder.info',
  request: paging
    .extend({
      id: idOf,
      /** ok: stored lines; refused: the others. */
      result: z.enum(['ok', 'refused']).optional(),
      code: text({ min: 1, max: 64 }).optional(),
    })
    .strict(),
  response: paged(storageLine).extend({ storageOrder: storageOrderRow }),
});

export const createStorageOrder = defineCall({
  path: 'storageOrder/create',
  answers: [ErrorCode.NOT_FOUND],
  summary:
    'Store waybills typed or scanned (one per line): each line received or refused with the reason. ' +
    'With `id`, the lines are added to that storage order (a scanner adds one call per scan). ' +
    "`grossWeightsG` (optional, parallel to `waybillNos`): each line's gross weight in grams or null; a received " +
    "line's weight becomes its order's (a line without one leaves the order's weight as it was). " +
    "A customer's or agent's entry is a pre-alert: its lines are `preAlerted`, nothing is received, and the " +
    "weights are kept as the orders' declared weights (never charged); the warehouse's scan receives and weighs.",
  aes: true,
  permission: 'storageOrder.create',
  request: z
    .object({
      id: idOf.optional(),
      customerId: idOf.optional(),
      origin: storageOrigin.default('counter'),
      waybillNos: waybillList,
      grossWeightsG: z.array(grossWeightG.nullable()).max(2000).optional(),
    })
    .strict()
    .check((ctx) => {
      const w = ctx.value.grossWeightsG;
      if (w && w.length !== ctx.value.waybillNos.length)
        ctx.issues.push({ ...ruleIssue(w, 'grossWeightsLength'), path: ['grossWeightsG'] });
    }),
  response: z.object({ storageOrder: storageOrderRow, lines: z.array(storageLine) }),
});
export type CreateStorageOrderRequest = z.input<typeof createStorageOrder.request>;

/** Lines returned by an Excel storage (the rest are in the storage order and the error workbook). */
export const BATCH_LINES_SHOWN = 200;
export const STORAGE_BATCH_MAX_ROWS = 10_000;

export const createStorageOrderBatch = defineCall({
  path: 'storageOrder/createBatch',
  summary:
    'Store the waybills of an xlsx (column A, a header row optional; column B the gross weight in grams, ' +
    'optional): multipart, the fields sealed as data/iv. ' +
    'Refused rows go to an error workbook (`errorFileId`).',
  aes: true,
  permission: 'storageOrder.create',
  kind: 'multipart',
  timeout: 0,
  request: z.object({ customerId: optionalId, origin: storageOrigin.default('counter') }).strict(),
  response: z.object({
    storageOrder: storageOrderRow,
    /** The refused lines (the first ones). */
    refused: z.array(storageLine.extend({ row: z.number().int() })),
    errorFileId: z.number().int().nullable(),
  }),
});

export const storageBatchErrors = defineCall({
  path: 'storageOrder/createBatch/errors',
  answers: [ErrorCode.NOT_FOUND],
  summary: "The refused rows of the caller's Excel storage, with the reason and the row number.",
  aes: true,
  permission: 'storageOrder.create',
  kind: 'blob',
  request: z.object({ fileId: idOf }).strict(),
  response: nothing,
});

export const storageOriginSelect = defineCall({
  path: 'storageOrder/originSelect',
  summary: 'The origins a storage order can come from (pickup, self-send, counter), labelled in the caller language.',
  aes: true,
  permission: 'storageOrder.create',
  request: empty,
  response: z.array(z.object({ value: storageOrigin, label: z.string() })),
});

export const reweighOrder = defineCall({
  path: 'storageOrder/reweigh',
  answers: [ErrorCode.NOT_FOUND],
  summary:
    'Re-weigh a received order (operators): its measured weight becomes the one given, audited; a freight already ' +
    "charged is re-priced by an adjustment line (the difference, with the reason) on the customer's open statement.",
  aes: true,
  permission: 'storageOrder.reweigh',
  request: z.object({ orderId: idOf, grossWeightG, reason: text({ min: 1, max: 200 }) }).strict(),
  response: z.object({
    orderId: z.number().int(),
    previousWeightG: z.number().int().nullable(),
    grossWeightG: z.number().int(),
    /** The freight's re-pricing line; null when no freight was charged yet (shipping prices the new weight) or the price is the same. */
    adjustment: z.object({ id: z.number().int(), amount: money, currency: z.string() }).nullable(),
  }),
});

export type ReweighRequest = z.input<typeof reweighOrder.request>;

// ---------------------------------------------------------------------------
// Outbound (operators)
// ---------------------------------------------------------------------------

export const shipmentMethod = z.enum(['single', 'batch']);
export const shipmentRow = z.object({
  id: z.number().int(),
  shipmentNo: z.string(),
  method: shipmentMethod,
  orderCount: z.number().int(),
  createdBy: z.string(),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type ShipmentRow = z.infer<typeof shipmentRow>;

export const shipOutcome = z.enum(['shipped', 'notFound', 'duplicate', 'refused']);
export const shipLine = z.object({
  code: z.string(),
  outcome: shipOutcome,
  ok: z.boolean(),
  message: z.string(),
  order: lineOrder.nullable(),
});
export type ShipLine = z.infer<typeof shipLine>;

export const outSingle = defineCall({
  path: 'storageOrder/outSingle',
  answers: [ErrorCode.NOT_FOUND],
  summary:
    'Ship one scanned waybill: shipped, or refused with the reason. With `shipmentId` the order joins that ' +
    'shipment (a scanner adds one call per scan); otherwise a new shipment starts.',
  aes: true,
  permission: 'storageOrder.outSingle',
  request: z.object({ shipmentId: idOf.optional(), code: text({ min: 1, max: 64 }) }).strict(),
  response: z.object({ line: shipLine, shipment: shipmentRow.nullable() }),
});

export const outBatch = defineCall({
  path: 'storageOrder/outBatch',
  summary: 'Ship many orders (selected ids and/or waybills) as one shipment in one transaction; refusals per line.',
  aes: true,
  permission: 'storageOrder.outBatch',
  request: z
    .object({
      orderIds: z.array(idOf).max(5000).default([]),
      waybillNos: z
        .array(text({ min: 1, max: 64 }))
        .max(5000)
        .default([]),
    })
    .strict(),
  response: z.object({ shipment: shipmentRow.nullable(), lines: z.array(shipLine) }),
});

export const outBatchUpload = defineCall({
  path: 'storageOrder/outBatchUpload',
  summary: 'Ship the waybills of an xlsx (column A) as one shipment: multipart, the fields sealed as data/iv.',
  aes: true,
  permission: 'storageOrder.outBatch',
  kind: 'multipart',
  timeout: 0,
  request: z.object({}).strict(),
  response: z.object({ shipment: shipmentRow.nullable(), lines: z.array(shipLine) }),
});

export const shippableRow = lineOrder.extend({ recipientCity: z.string(), itemCount: z.number().int() });
export type ShippableRow = z.infer<typeof shippableRow>;

export const shippableOrders = defineCall({
  path: 'storageOrder/shippable',
  summary: 'Received orders that may ship (not intercepted, no error), to select for a shipment.',
  aes: true,
  permission: 'storageOrder.outBatch',
  request: paging.extend({ code: text({ min: 1, max: 64 }).optional(), customerId: idOf.optional() }).strict(),
  response: paged(shippableRow),
});

export const shipments = defineCall({
  path: 'storageOrder/shipments',
  summary: 'Shipments (newest first), to download a manifest again.',
  aes: true,
  permission: 'storageOrder.outBatch',
  request: paging.extend({ shipmentNo: text({ min: 1, max: 32 }).optional() }).strict(),
  response: paged(shipmentRow),
});

export const shipmentManifest = defineCall({
  path: 'storageOrder/manifest',
  answers: [ErrorCode.NOT_FOUND],
  summary: "A shipment's manifest workbook: waybill, order, recipient city, weight, items, declared value.",
  aes: true,
  permission: 'storageOrder.outSingle',
  kind: 'blob',
  timeout: 0,
  request: z.object({ shipmentId: idOf }).strict(),
  response: nothing,
});

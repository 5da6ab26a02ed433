import { z } from 'zod';
import { defineCall, nothing } from './call.ts';
import { isoTime, money, paged, paging, ErrorCode } from './envelope.ts';
import { emailAddress } from './email.ts';
import { idOf, text, whole } from './fields.ts';
import { channelCode, currencyCode } from './reference.ts';
import { expectedVersion, recordVersion } from './versions.ts';
import { orderStatus, receiveStatus } from './orders.rows.ts';

// ---------------------------------------------------------------------------
// One order
// ---------------------------------------------------------------------------

export const orderItem = z.object({
  id: z.number().int(),
  lineNo: z.number().int(),
  jan: z.string().nullable(),
  name: z.string(),
  brand: z.string().nullable(),
  spec: z.string().nullable(),
  quantity: z.number().int(),
  unitPrice: money,
  currency: currencyCode,
  origin: z.string().nullable(),
  hazardCode: z.string().nullable(),
});
export type OrderItem = z.infer<typeof orderItem>;

/**
 * An order item's standing in the customer's item catalogue (issue 12): not declared, waiting
 * for review, failed review, or approved; null for an item without a JAN.
 */
export const catalogueMark = z.enum(['unknown', 'pending', 'failed', 'approved']);
export type CatalogueMark = z.infer<typeof catalogueMark>;
/** cbec: cross-border e-commerce retail import; postal: postal articles tax. */
export const taxRegime = z.enum(['cbec', 'postal']);
/**
 * The tax an order would pay under its channel's regime, in CNY (decimal strings), estimated
 * from the items' catalogue tax data by the reference exchange rates; customs decides the real one.
 */
export const taxEstimate = z.object({
  regime: taxRegime,
  /** Dutiable value. */
  value: money,
  duty: money,
  vat: money,
  consumption: money,
  postal: money,
  /** What would be collected (0 when waived). */
  total: money,
  /** Postal: at or below CNY 50 the tax is waived. */
  waived: z.boolean(),
  /** Cross-border: over CNY 5,000 per order, so taxed at full rates. */
  overOrderLimit: z.boolean(),
  /** Some item has no approved catalogue entry: its tax data is missing from the estimate. */
  incomplete: z.boolean(),
});
export type TaxEstimate = z.infer<typeof taxEstimate>;
/** What a create or update went through with but the user should know (translated). */
export const orderWarning = z.object({
  kind: z.enum(['catalogue', 'yearlyLimit']),
  /** The input path it concerns: `items.0.jan`, `recipient.idCard`. */
  field: z.string(),
  message: z.string(),
});
export type OrderWarning = z.infer<typeof orderWarning>;

export const trackingKind = z.enum([
  'created',
  'printed',
  'received',
  'intercepted',
  'shipped',
  'released',
  'cancelled',
  'updated',
  'errorFixed',
  'abnormalResolved',
  // Issue 13 (domain/order-life.ts): the events of interception and of the error flag.
  'interceptionCancelled',
  'errorFlagged',
  'errorCleared',
  'abnormalReleased',
  // Issue 15 (modules/label-b): a recipient address changed by an address-modification batch.
  'addressChanged',
]);
/**
 * The place of the warehouse's own scans (received, shipped) in a tracking event's `location`: a
 * neutral code the console words in the user's language (issue 36 #23: the English word was stored
 * and shown as-is in the Chinese console). Any other `location` is a place as a client gave it.
 */
export const WAREHOUSE_LOCATION = 'warehouse';
export const trackingEvent = z.object({
  kind: z.string(),
  at: isoTime,
  location: z.string().nullable(),
  note: z.string().nullable(),
});

/** Every field of spec §3 "Order". The detail is for the owner: not masked. */
export const orderDetail = z.object({
  id: z.number().int(),
  customerId: z.number().int(),
  customerCode: z.string(),
  channel: channelCode,
  exportNominationId: z.number().int().nullable(),
  numberSegmentId: z.number().int().nullable(),
  orderType: z.string(),
  clearanceCompany: z.string().nullable(),
  orderNo: z.string(),
  splitWaybillNo: z.string().nullable(),
  waybillNo: z.string().nullable(),
  systemNo: z.string(),
  userRefNo: z.string().nullable(),
  batchId: z.number().int().nullable(),
  batchNo: z.string().nullable(),
  boxNo: z.string().nullable(),
  status: orderStatus,
  receiveStatus: receiveStatus.nullable(),
  recipient: z.object({
    name: z.string(),
    idCard: z.string(),
    phone: z.string(),
    email: z.string().nullable(),
    country: z.string(),
    province: z.string(),
    city: z.string(),
    district: z.string(),
    street: z.string().nullable(),
    address: z.string(),
    postcode: z.string().nullable(),
  }),
  sender: z.object({ name: z.string().nullable(), address: z.string().nullable(), phone: z.string().nullable() }),
  currency: currencyCode,
  totalAmount: money,
  insuredAmount: money,
  remark: z.string().nullable(),
  printCount: z.number().int(),
  printFlag: z.boolean(),
  intercepted: z.boolean(),
  released: z.boolean(),
  gnsUpdated: z.boolean(),
  pushS: z.boolean(),
  pushPrice: z.boolean(),
  wholeSet: z.boolean(),
  /** In the caller's language. */
  errorReason: z.string().nullable(),
  errorAt: isoTime.nullable(),
  /** The rule codes that caught the order, comma-separated (see `abnormalRules`). */
  abnormalRule: z.string().nullable(),
  /** In the caller's language. */
  abnormalReason: z.string().nullable(),
  abnormalAt: isoTime.nullable(),
  createdAt: isoTime,
  updatedAt: isoTime,
  receivedAt: isoTime.nullable(),
  shippedAt: isoTime.nullable(),
  /** What an edit form sends back as `version` (issue 28 #3). */
  version: recordVersion,
  /** Why it cannot be deleted or changed, when it cannot (translated). */
  locked: z.string().nullable(),
  /** Each item with its catalogue status as the catalogue stands now. */
  items: z.array(orderItem.extend({ catalogueStatus: catalogueMark.nullable() })),
  /**
   * Each event with who made it (issue 36 #6: an operator's edit of a customer's order said nothing
   * of who); null for the order's creation and the carriers' and the system's own events.
   */
  events: z.array(trackingEvent.extend({ by: z.string().nullable() })),
  /** The tax estimate by the channel's regime and the catalogue now; null when the channel has no regime. */
  taxEstimate: taxEstimate.nullable(),
});
export type OrderDetail = z.infer<typeof orderDetail>;

export const order = defineCall({
  path: 'order/order',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Order detail: every field, its items, tracking events, print count and flags.',
  permission: 'order.info',
  request: z.object({ id: idOf }),
  response: orderDetail,
});
export const items = defineCall({
  path: 'order/items',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'The items of an order.',
  permission: 'order.info',
  request: z.object({ orderId: idOf }),
  response: z.array(orderItem),
});

export const required = (max: number) => text({ min: 1, max });
/**
 * Required, but the order validation (apps/server/src/domain/order-input.ts) says so in spec §5's
 * words ("订单号不能为空", "收件人姓名不能为空"): the schema lets an empty text through, since its
 * generic "必填。" would answer first and the user would never read them (issue 28 item 24).
 */
export const requiredInSpecWords = (max: number, multiline = false) => text({ max, multiline });
/** Optional text: empty and missing are both null. */
export const optText = (max: number, multiline = false) =>
  text({ max, multiline })
    .nullish()
    .transform((v) => (v ? v : null));

/** An item as the user enters it; prices are decimal strings in the order's currency. */
export const itemInput = z.object({
  jan: optText(14),
  name: required(200),
  brand: optText(100),
  spec: optText(100),
  quantity: whole(1, 100_000),
  unitPrice: money,
  origin: optText(8),
  hazardCode: optText(16),
});
export type ItemInput = z.output<typeof itemInput>;

export const recipientInput = z.object({
  name: requiredInSpecWords(64),
  idCard: requiredInSpecWords(18),
  phone: requiredInSpecWords(32),
  email: emailAddress({ optional: true })
    .max(128)
    .nullish()
    .transform((v) => (v ? v : null)),
  province: requiredInSpecWords(32),
  city: requiredInSpecWords(32),
  district: requiredInSpecWords(32),
  street: optText(64),
  // Addresses may run over lines (a pasted label, Alt+Enter in a sheet).
  address: requiredInSpecWords(200, true),
  postcode: optText(10),
});
export const senderInput = z.object({ name: optText(100), address: optText(200, true), phone: optText(32) });

/**
 * Confirmations the user gave after the server asked for them (spec §5: a minor's ID,
 * several prices for one JAN; and the CNY 5,000 cross-border limit). Without them the
 * server answers 409 with `data.confirmations` and the console asks.
 */
export const confirmationKind = z.enum(['minorId', 'multiplePricesPerJan', 'crossBorderLimit']);
export const confirmations = z.array(confirmationKind).max(3).default([]);
export const confirmationNeeded = z.object({
  confirmations: z.array(z.object({ kind: confirmationKind, field: z.string(), message: z.string() })),
});

export const orderUpdate = defineCall({
  path: 'order/order/update',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Change an order (same validation as import). Received, intercepted or shipped orders cannot change.',
  permission: 'order.update',
  request: z.object({
    id: idOf,
    userRefNo: optText(64),
    orderType: required(32).optional(),
    clearanceCompany: optText(32),
    recipient: recipientInput,
    sender: senderInput,
    insuredAmount: money.default('0'),
    remark: optText(500, true),
    items: z.array(itemInput).min(1).max(100).optional(),
    confirm: confirmations,
    /** The version the form was loaded from; a stale one is a 409 `recordChanged` with the order now (`staleRecord`). */
    version: expectedVersion,
  }),
  response: z.object({
    id: z.number().int(),
    /** The order's version after this save, for the next one. */
    version: recordVersion,
    warnings: z.array(orderWarning),
    taxEstimate: taxEstimate.nullable(),
  }),
});
export const orderDelete = defineCall({
  path: 'order/order/delete',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Delete orders. A received, intercepted or shipped order cannot be deleted.',
  permission: 'order.update',
  request: z.object({ ids: z.array(idOf).min(1).max(500) }),
  response: z.object({ deleted: z.number().int() }),
});
/**
 * What stays of a deleted order (issue 36 #6): its items and events go with it, this does not. The
 * row of the audit log its delete wrote, as its customer (and the admin) reads it.
 */
export const deletedOrder = z.object({
  orderNo: z.string(),
  waybillNo: z.string().nullable(),
  systemNo: z.string().nullable(),
  status: z.string(),
  channel: z.string(),
  createdAt: z.string().nullable(),
  customerId: z.number().int(),
  deletedAt: isoTime,
  /** The account that deleted it: the customer's own, or an operator's, an admin's, an agent's. */
  deletedBy: z.string(),
});
export type DeletedOrder = z.infer<typeof deletedOrder>;
export const deletedOrders = defineCall({
  path: 'order/deleted/list',
  summary:
    "Deleted orders, newest first: each one's numbers, state and who deleted it when (the caller's customers' only).",
  permission: 'order.list',
  request: paging.extend({ orderNo: text({ min: 1, max: 64 }).optional() }).strict(),
  response: paged(deletedOrder),
});
export const itemCreate = defineCall({
  path: 'order/item/create',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Add an item to an order.',
  permission: 'order.update',
  /** `orderVersion`: the order's version the page was loaded from; a stale one is a 409 `recordChanged` with the order now. */
  request: itemInput.extend({ orderId: idOf, confirm: confirmations, orderVersion: expectedVersion }),
  response: orderItem,
});
export const itemUpdate = defineCall({
  path: 'order/item/update',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Change an item of an order.',
  permission: 'order.update',
  /** `orderVersion`: as on `order/item/create`. */
  request: itemInput.extend({ id: idOf, confirm: confirmations, orderVersion: expectedVersion }),
  response: orderItem,
});
export const itemDelete = defineCall({
  path: 'order/item/delete',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Remove an item of an order (an order keeps at least one).',
  permission: 'order.update',
  request: z.object({ id: idOf }),
  response: nothing,
});

export const flagName = z.enum(['gnsUpdated', 'pushS', 'pushPrice', 'wholeSet']);
export type FlagName = z.infer<typeof flagName>;
export const setFlag = defineCall({
  path: 'order/setFlag',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Set a flag (GNS update, push S, push price, whole set or box) on orders.',
  permission: 'order.update',
  request: z.object({ ids: z.array(idOf).min(1).max(500), flag: flagName, value: z.boolean() }),
  response: z.object({ updated: z.number().int() }),
});
export const setOrderFlag = defineCall({
  path: 'order/setOrderFlag',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Mark the print flag by hand (spec §4).',
  permission: 'order.update',
  request: z.object({ ids: z.array(idOf).min(1).max(500), printFlag: z.boolean() }),
  response: z.object({ updated: z.number().int() }),
});

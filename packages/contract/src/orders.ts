import { z } from 'zod';
import { defineCall, empty, nothing } from './call.ts';
import { isoTime, money, paged, paging, ErrorCode } from './envelope.ts';
import { emailAddress } from './email.ts';
import { idOf, text, whole } from './fields.ts';
import { pattern, ruleIssue } from './messages.ts';
import { lastWins, splitPastedNumbers } from './pasted.ts';
import { progressField } from './export-jobs.ts';
import { i18nText } from './i18n.ts';
import { channelCode, currencyCode } from './reference.ts';
import { expectedVersion, recordVersion } from './versions.ts';

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
  events: z.array(trackingEvent),
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

const required = (max: number) => text({ min: 1, max });
/**
 * Required, but the order validation (apps/server/src/domain/order-input.ts) says so in spec §5's
 * words ("订单号不能为空", "收件人姓名不能为空"): the schema lets an empty text through, since its
 * generic "必填。" would answer first and the user would never read them (issue 28 item 24).
 */
const requiredInSpecWords = (max: number, multiline = false) => text({ max, multiline });
/** Optional text: empty and missing are both null. */
const optText = (max: number, multiline = false) =>
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

// ---------------------------------------------------------------------------
// Creating one order
// ---------------------------------------------------------------------------

export const createImport = defineCall({
  path: 'order/createImport',
  answers: [ErrorCode.NOTICES_PENDING],
  summary: 'Create one importer order alone (same validation as batch import).',
  permission: 'order.create',
  request: z.object({
    customerId: idOf.optional(),
    channel: channelCode,
    exportNominationId: idOf.nullish(),
    numberSegmentId: idOf.nullish(),
    orderType: required(32).default('normal'),
    clearanceCompany: optText(32),
    orderNo: requiredInSpecWords(64),
    userRefNo: optText(64),
    recipient: recipientInput,
    sender: senderInput,
    insuredAmount: money.default('0'),
    remark: optText(500, true),
    items: z.array(itemInput).min(1).max(100),
    confirm: confirmations,
  }),
  response: z.object({
    id: z.number().int(),
    orderNo: z.string(),
    waybillNo: z.string().nullable(),
    /** Items not approved in the catalogue, a recipient past the yearly limit: made, but said. */
    warnings: z.array(orderWarning),
    taxEstimate: taxEstimate.nullable(),
  }),
});

export const resolvedAddress = z.object({
  name: z.string(),
  phone: z.string(),
  province: z.string(),
  provinceCode: z.string().nullable(),
  city: z.string(),
  cityCode: z.string().nullable(),
  district: z.string(),
  districtCode: z.string().nullable(),
  address: z.string(),
  postcode: z.string(),
  /** false when the parse is doubtful: the user confirms or corrects it. */
  sure: z.boolean(),
  problems: z.array(z.string()),
});
export const resolveAddress = defineCall({
  path: 'order/resolveAddress',
  summary: 'A pasted address → province/city/district/name/phone, with the doubtful parts named.',
  permission: 'order.create',
  request: z.object({ text: text({ min: 2, max: 500, multiline: true }) }),
  response: resolvedAddress,
});
export const identifyPostalCode = defineCall({
  path: 'order/identifyPostalCode',
  summary: 'Look up and check a Chinese or Japanese postal code.',
  permission: 'order.postCode',
  request: z.object({ country: z.enum(['CN', 'JP']), code: text({ min: 1, max: 10 }) }),
  response: z.object({
    country: z.enum(['CN', 'JP']),
    code: z.string(),
    /** Passes what can be checked: JP in Japan Post's data; CN six digits in an existing postal zone. */
    valid: z.boolean(),
    /** The code itself is listed in a postcode dataset (JP only: China has none maintained). */
    verified: z.boolean(),
    /** Places the code belongs to (JP: several possible); CN: the province hinted by its first digits. */
    places: z.array(z.object({ province: z.string(), city: z.string(), town: z.string() })),
    note: z.string().nullable(),
  }),
});
export const getSendAddress = defineCall({
  path: 'order/getSendAddress',
  summary: "Sender defaults: the customer's last sender, else its export nomination.",
  permission: 'order.create',
  request: z.object({ customerId: idOf.optional() }),
  response: z.object({ name: z.string().nullable(), address: z.string().nullable(), phone: z.string().nullable() }),
});
export const getItemByJan = defineCall({
  path: 'order/getItemByJan',
  summary:
    "An item by JAN: the customer's approved catalogue first, else its earlier orders; all prices seen, for the several-prices check.",
  permission: 'order.create',
  request: z.object({ jan: text({ min: 8, max: 14 }), customerId: idOf.optional() }),
  response: z.object({
    found: z.boolean(),
    validJan: z.boolean(),
    // Read from stored orders: not held to the input rules, so an old row cannot fail the answer.
    item: orderItem.omit({ id: true, lineNo: true, quantity: true }).nullable(),
    prices: z.array(money),
    /** Where `item` came from: the approved item catalogue first, else the latest order (issue 12). */
    source: z.enum(['catalogue', 'orders']).nullable(),
    /** The JAN's review status in the customer's catalogue; null when it is not declared there. */
    catalogueStatus: z.enum(['pending', 'approved', 'failed']).nullable(),
  }),
});
export const getOrderNumber = defineCall({
  path: 'order/getOrderNumber',
  summary: 'A fresh order number for the customer (unique within it).',
  permission: 'order.create',
  request: z.object({ customerId: idOf.optional() }),
  response: z.object({ orderNo: z.string() }),
});
export const numberSegments = defineCall({
  path: 'order/numberSegments',
  summary: 'Number segments of a channel usable by the customer.',
  permission: 'order.create',
  request: z.object({ channel: channelCode, customerId: idOf.optional() }),
  response: z.array(
    z.object({ id: z.number().int(), name: z.string(), prefix: z.string(), remaining: z.number().int() }),
  ),
});
export const setDefaultNumber = defineCall({
  path: 'order/setDefaultNumber',
  summary: "Remember the user's default number segment of a channel.",
  permission: 'order.create',
  request: z.object({ channel: channelCode, numberSegmentId: idOf.nullable() }),
  response: nothing,
});
export const getDefaultNumber = defineCall({
  path: 'order/getDefaultNumber',
  summary: "The user's default number segment of a channel.",
  permission: 'order.create',
  request: z.object({ channel: channelCode }),
  response: z.object({ numberSegmentId: z.number().int().nullable() }),
});

// ---------------------------------------------------------------------------
// Orders that need attention
// ---------------------------------------------------------------------------

export const errorUpdate = defineCall({
  path: 'order/error/update',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Fix an error order (recipient data); a valid fix clears the error.',
  permission: 'order.error',
  request: z.object({ id: idOf, recipient: recipientInput, confirm: confirmations }),
  response: z.object({ id: z.number().int(), cleared: z.boolean() }),
});
export const errorUpdate2 = defineCall({
  path: 'order/error/update2',
  answers: [ErrorCode.NOT_FOUND],
  summary:
    'Re-check several error orders: an error found downstream stands until a field it names has changed ' +
    '(each change clears it when it is saved). With `clear`, an operator clears the errors as they are (recorded ' +
    'with the note, which `clear` requires). Answers 409 when any order is locked (received, shipped…), changing nothing.',
  permission: 'order.error',
  request: z.object({ ids: z.array(idOf).min(1).max(500), clear: z.boolean().default(false), note: optText(200) }),
  response: z.object({
    cleared: z.array(z.number().int()),
    failed: z.array(z.object({ id: z.number().int(), reason: z.string() })),
  }),
});
export const errorBoxcUpdate = defineCall({
  path: 'order/error/boxcUpdate',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Fix a box-C (boxed channel) error order: box and split waybill numbers.',
  permission: 'order.error',
  request: z.object({ id: idOf, boxNo: required(64), splitWaybillNo: optText(64) }),
  response: z.object({ id: z.number().int(), cleared: z.boolean() }),
});

export const abnormalRule = z.object({
  code: z.string(),
  name: i18nText,
  description: i18nText,
  enabled: z.boolean(),
});
export const abnormalRules = defineCall({
  path: 'validateAbnormalRule/selectAllRule',
  summary: 'The abnormal-order rules.',
  permission: 'order.abnormal',
  request: empty,
  response: z.array(abnormalRule),
});
/** Operators switch one abnormal rule on or off; a rule switched off is not applied on create, update or import. */
export const abnormalRuleSwitch = defineCall({
  path: 'validateAbnormalRule/updateRule',
  summary: 'Operators switch one abnormal rule on or off (applied from the next create, update or import).',
  permission: 'order.abnormalRules',
  request: z.object({ code: text({ min: 1, max: 64 }), enabled: z.boolean() }).strict(),
  response: abnormalRule,
});
export const abnormalUpdate = defineCall({
  path: 'order/abnormal/update',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Operators resolve (after correction) or release abnormal orders.',
  permission: 'order.abnormal',
  request: z.object({ ids: z.array(idOf).min(1).max(500), action: z.enum(['resolve', 'release']), note: optText(200) }),
  response: z.object({ updated: z.number().int() }),
});

// ---------------------------------------------------------------------------
// Promise letter ID cards
// ---------------------------------------------------------------------------

export const idCardRow = z.object({
  id: z.number().int(),
  customerId: z.number().int(),
  orderId: z.number().int().nullable(),
  orderNo: z.string().nullable(),
  name: z.string(),
  idCard: z.string(),
  hasFront: z.boolean(),
  hasBack: z.boolean(),
  createdAt: isoTime,
});
export const idCards = defineCall({
  path: 'order/idCard',
  summary: 'Promise-letter ID cards on file (masked).',
  permission: 'order.idCard',
  request: paging.extend({ keyword: text({ max: 64 }).optional() }),
  response: paged(idCardRow),
});
export const idCardUpload = defineCall({
  path: 'order/idCard/upload',
  answers: [ErrorCode.NOT_FOUND],
  summary:
    'Upload one side (jpg/png, checked by content and size) for a recipient or an order. The order is named ' +
    'by any of its numbers (`orderNo`: order, waybill, split waybill, system or reference number) or by `orderId`.',
  permission: 'order.idCard',
  request: z.object({
    side: z.enum(['front', 'back']),
    orderId: idOf.optional(),
    /** Any number of one order, as the screens show them (a batch number names many: not accepted). */
    orderNo: text({ max: 64 }).optional(),
    customerId: idOf.optional(),
    name: text({ max: 64 }).optional(),
    idCard: text({ max: 18 }).optional(),
  }),
  response: idCardRow,
  kind: 'multipart',
  timeout: 0,
});
export const idCardImage = defineCall({
  path: 'order/idCard/image',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'One side of an ID card (only its owner and operators).',
  permission: 'order.idCard',
  request: z.object({ id: idOf, side: z.enum(['front', 'back']) }),
  response: z.null(),
  kind: 'blob',
  file: 'image',
});
export const idCardTemplate = defineCall({
  path: 'order/idCard/template',
  summary: 'The bulk-mapping template: order number, waybill, name, ID number, image file names (zh/en headers).',
  permission: 'order.idCard',
  request: empty,
  response: z.null(),
  kind: 'blob',
});
/**
 * Bulk mapping by template. The upload is the filled template (.xlsx) alone, which maps
 * recipients (and orders) to ID numbers, or a .zip holding the template and the images
 * its rows name: one file, because every multipart call takes one. Every row is checked
 * first; any error answers 422 with `data` keyed `rows.<sheet row>.<column>` (or `file`)
 * and nothing is imported. When rows failed, the 422 also names the error workbook under
 * `ID_CARD_IMPORT_ERRORS_KEY` (its file id as the one entry), for `idCardImportErrors`.
 */
export const idCardImport = defineCall({
  path: 'order/idCard/import',
  summary: 'Bulk ID-card mapping: the template (.xlsx) or a .zip of it with its images; all rows or none.',
  permission: 'order.idCard',
  request: z.object({ customerId: idOf.optional() }),
  response: z.object({
    rows: z.number().int(),
    created: z.number().int(),
    updated: z.number().int(),
    images: z.number().int(),
  }),
  kind: 'multipart',
  timeout: 0,
});
/** The key of a refused `idCardImport`'s 422 data that holds its error workbook's file id. */
export const ID_CARD_IMPORT_ERRORS_KEY = 'errorWorkbook';
/**
 * The error workbook of a refused ID-card import: the customer's failed rows as uploaded,
 * an error column and the bad cells marked. Only the uploader and operators download it;
 * anyone else gets the same 404 as for a missing file.
 */
export const idCardImportErrors = defineCall({
  path: 'order/idCard/import/errors',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'The error workbook of a refused ID-card import: the failed rows, an error column, bad cells marked.',
  permission: 'order.idCard',
  request: z.object({ fileId: idOf }),
  response: z.null(),
  kind: 'blob',
  timeout: 0,
});
/** The column keys of the ID-card template, as they appear in 422 field paths. */
export const idCardImportColumn = z.enum(['orderNo', 'waybillNo', 'name', 'idCard', 'front', 'back']);
export type IdCardImportColumn = z.infer<typeof idCardImportColumn>;

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

// ---------------------------------------------------------------------------
// Changing many orders at once: batch sender and updates (issue 11 #15). The spec names the
// pages, not their calls: each page has preview → apply under its own `order/<page>/…` prefix
// (docs/decisions.md). A preview is kept by the server and applied by its id, all or nothing.
// ---------------------------------------------------------------------------

/** The order fields a bulk change may set (sheet columns, preview rows). */
export const bulkField = z.enum([
  'senderName',
  'senderAddress',
  'senderPhone',
  'recipientName',
  'recipientIdCard',
  'recipientPhone',
  'recipientEmail',
  'recipientProvince',
  'recipientCity',
  'recipientDistrict',
  'recipientStreet',
  'recipientAddress',
  'recipientPostcode',
  'userRefNo',
  'remark',
]);
export type BulkField = z.infer<typeof bulkField>;
export const SENDER_FIELDS = ['senderName', 'senderAddress', 'senderPhone'] as const satisfies readonly BulkField[];

/** One order of a preview: what would change, or why it will not. */
export const bulkPreviewRow = z.object({
  /** The row of the uploaded sheet (null for pasted numbers). */
  row: z.number().int().nullable(),
  orderNo: z.string(),
  orderId: z.number().int().nullable(),
  customerCode: z.string().nullable(),
  status: orderStatus.nullable(),
  changes: z.array(z.object({ field: bulkField, old: z.string().nullable(), new: z.string().nullable() })),
  /** Why this order will not change (translated); null when it will (or is already as asked). */
  refusal: z.string().nullable(),
});
export const bulkPreview = z.object({
  /** Apply this id to make the changes; null when no order would change. */
  previewId: z.number().int().nullable(),
  changing: z.number().int(),
  unchanged: z.number().int(),
  refused: z.number().int(),
  rows: z.array(bulkPreviewRow),
  /** A workbook of the refused rows with the reason, to fix and upload again (null when none). */
  errorFileId: z.number().int().nullable(),
});
export type BulkPreview = z.infer<typeof bulkPreview>;
export const bulkApplied = z.object({ updated: z.number().int() });

export const batchSenderTemplate = defineCall({
  path: 'order/batchSender/template',
  summary: 'The batch-sender sheet: order number, sender name, address and phone (zh/en headers).',
  permission: 'order.batchSender',
  request: empty,
  response: z.null(),
  kind: 'blob',
});
export const batchSenderPreview = defineCall({
  path: 'order/batchSender/preview',
  summary: 'One sender for many orders (pasted order numbers): each order, its old and new sender, refusals.',
  permission: 'order.batchSender',
  request: z.object({
    orderNos: pastedNumbers.pipe(
      z
        .array(text({ max: 64 }))
        .min(1)
        .max(1000),
    ),
    sender: senderInput,
    customerId: idOf.optional(),
  }),
  response: bulkPreview,
});
export const batchSenderPreviewSheet = defineCall({
  path: 'order/batchSender/previewSheet',
  summary: 'A sender per order from the template sheet: each order, its old and new sender, refusals.',
  permission: 'order.batchSender',
  request: z.object({ customerId: idOf.optional() }),
  response: bulkPreview,
  kind: 'multipart',
  timeout: 0,
});
export const batchSenderApply = defineCall({
  path: 'order/batchSender/apply',
  answers: [ErrorCode.NOT_FOUND],
  summary: "Apply a batch-sender preview: every order it would change, or none (409 naming the first that can't).",
  permission: 'order.batchSender',
  request: z.object({ previewId: idOf }),
  response: bulkApplied,
  timeout: 0,
});
export const batchSenderErrors = defineCall({
  path: 'order/batchSender/errors',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'The refused rows of a batch-sender sheet with the reason, to fix and upload again.',
  permission: 'order.batchSender',
  request: z.object({ fileId: idOf }),
  response: z.null(),
  kind: 'blob',
});
export const updatesTemplate = defineCall({
  path: 'order/updates/template',
  summary: 'The updates sheet: order number and every field that can change (leave out the columns you keep).',
  permission: 'order.updates',
  request: empty,
  response: z.null(),
  kind: 'blob',
});
export const updatesPreview = defineCall({
  path: 'order/updates/preview',
  summary: 'Chosen fields of many orders from a sheet: old and new value per field, refusals by status.',
  permission: 'order.updates',
  request: z.object({ customerId: idOf.optional() }),
  response: bulkPreview,
  kind: 'multipart',
  timeout: 0,
});
export const updatesApply = defineCall({
  path: 'order/updates/apply',
  answers: [ErrorCode.NOT_FOUND],
  summary: "Apply an updates preview: every order it would change, or none (409 naming the first that can't).",
  permission: 'order.updates',
  request: z.object({ previewId: idOf }),
  response: bulkApplied,
  timeout: 0,
});
export const updatesErrors = defineCall({
  path: 'order/updates/errors',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'The refused rows of an updates sheet with the reason, to fix and upload again.',
  permission: 'order.updates',
  request: z.object({ fileId: idOf }),
  response: z.null(),
  kind: 'blob',
});

import { z } from 'zod';
import { defineCall, empty, nothing } from './call.ts';
import { isoTime, paged, paging, ErrorCode } from './envelope.ts';
import { idOf, text } from './fields.ts';
import { chinaDay } from './orders.ts';

/**
 * Meituan reservation orders (spec §2 "meituanOrder: list, create, info, items", §3 "Meituan
 * order: system number, Meituan number, express (STO) number, order id", §4 "0 pending
 * operation, 1 completed", §7 "Meituan"). A customer uploads a sheet of orders (one row per
 * item; rows with the same system number are one order), checked row by row: any bad row and
 * nothing is written (an error workbook says why), else every order is written in one
 * transaction under one batch number. Operators complete them, singly or in bulk.
 */
export const meituanStatus = z.union([z.literal(0), z.literal(1)]);
export type MeituanStatus = z.infer<typeof meituanStatus>;

/** Where operators process Meituan orders (`operationLocationList`). */
export const MEITUAN_LOCATIONS = {
  tokyo: { zh: '东京仓', en: 'Tokyo warehouse' },
  osaka: { zh: '大阪仓', en: 'Osaka warehouse' },
  narita: { zh: '成田机场仓', en: 'Narita airport warehouse' },
} as const;
export const meituanLocation = z.enum(['tokyo', 'osaka', 'narita']);
export type MeituanLocation = z.infer<typeof meituanLocation>;

/** Columns of the upload template, in order (the template and the parser read this one list). */
export const MEITUAN_COLUMNS = [
  { key: 'systemNo', zh: '系统单号', en: 'System number', width: 20 },
  { key: 'meituanNo', zh: '美团单号', en: 'Meituan number', width: 22 },
  { key: 'expressNo', zh: '申通单号', en: 'STO express number', width: 20 },
  { key: 'orderRef', zh: '订单ID', en: 'Order ID', width: 20 },
  { key: 'barcode', zh: '商品条码(JAN)', en: 'Barcode (JAN)', width: 16 },
  { key: 'itemName', zh: '商品名称', en: 'Item name', width: 30 },
  { key: 'specs', zh: '规格', en: 'Specs', width: 14 },
  { key: 'price', zh: '单价(元)', en: 'Price (CNY)', width: 10 },
  { key: 'count', zh: '数量', en: 'Count', width: 8 },
  { key: 'receiverName', zh: '收件人', en: 'Receiver name', width: 12 },
  { key: 'receiverAddress', zh: '收件地址', en: 'Receiver address', width: 40 },
  { key: 'receiverPhone', zh: '收件电话', en: 'Receiver phone', width: 16 },
] as const;
export type MeituanColumn = (typeof MEITUAN_COLUMNS)[number]['key'];
export const MEITUAN_MAX_ROWS = 5000;

export const meituanOrderRow = z.object({
  id: z.number().int(),
  customerId: z.number().int(),
  customerCode: z.string(),
  systemNo: z.string(),
  meituanNo: z.string(),
  expressNo: z.string(),
  orderRef: z.string(),
  receiverName: z.string(),
  /** Masked in the list; whole in the detail. */
  receiverPhone: z.string(),
  receiverAddress: z.string(),
  status: meituanStatus,
  operationLocation: meituanLocation,
  batchNumber: z.string(),
  itemCount: z.number().int(),
  /** Sum of price × count, CNY decimal string. */
  totalPrice: z.string(),
  createdAt: isoTime,
  completedAt: isoTime.nullable(),
  completedBy: z.string().nullable(),
});
export type MeituanOrderRow = z.infer<typeof meituanOrderRow>;

export const meituanItem = z.object({
  id: z.number().int(),
  barcode: z.string(),
  name: z.string(),
  specs: z.string().nullable(),
  /** CNY decimal string. */
  price: z.string(),
  count: z.number().int(),
});
export type MeituanItem = z.infer<typeof meituanItem>;

const filters = {
  /** Any of the four numbers, whole. */
  number: text({ min: 1, max: 64 }).optional(),
  status: meituanStatus.optional(),
  operationLocation: meituanLocation.optional(),
  batchNumber: text({ min: 1, max: 32 }).optional(),
  customerId: idOf.optional(),
  /** Upload day range (UTC+8), inclusive. */
  dateFrom: chinaDay.optional(),
  dateTo: chinaDay.optional(),
  sort: z.enum(['createdAt', 'systemNo', 'completedAt']).default('createdAt'),
};
export const meituanListRequest = paging.extend(filters).strict();
export type MeituanListRequest = z.output<typeof meituanListRequest>;
export type MeituanFilters = Omit<MeituanListRequest, 'offset' | 'limit'>;

export const meituanOrders = defineCall({
  path: 'meituan_reservation_orders',
  summary: 'Meituan reservation orders: filters (number, status, location, batch, customer, dates), sort, paging.',
  permission: 'meituanOrder.list',
  request: meituanListRequest,
  response: paged(meituanOrderRow),
});

export const meituanOrder = defineCall({
  path: 'meituan_reservation_order',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'One Meituan reservation order (receiver unmasked).',
  permission: 'meituanOrder.info',
  request: z.object({ id: idOf }).strict(),
  response: meituanOrderRow,
});

export const meituanOrderItems = defineCall({
  path: 'meituan_reservation_order/items',
  answers: [ErrorCode.NOT_FOUND],
  summary: "A Meituan reservation order's items.",
  permission: 'meituanOrder.items',
  request: z.object({ id: idOf }).strict(),
  response: z.array(meituanItem),
});

export const meituanTemplate = defineCall({
  path: 'meituan_reservation_order/templateExcel',
  summary: 'The upload template (xlsx): the header row in the caller language.',
  permission: 'meituanOrder.create',
  kind: 'blob',
  request: empty,
  response: nothing,
});

const optionalId = z.preprocess((v) => (v === '' || v === null ? undefined : v), idOf.optional());
/** A multipart flag: 'true'/'1' and 'false'/'0'/'' (or a JSON boolean); anything else is refused. */
const flag = z.preprocess(
  (v) => (v === 'true' || v === '1' ? true : v === 'false' || v === '0' || v === '' ? false : v),
  z.boolean(),
);

export const meituanRowError = z.object({
  /** The sheet row (1 = header). */
  row: z.number().int(),
  field: z.string(),
  message: z.string(),
});
export type MeituanRowError = z.infer<typeof meituanRowError>;
export const MEITUAN_ERRORS_SHOWN = 200;

export const meituanCreate = defineCall({
  path: 'meituan_reservation_order/create',
  answers: [ErrorCode.NOTICES_PENDING],
  summary:
    'Upload a filled template (multipart `file`). `preview` only checks; otherwise the orders are written in ' +
    'one transaction — unless a row is wrong: then nothing is written and `errorFileId` names the error workbook.',
  permission: 'meituanOrder.create',
  kind: 'multipart',
  timeout: 0,
  request: z
    .object({
      customerId: optionalId,
      operationLocation: meituanLocation,
      preview: flag.default(false),
    })
    .strict(),
  response: z.object({
    /** True when the orders were written. */
    committed: z.boolean(),
    batchNumber: z.string().nullable(),
    orderCount: z.number().int(),
    itemCount: z.number().int(),
    /** The first orders read (a preview). */
    orders: z.array(
      z.object({
        systemNo: z.string(),
        meituanNo: z.string(),
        expressNo: z.string(),
        receiverName: z.string(),
        itemCount: z.number().int(),
      }),
    ),
    errors: z.array(meituanRowError),
    errorCount: z.number().int(),
    errorFileId: z.number().int().nullable(),
  }),
});

export const meituanCreateErrors = defineCall({
  path: 'meituan_reservation_order/create/errors',
  answers: [ErrorCode.NOT_FOUND],
  summary: "The refused rows of the caller's upload: the rows as sent with the reason.",
  permission: 'meituanOrder.create',
  kind: 'blob',
  request: z.object({ fileId: idOf }).strict(),
  response: nothing,
});

export const meituanExport = defineCall({
  path: 'meituan_reservation_order/export',
  summary: 'The Meituan reservation orders of the current filter as an xlsx (one row per item).',
  permission: 'meituanOrder.list',
  kind: 'blob',
  timeout: 0,
  request: meituanListRequest.omit({ offset: true, limit: true }),
  response: nothing,
});

export const meituanLocations = defineCall({
  path: 'meituan_reservation_order/operationLocationList',
  summary: 'Where operators process Meituan orders, labelled in the caller language.',
  permission: 'meituanOrder.list',
  request: empty,
  response: z.array(z.object({ value: meituanLocation, label: z.string() })),
});

export const meituanBatchNumbers = defineCall({
  path: 'meituan_reservation_order/batchNumber',
  summary: "The batch numbers of the caller's uploads, newest first (the list's filter select).",
  permission: 'meituanOrder.list',
  request: empty,
  response: z.array(z.string()),
});

export const meituanComplete = defineCall({
  path: 'meituan_reservation_order/complete',
  answers: [ErrorCode.NOT_FOUND],
  summary:
    'Operators: complete Meituan orders (status 0 → 1), one or many. Each is completed once whoever ' +
    'else completes it at the same moment; `completed` counts those this call completed.',
  permission: 'meituanOrder.complete',
  request: z.object({ ids: z.array(idOf).min(1).max(500) }).strict(),
  response: z.object({ completed: z.number().int(), alreadyCompleted: z.number().int() }),
});

import { z } from 'zod';
import { defineCall, nothing } from './call.ts';
import { money, ErrorCode } from './envelope.ts';
import { idOf, text } from './fields.ts';
import { channelCode } from './reference.ts';
import {
  confirmations,
  itemInput,
  optText,
  orderItem,
  orderWarning,
  recipientInput,
  required,
  requiredInSpecWords,
  senderInput,
  taxEstimate,
} from './orders.one.ts';

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

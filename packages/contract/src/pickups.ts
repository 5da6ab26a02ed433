import { z } from 'zod';
import { defineCall, empty, nothing } from './call.ts';
import { isoTime, paged, paging, ErrorCode } from './envelope.ts';
import { idOf, text, whole } from './fields.ts';
import { addRuleMessages, ruleIssue } from './messages.ts';
import { chinaDay } from './orders.ts';

/**
 * Pickup appointments (spec §2 "subscribeTake: list, create, update, download pdf", §3 "Pickup
 * appointment", §7 "Subscribe"; issue 16). A customer books a van to collect its boxes in Tokyo
 * or Osaka on a date and time slot; each slot has a capacity per region that operators set.
 * Dates and slots are Japan time (Asia/Tokyo): no pickups on Sundays and Japanese public
 * holidays, and a date's slots close at the same-day cutoff (PICKUP_CUTOFF_HOUR, Japan time).
 * Plain calls, as spec §7 marks the Subscribe group (the added ones travel like the group).
 */

export const pickupRegion = z.enum(['tokyo', 'osaka']);
export type PickupRegion = z.infer<typeof pickupRegion>;
/** The day's time slots (Japan time). */
export const PICKUP_SLOTS = ['10-12', '12-14', '14-16', '16-18'] as const;
export const pickupSlot = z.enum(PICKUP_SLOTS);
export type PickupSlot = z.infer<typeof pickupSlot>;
/** A date's slots are booked, changed and cancelled until this hour of that day, Japan time. */
export const PICKUP_CUTOFF_HOUR = 9;
/** How far ahead a pickup may be booked (days). */
export const PICKUP_MAX_DAYS_AHEAD = 60;
export const pickupStatus = z.enum(['booked', 'cancelled', 'pickedUp']);
export type PickupStatus = z.infer<typeof pickupStatus>;
export const pickupMessageKind = z.enum(['booked', 'changed', 'cancelled', 'pickedUp']);
export type PickupMessageKind = z.infer<typeof pickupMessageKind>;
/** Why a date takes no bookings. */
export const closedReason = z.enum(['sunday', 'holiday', 'cutoff', 'tooFar']);

addRuleMessages({
  shopAbbr: {
    en: 'The shop abbreviation is Latin letters only (the pinyin initials of the shop name, such as YYK).',
    'zh-CN': '店铺缩写只能是英文字母（店铺名称的拼音首字母，如 YYK）。',
  },
  markerPrefix: {
    en: 'The marker prefix is letters and digits only (1 to 12), such as YYK1124.',
    'zh-CN': '箱唛前缀只能是字母和数字（1 至 12 位），如 YYK1124。',
  },
  pickupDate: {
    en: 'Enter a date as YYYY-MM-DD.',
    'zh-CN': '请按 YYYY-MM-DD 格式填写日期。',
  },
});

export const SHOP_ABBR_PATTERN = /^[A-Za-z]{1,20}$/;
export const MARKER_PREFIX_PATTERN = /^[A-Za-z0-9]{1,12}$/;
const shopAbbr = text({ min: 1, max: 20 }).check((ctx) => {
  if (!SHOP_ABBR_PATTERN.test(ctx.value)) ctx.issues.push(ruleIssue(ctx.value, 'shopAbbr'));
});
const markerPrefix = text({ min: 1, max: 12 }).check((ctx) => {
  if (!MARKER_PREFIX_PATTERN.test(ctx.value)) ctx.issues.push(ruleIssue(ctx.value, 'markerPrefix'));
});

/** One slot of a date: its capacity and what is left. */
export const slotRow = z.object({
  slot: pickupSlot,
  capacity: z.number().int(),
  booked: z.number().int(),
  left: z.number().int(),
});
export const dayRow = z.object({
  date: z.string(),
  open: z.boolean(),
  closedReason: closedReason.nullable(),
  /** The holiday's name (Japanese and English) when closed for one. */
  holiday: z.string().nullable(),
  slots: z.array(slotRow),
});
export type DayRow = z.infer<typeof dayRow>;

export const timeSlots = defineCall({
  path: 'subscribe/time/slots',
  summary:
    'Bookable slots of a region from a date (Japan time, today by default) for some days: each day open or closed ' +
    '(Sunday, holiday, past the same-day cutoff) and each slot with its capacity left.',
  permission: 'subscribeTake.create',
  request: z.object({ region: pickupRegion, from: chinaDay.optional(), days: whole(1, 62).default(14) }).strict(),
  response: z.object({ today: z.string(), cutoffHour: z.number().int(), days: z.array(dayRow) }),
});

export const pickupRow = z.object({
  id: z.number().int(),
  pickupNo: z.string(),
  customerId: z.number().int(),
  customerCode: z.string(),
  region: pickupRegion,
  pickupDate: z.string(),
  slot: pickupSlot,
  boxNo: z.string(),
  shopAbbr: z.string(),
  bigCartons: z.number().int(),
  smallParcels: z.number().int(),
  markerPrefix: z.string(),
  status: pickupStatus,
  cancelReason: z.string().nullable(),
  /** Until when it may be changed or cancelled (the pickup date's cutoff). */
  cutoffAt: isoTime,
  cancellable: z.boolean(),
  storageOrderId: z.number().int().nullable(),
  storageNo: z.string().nullable(),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type PickupRow = z.infer<typeof pickupRow>;

const fields = {
  region: pickupRegion,
  date: chinaDay,
  slot: pickupSlot,
  boxNo: text({ min: 1, max: 32 }),
  shopAbbr,
  bigCartons: whole(0, 500),
  smallParcels: whole(0, 500),
  markerPrefix,
};

export const bookPickup = defineCall({
  path: 'subscribe/take/piece',
  summary:
    'Book a pickup: one place of the slot is taken in the statement that checks it is free (409 when the slot is full). ' +
    'Agents and operators name the customer.',
  permission: 'subscribeTake.create',
  request: z.object({ ...fields, customerId: idOf.optional() }).strict(),
  response: pickupRow,
});
export type BookPickupRequest = z.input<typeof bookPickup.request>;
export type BookPickup = z.output<typeof bookPickup.request>;

export const updatePickup = defineCall({
  path: 'subscribe/take/piece/update',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Change a booked pickup until its cutoff: a new slot is taken as in booking, the old one given back.',
  permission: 'subscribeTake.create',
  request: z.object({ ...fields, id: idOf }).strict(),
  response: pickupRow,
});

export const pickupSort = z.enum(['createdAt', 'pickupDate']);
export const pickupListRequest = paging
  .extend({
    pickupNo: text({ min: 1, max: 32 }).optional(),
    boxNo: text({ min: 1, max: 32 }).optional(),
    region: pickupRegion.optional(),
    status: pickupStatus.optional(),
    dateFrom: chinaDay.optional(),
    dateTo: chinaDay.optional(),
    customerId: idOf.optional(),
    sort: pickupSort.default('createdAt'),
  })
  .strict();
export type PickupListRequest = z.output<typeof pickupListRequest>;

export const pickupList = defineCall({
  path: 'subscribe/take/piece/list',
  summary: "The caller's pickups: filters (number, box, region, status, dates, customer), sort, paging.",
  permission: 'subscribeTake.list',
  request: pickupListRequest,
  response: paged(pickupRow),
});

export const pickupInfo = defineCall({
  path: 'subscribe/take/piece/info',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'One pickup.',
  permission: 'subscribeTake.list',
  request: z.object({ id: idOf }).strict(),
  response: pickupRow,
});

export const cancelPickup = defineCall({
  path: 'subscribe/take/piece/cancel',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Cancel a booked pickup with a reason, until its cutoff; its place goes back to the slot.',
  permission: 'subscribeTake.list',
  request: z.object({ id: idOf, reason: text({ min: 1, max: 200 }) }).strict(),
  response: pickupRow,
});

export const pickupSlip = defineCall({
  path: 'subscribe/take/pdf',
  answers: [ErrorCode.NOT_FOUND],
  summary:
    'The appointment slip (PDF): the pickup number as a Code 128 barcode, slot, address, and one box marker ' +
    '(prefix + sequence) per expected carton and parcel.',
  permission: 'subscribeTake.list',
  kind: 'blob',
  file: 'pdf',
  request: z.object({ id: idOf }).strict(),
  response: nothing,
});

export const pickupMessageRow = z.object({
  id: z.number().int(),
  pickupId: z.number().int(),
  pickupNo: z.string(),
  customerCode: z.string(),
  kind: pickupMessageKind,
  /** The message in the caller's language. */
  text: z.string(),
  createdAt: isoTime,
});
export type PickupMessageRow = z.infer<typeof pickupMessageRow>;

export const pickupMessages = defineCall({
  path: 'subscribe/message',
  answers: [ErrorCode.NOT_FOUND],
  summary: "The caller's pickup messages (booked, changed, cancelled, picked up), newest first.",
  permission: 'subscribeTake.list',
  request: paging.extend({ pickupId: idOf.optional() }).strict(),
  response: paged(pickupMessageRow),
});

export const shopAbbreviation = defineCall({
  path: 'subscribe/shop/abbr',
  summary: 'A suggested shop abbreviation: the pinyin initials of a Chinese shop name (letters kept as they are).',
  permission: 'subscribeTake.create',
  request: z.object({ name: text({ min: 1, max: 100 }) }).strict(),
  response: z.object({ abbr: z.string() }),
});

export const capacityRow = z.object({ region: pickupRegion, slot: pickupSlot, capacity: z.number().int() });
export type CapacityRow = z.infer<typeof capacityRow>;

export const slotCapacities = defineCall({
  path: 'subscribe/time/capacity',
  summary: 'The capacity of every slot per region (operators).',
  permission: 'subscribeTake.capacity',
  request: empty,
  response: z.array(capacityRow),
});

export const setSlotCapacity = defineCall({
  path: 'subscribe/time/capacity/update',
  summary: 'Set the capacity of one slot of a region (operators); places already booked stay booked.',
  permission: 'subscribeTake.capacity',
  request: z.object({ region: pickupRegion, slot: pickupSlot, capacity: whole(0, 10_000) }).strict(),
  response: z.array(capacityRow),
});

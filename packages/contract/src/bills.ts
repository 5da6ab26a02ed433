import { z } from 'zod';
import { defineCall, nothing } from './call.ts';
import { isoTime, money, paged, paging, ErrorCode } from './envelope.ts';
import { idOf, text, whole } from './fields.ts';
import { pattern } from './messages.ts';
import { chinaDay } from './orders.ts';

/**
 * Bills (spec §7 "Files and bills": `bills`, `bill/downloadXlsx`; issue 17). Charges are written
 * by the order's life (shipping, interception) and by operators' adjustments; a customer's
 * charges of a month (China time) make its statement. A customer sees its own, an agent its
 * customers', operators all. Issuing, marking paid, adjusting and rate cards need `bill.manage`
 * (operators). Amounts travel as decimal strings with their currency, never floats.
 */

export const billStatus = z.enum(['open', 'issued', 'paid']);
export type BillStatus = z.infer<typeof billStatus>;
export const chargeKind = z.enum(['freight', 'remote', 'storage', 'tax', 'interception', 'relabel', 'adjustment']);
export type ChargeKind = z.infer<typeof chargeKind>;

/** YYYY-MM */
export const period = z.string().regex(pattern(/^\d{4}-(0[1-9]|1[0-2])$/, 'month'));
/** YYYY-MM-DD: the contract's one date schema. */
export const day = chinaDay;
/** A currency code; the server checks it against `currencies` (422 on the field). */
const currencyCode = text({ min: 1, max: 8 });
/** Whole minor units of the card's currency (JPY: yen, CNY: fen). */
const minor = whole(0, 100_000_000);

export const currencyTotal = z.object({ currency: z.string(), amount: money });
export type CurrencyTotal = z.infer<typeof currencyTotal>;

export const billRow = z.object({
  id: z.number().int(),
  customerId: z.number().int(),
  customerCode: z.string(),
  period: z.string(),
  status: billStatus,
  lines: z.number().int(),
  /** One total per currency of the lines, in that currency. */
  totals: z.array(currencyTotal),
  /** The sum of the totals in CNY at the month's rates (each currency's total rounded to the fen). */
  totalCny: money,
  issuedAt: isoTime.nullable(),
  paidAt: isoTime.nullable(),
});
export type BillRow = z.infer<typeof billRow>;

export const billListRequest = paging
  .extend({
    period: period.optional(),
    customerId: idOf.optional(),
    status: billStatus.optional(),
  })
  .strict();
export type BillListRequest = z.output<typeof billListRequest>;

export const bills = defineCall({
  path: 'bills',
  summary: "The caller's monthly statements: filters (period, customer, status), newest month first.",
  permission: 'bill',
  request: billListRequest,
  response: paged(billRow),
});

export const chargeRow = z.object({
  id: z.number().int(),
  kind: chargeKind,
  orderId: z.number().int().nullable(),
  orderNo: z.string().nullable(),
  amount: money,
  currency: z.string(),
  weightG: z.number().int().nullable(),
  reason: z.string().nullable(),
  correctsId: z.number().int().nullable(),
  at: isoTime,
});
export type ChargeRow = z.infer<typeof chargeRow>;

export const billLines = defineCall({
  path: 'bill/lines',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'The lines (charges) of one statement, in the order they were written.',
  permission: 'bill',
  request: paging.extend({ id: idOf }).strict(),
  response: paged(chargeRow),
});

export const monthTotal = z.object({ period: z.string(), totalCny: money });
export const billMonths = defineCall({
  path: 'bill/months',
  summary: "The caller's statements' CNY totals of the last 12 months (the page's chart).",
  permission: 'bill',
  request: z.object({ customerId: idOf.optional() }).strict(),
  response: z.array(monthTotal),
});

export const downloadBill = defineCall({
  path: 'bill/downloadXlsx',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'One statement as an xlsx: its lines and its totals per currency and in CNY.',
  permission: 'bill',
  kind: 'blob',
  timeout: 0,
  request: z.object({ id: idOf }).strict(),
  response: nothing,
});

export const issueBill = defineCall({
  path: 'bill/issue',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Issue an open statement (operators); later charges of its month go to the next open month.',
  permission: 'bill.manage',
  request: z.object({ id: idOf }).strict(),
  response: billRow,
});

export const payBill = defineCall({
  path: 'bill/markPaid',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Mark an issued statement paid (operators).',
  permission: 'bill.manage',
  request: z.object({ id: idOf }).strict(),
  response: billRow,
});

export const adjustBill = defineCall({
  path: 'bill/adjust',
  summary: "A manual adjustment (operators): a new signed line with a reason on the customer's open statement.",
  permission: 'bill.manage',
  request: z
    .object({
      customerId: idOf,
      orderId: idOf.optional(),
      correctsId: idOf.optional(),
      currency: currencyCode,
      amount: money,
      reason: text({ min: 1, max: 500 }),
    })
    .strict(),
  response: chargeRow,
});

/** One additional-weight bracket: every started `stepG` up to `upToG` (null: no end) costs `price`. */
export const weightBracket = z.object({
  upToG: whole(1, 1_000_000).nullable(),
  stepG: whole(1, 1_000_000),
  price: minor,
});
export const rateRules = z
  .object({
    firstWeightG: whole(1, 1_000_000),
    firstPrice: minor,
    brackets: z.array(weightBracket).max(20).default([]),
    minimum: minor.default(0),
    remoteProvinces: z
      .array(text({ min: 1, max: 20 }))
      .max(40)
      .default([]),
    remoteFee: minor.default(0),
    interceptionFee: minor.default(0),
    relabelFee: minor.default(0),
    storageFreeDays: whole(0, 3650).default(0),
    storagePerDay: minor.default(0),
  })
  .strict();
export type RateRules = z.output<typeof rateRules>;

export const rateCardRow = z.object({
  id: z.number().int(),
  channelCode: z.string(),
  customerId: z.number().int().nullable(),
  customerCode: z.string().nullable(),
  effectiveFrom: z.string(),
  currency: z.string(),
  rules: rateRules,
  createdAt: isoTime,
});
export type RateCardRow = z.infer<typeof rateCardRow>;

export const rateCardList = defineCall({
  path: 'rateCards/list',
  summary: 'Rate cards (operators), newest effective date first; filter by channel and customer.',
  permission: 'bill.manage',
  request: paging.extend({ channelCode: text({ min: 1, max: 16 }).optional(), customerId: idOf.optional() }).strict(),
  response: paged(rateCardRow),
});

export const saveRateCard = defineCall({
  path: 'rateCards/save',
  summary:
    "Save a rate card version (operators): a channel's card, or a customer's (overrides the channel's) from a date. Cards are never edited: a new date makes a new version.",
  permission: 'bill.manage',
  request: z
    .object({
      channelCode: text({ min: 1, max: 16 }),
      customerId: idOf.nullable().default(null),
      effectiveFrom: day,
      rules: rateRules,
    })
    .strict(),
  response: rateCardRow,
});

export type AdjustRequest = z.input<(typeof adjustBill)['request']>;

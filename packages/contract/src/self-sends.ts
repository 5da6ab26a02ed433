import { z } from 'zod';
import { defineCall } from './call.ts';
import { isoTime, paged, paging } from './envelope.ts';
import { idOf, text, whole } from './fields.ts';
import { addRuleMessages, ruleIssue } from './messages.ts';
import { chinaDay } from './orders.ts';

/**
 * Self-sends (spec §2 "selfSendTake: list, create", §7 "Self-send: /selfSends/save,
 * /selfSends/list"): a customer declares the parcels it sends to the warehouse itself — the
 * express company, the tracking numbers, how many pieces and when. Inbound storage matches
 * them: a storage line whose code is a declared tracking number marks that parcel arrived
 * (modules/self-sends, called from the storage order's transaction), so the list shows the
 * pieces expected against the parcels arrived.
 */
export const expressCompany = z.enum(['yamato', 'sagawa', 'japanPost', 'other']);
export type ExpressCompany = z.infer<typeof expressCompany>;
/** pending: nothing arrived; partial: some tracking numbers arrived; arrived: all of them. */
export const selfSendStatus = z.enum(['pending', 'partial', 'arrived']);
export type SelfSendStatus = z.infer<typeof selfSendStatus>;

export const SELF_SEND_MAX_TRACKING = 200;

export const selfSendParcel = z.object({
  trackingNo: z.string(),
  arrivedAt: isoTime.nullable(),
  /** The storage order that received it. */
  storageNo: z.string().nullable(),
});

export const selfSendRow = z.object({
  id: z.number().int(),
  customerId: z.number().int(),
  customerCode: z.string(),
  expressCompany,
  /** The company's name when `other`. */
  expressName: z.string().nullable(),
  sendDate: z.string(),
  expectedPieces: z.number().int(),
  arrivedCount: z.number().int(),
  status: selfSendStatus,
  parcels: z.array(selfSendParcel),
  remark: z.string().nullable(),
  createdAt: isoTime,
});
export type SelfSendRow = z.infer<typeof selfSendRow>;

/** Tracking numbers as typed: trimmed and upper-cased on the server (as storage scans them). */
const trackingNo = text({ min: 4, max: 40 }).check((ctx) => {
  if (!/^[A-Za-z0-9-]+$/.test(ctx.value.trim())) ctx.issues.push(ruleIssue(ctx.value, 'trackingNo'));
});

addRuleMessages({
  trackingNo: {
    en: 'A tracking number is letters, digits and dashes only.',
    'zh-CN': '快递单号只能包含字母、数字和横线。',
  },
});

export const saveSelfSend = defineCall({
  path: 'selfSends/save',
  summary:
    'Declare parcels sent to the warehouse by the customer itself: express company, tracking numbers, ' +
    'pieces expected, send date. A tracking number already declared by the customer is a 422.',
  permission: 'selfSendTake.create',
  request: z
    .object({
      customerId: idOf.optional(),
      expressCompany,
      expressName: text({ max: 64 })
        .nullish()
        .transform((v) => v || null),
      trackingNos: z.array(trackingNo).min(1).max(SELF_SEND_MAX_TRACKING),
      expectedPieces: whole(1, 9999),
      sendDate: chinaDay,
      remark: text({ max: 500, multiline: true })
        .nullish()
        .transform((v) => v || null),
    })
    .strict(),
  response: selfSendRow,
});
export type SaveSelfSendRequest = z.input<typeof saveSelfSend.request>;

export const selfSendListRequest = paging
  .extend({
    trackingNo: text({ min: 1, max: 40 }).optional(),
    expressCompany: expressCompany.optional(),
    status: selfSendStatus.optional(),
    customerId: idOf.optional(),
    /** Send day range, inclusive. */
    dateFrom: chinaDay.optional(),
    dateTo: chinaDay.optional(),
    sort: z.enum(['createdAt', 'sendDate']).default('createdAt'),
  })
  .strict();
export type SelfSendListRequest = z.output<typeof selfSendListRequest>;

export const selfSendList = defineCall({
  path: 'selfSends/list',
  summary: "The caller's self-sends with each tracking number's arrival: filters, sort, paging.",
  permission: 'selfSendTake.list',
  request: selfSendListRequest,
  response: paged(selfSendRow),
});

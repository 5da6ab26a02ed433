import { z } from 'zod';
import { defineCall, nothing } from './call.ts';
import { isoTime, paged, paging, ErrorCode } from './envelope.ts';
import { idOf, text } from './fields.ts';

/**
 * JD authorizations (spec §2 "order: jdAuthorize create/list/update", issue 16): a customer's
 * apps on the JD open platform (app key and secret, JD's customer code, ISV source, business
 * division number, platform) and the OAuth 2 tokens JD grants for them. The app secret and the
 * tokens are stored encrypted and only ever answered masked. A customer keeps its own, an agent
 * its customers', operators all. Plain calls, as spec §7 marks them (TLS protects the secret in
 * the body of create and update; docs/decisions/2026-11-27-aes-follows-spec-marks.md).
 */

/** Days before the access token's expiry from which the list warns. */
export const JD_EXPIRY_WARNING_DAYS = 7;

/** Where JD's OAuth callback lands (GET, not a call: JD's browser redirect carries no token). */
export const JD_CALLBACK_PATH = '/api/jdAuthorize/callback';

export const jdAuthorizeRow = z.object({
  id: z.number().int(),
  customerId: z.number().int(),
  /** Our customer's code (the tenant), not JD's. */
  ownerCode: z.string(),
  appKey: z.string(),
  /** The app secret masked (first and last two characters). */
  appSecretMasked: z.string(),
  /** JD's customer code (商家编码). */
  customerCode: z.string(),
  isvSource: z.string(),
  /** JD business division (事业部) number. */
  deptNo: z.string(),
  platformId: z.string(),
  platformName: z.string(),
  authorized: z.boolean(),
  /** The access token masked; empty until authorized. */
  accessTokenMasked: z.string(),
  openId: z.string(),
  tokenExpiresAt: isoTime.nullable(),
  authorizedAt: isoTime.nullable(),
  /** The access token expires within JD_EXPIRY_WARNING_DAYS (and has not yet). */
  expiringSoon: z.boolean(),
  expired: z.boolean(),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type JdAuthorizeRow = z.infer<typeof jdAuthorizeRow>;

export const jdAuthorizeSort = z.enum(['createdAt', 'tokenExpiresAt', 'platformName', 'appKey']);
export const jdAuthorizeStatus = z.enum(['unauthorized', 'valid', 'expiring', 'expired']);
export type JdAuthorizeStatus = z.infer<typeof jdAuthorizeStatus>;

export const jdAuthorizeListRequest = paging
  .extend({
    /** Part of the app key, JD customer code or platform name. */
    keyword: text({ min: 1, max: 100 }).optional(),
    status: jdAuthorizeStatus.optional(),
    customerId: idOf.optional(),
    sort: jdAuthorizeSort.default('createdAt'),
  })
  .strict();
export type JdAuthorizeListRequest = z.output<typeof jdAuthorizeListRequest>;

export const jdAuthorizeList = defineCall({
  path: 'jdAuthorize/list',
  summary: "The caller's JD authorizations (secrets and tokens masked), with token expiry and its warning.",
  permission: 'order.jdAuthorize',
  request: jdAuthorizeListRequest,
  response: paged(jdAuthorizeRow),
});

export const jdAuthorizeOption = z.object({
  id: z.number().int(),
  label: z.string(),
  authorized: z.boolean(),
});

export const jdAuthorizeSelect = defineCall({
  path: 'jdAuthorize/select',
  summary: "The caller's JD authorizations for a select: id and label (platform name and app key).",
  permission: 'order.jdAuthorize',
  request: z.object({ customerId: idOf.optional() }).strict(),
  response: z.array(jdAuthorizeOption),
});

export const jdAuthorizeInfo = defineCall({
  path: 'jdAuthorize/info',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'One JD authorization (masked).',
  permission: 'order.jdAuthorize',
  request: z.object({ id: idOf }).strict(),
  response: jdAuthorizeRow,
});

const fields = {
  appKey: text({ min: 1, max: 64 }),
  customerCode: text({ min: 1, max: 64 }),
  isvSource: text({ max: 64 }).default(''),
  deptNo: text({ max: 64 }).default(''),
  platformId: text({ max: 64 }).default(''),
  platformName: text({ max: 100 }).default(''),
};
export type JdAuthorizeFields = z.input<z.ZodObject<typeof fields>>;

export const createJdAuthorize = defineCall({
  path: 'jdAuthorize/create',
  summary: 'Save a JD app (agents and operators name the customer); the secret is stored encrypted.',
  permission: 'order.jdAuthorize.create',
  request: z.object({ ...fields, appSecret: text({ min: 1, max: 128 }), customerId: idOf.optional() }).strict(),
  response: jdAuthorizeRow,
});

export const updateJdAuthorize = defineCall({
  path: 'jdAuthorize/update',
  answers: [ErrorCode.NOT_FOUND],
  summary:
    'Change a JD app. An empty or absent appSecret keeps the saved one; a new app key or secret drops the tokens (JD granted them to the old app).',
  permission: 'order.jdAuthorize.update',
  request: z.object({ ...fields, appSecret: text({ max: 128 }).optional(), id: idOf }).strict(),
  response: jdAuthorizeRow,
});

export const deleteJdAuthorize = defineCall({
  path: 'jdAuthorize/delete',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Delete a JD authorization and its tokens.',
  permission: 'order.jdAuthorize',
  request: z.object({ id: idOf }).strict(),
  response: nothing,
});

export const getJdAuthorizeUrl = defineCall({
  path: 'jdAuthorize/getAuthorizeUrl',
  answers: [ErrorCode.NOT_FOUND],
  summary:
    "JD's OAuth 2 authorization URL for the app, with a state bound to the caller, single use, expiring in 10 minutes.",
  permission: 'order.jdAuthorize',
  request: z.object({ id: idOf }).strict(),
  response: z.object({ url: z.string(), expiresAt: isoTime }),
});

export const getJdToken = defineCall({
  path: 'jdAuthorize/getJdToken',
  answers: [ErrorCode.NOT_FOUND],
  summary:
    'Exchanges the code JD sent to the callback for the access and refresh tokens (the state must be the caller’s, unused and unexpired).',
  permission: 'order.jdAuthorize',
  request: z.object({ code: text({ min: 1, max: 512 }), state: text({ min: 1, max: 128 }) }).strict(),
  response: jdAuthorizeRow,
});

export const renewJdToken = defineCall({
  path: 'jdAuthorize/renewal',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Refreshes the access token with the refresh token before it expires.',
  permission: 'order.jdAuthorize',
  request: z.object({ id: idOf }).strict(),
  response: jdAuthorizeRow,
});

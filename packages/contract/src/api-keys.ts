import { z } from 'zod';
import { defineCall, nothing } from './call.ts';
import { ErrorCode, isoTime, paged, paging } from './envelope.ts';
import { idOf, text } from './fields.ts';
import { pattern, ruleIssue } from './messages.ts';
import { customerOption } from './reference.ts';

/**
 * API keys for customers' own systems (issue 39): the console's calls that make, list and revoke
 * them. The v1 calls the keys open are in v1.ts. A key is shown once, when made; lists name it by
 * its prefix.
 */

/** What a key may do on the v1 API; each v1 call names the one it needs. */
export const apiScope = z.enum(['orders:read', 'orders:write', 'labels:read', 'tracking:read', 'webhooks:manage']);
export type ApiScope = z.infer<typeof apiScope>;

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;
/**
 * A moment as ISO 8601 with its offset (what machines send), in 2000…2099 like every date of the
 * contract; given on as UTC (`…Z`), the form every time is stored in, so comparisons are string ones.
 */
export const instant = text({ max: 40 })
  .regex(pattern(INSTANT, 'instant'))
  .check((ctx) => {
    const ms = Date.parse(ctx.value);
    if (!INSTANT.test(ctx.value)) return; // the pattern said it
    if (!Number.isFinite(ms)) ctx.issues.push(ruleIssue(ctx.value, 'dateExists'));
    else if (ms < Date.UTC(2000, 0, 1) || ms >= Date.UTC(2100, 0, 1))
      ctx.issues.push(ruleIssue(ctx.value, 'dateRange'));
  })
  .transform((v) => new Date(v).toISOString());

export const apiKeyRow = z.object({
  id: z.number().int(),
  name: z.string(),
  /** `ck_live_xxxxxxxx`: the start of the key, enough to recognise it, never to use it. */
  prefix: z.string(),
  scopes: z.array(apiScope),
  /** The customer a customer's key acts for; null for an agent's key. */
  customerId: z.number().int().nullable(),
  customerCode: z.string().nullable(),
  /** The agent's customers this key is limited to (empty: all of them; always empty for a customer's key). */
  customerIds: z.array(z.number().int()),
  /** The same customers by code and name, in `customerIds`' order: what a person recognises. */
  customers: z.array(customerOption),
  createdBy: z.string(),
  createdAt: isoTime,
  expiresAt: isoTime.nullable(),
  lastUsedAt: isoTime.nullable(),
  revokedAt: isoTime.nullable(),
});
export type ApiKeyRow = z.infer<typeof apiKeyRow>;

export const apiKeyListRequest = paging
  .extend({
    includeRevoked: z.boolean().default(false),
    /** Part of the key's name or prefix. */
    keyword: text({ min: 1, max: 64 }).optional(),
    sort: z.enum(['createdAt', 'name', 'lastUsedAt', 'expiresAt']).default('createdAt'),
  })
  .strict();
export type ApiKeyListRequest = z.output<typeof apiKeyListRequest>;

export const apiKeyList = defineCall({
  path: 'apiKey/list',
  summary:
    "API keys: a customer's own, an agent's own, every key for an admin; filter by name or prefix, revoked ones when asked for, sort, paging.",
  permission: 'developer.apiKeys',
  request: apiKeyListRequest,
  response: paged(apiKeyRow),
});

export const apiKeyCreate = defineCall({
  path: 'apiKey/create',
  summary:
    'Make an API key: its name, scopes, optional expiry and (an agent) the customers it is limited to. The key is in this answer only.',
  permission: 'developer.apiKeys',
  request: z.object({
    name: text({ min: 1, max: 64 }),
    scopes: z.array(apiScope).min(1).max(5),
    expiresAt: instant.nullish(),
    customerIds: z.array(idOf).max(500).default([]),
  }),
  response: apiKeyRow.extend({
    /** The whole key: shown once, stored only as its hash. */
    key: z.string(),
  }),
});

export const apiKeyRevoke = defineCall({
  path: 'apiKey/revoke',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Revoke an API key: every instance refuses it from the next call on.',
  permission: 'developer.apiKeys',
  request: z.object({ id: idOf }),
  response: nothing,
});

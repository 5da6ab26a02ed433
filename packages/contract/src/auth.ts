import { z } from 'zod';
import { defineCall, empty, nothing } from './call.ts';
import { isoTime, paged, paging, ErrorCode } from './envelope.ts';
import { idOf, jsonValue, text } from './fields.ts';
import { pattern, ruleIssue } from './messages.ts';
import { accessedRoute, roles } from './routes.ts';

const name = text({ min: 1, max: 64 });
const secret = text({ min: 1, max: 256, trim: false });
/**
 * A new password. The policy (password.ts) needs the user name and the common-password
 * list, so the service applies all of it and answers every reason at once as a 422 on the
 * field; the bound of 1024 only keeps absurd bodies out (past 128 the policy says so).
 */
export const newPassword = text({ min: 1, max: 1024, trim: false });

const tokenAnswer = z.object({
  access_token: z.string(),
  /** Seconds until the access token expires (it can be refreshed for 14 days). */
  expires_in: z.number().int(),
  /**
   * The account was made or reset with a one-time password (issue 17): the console asks for a
   * new one before anything else, and the server refuses every call but those below until then.
   */
  mustChangePassword: z.boolean().optional(),
});

/** What an account that must change its password may still call (paths). */
export const callsBeforePasswordChange: readonly string[] = [
  'user/settings/save',
  'me',
  'logout',
  'refresh',
  'updatePassWord',
  'user/settings',
];

export const login = defineCall({
  path: 'login',
  answers: [ErrorCode.TOO_MANY_REQUESTS],
  summary: 'Log in with name and password; answers an access token.',
  auth: false,
  request: z.object({ name, password: secret, uuid: text({ max: 64 }).optional() }),
  response: tokenAnswer,
});

export const me = defineCall({
  path: 'me',
  summary: 'The current user: name, roles, accessed routes and permissions.',
  aes: true,
  request: empty,
  response: z.object({
    name: z.string(),
    displayName: z.string(),
    roles: z.array(z.enum(roles)),
    accessedRoutes: z.array(accessedRoute),
    permissions: z.array(z.object({ name: z.string() })),
    customer: z.object({ id: z.number().int(), code: z.string(), name: z.string() }).nullable(),
    mustChangePassword: z.boolean().optional(),
  }),
});

export const logout = defineCall({
  path: 'logout',
  summary: 'End the current session.',
  request: empty,
  response: nothing,
});

export const refresh = defineCall({
  path: 'refresh',
  answers: [ErrorCode.UNAUTHORIZED, ErrorCode.SESSION_ENDED],
  summary: 'Exchange the (possibly expired) access token for a new one; the old one dies.',
  auth: false,
  request: empty,
  response: tokenAnswer,
});

export const updatePassWord = defineCall({
  path: 'updatePassWord',
  answers: [ErrorCode.TOO_MANY_REQUESTS],
  summary: 'Change the password; every other session of the user ends (430 there).',
  request: z.object({ old_password: secret, password: newPassword }),
  response: nothing,
});

export const endSession = defineCall({
  path: 'session/end',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Operator: end every session of a user (they get 430).',
  permission: 'session.manage',
  request: z.object({ userName: name }),
  response: z.object({ ended: z.number().int() }),
});

/**
 * One live session (issue 28 #22, the `session.manage` page): not ended, its account enabled, and
 * a token still refreshable. Where it was opened from is what the login saw (address, browser).
 */
export const sessionRow = z.object({
  id: z.number().int(),
  userName: z.string(),
  displayName: z.string(),
  role: z.enum(roles),
  customerCode: z.string().nullable(),
  /** The browser's id (spec §4 uuid cookie), as sent at login. */
  uuid: z.string().nullable(),
  userAgent: z.string().nullable(),
  ip: z.string().nullable(),
  createdAt: isoTime,
  /** Updated at most every five minutes while the session is used. */
  lastSeenAt: isoTime,
  /** The caller's own session: it cannot be ended here (logout does that). */
  current: z.boolean(),
});
export type SessionRow = z.infer<typeof sessionRow>;

export const sessionListRequest = paging
  .extend({
    /** Part of the user name, display name or customer code. */
    keyword: text({ min: 1, max: 64 }).optional(),
    sort: z.enum(['lastSeenAt', 'createdAt']).default('lastSeenAt'),
  })
  .strict();
export type SessionListRequest = z.output<typeof sessionListRequest>;

export const sessionList = defineCall({
  path: 'session/list',
  summary: 'Operator: the live sessions of every account (user, browser, address, last seen); filter, sort, paging.',
  permission: 'session.manage',
  request: sessionListRequest,
  response: paged(sessionRow),
});

export const endOneSession = defineCall({
  path: 'session/endOne',
  answers: [ErrorCode.NOT_FOUND],
  summary:
    "Operator: end one session (its browser gets 430). Not the caller's own account, nor one of a higher role; " +
    'a session already ended is 404.',
  permission: 'session.manage',
  request: z.object({ id: idOf }).strict(),
  response: nothing,
});

export const setUserDisabled = defineCall({
  path: 'user/disable',
  summary: 'Operator: disable or enable an account; disabling ends its sessions (430 there).',
  permission: 'session.manage',
  request: z.object({ userName: name, disabled: z.boolean() }),
  response: nothing,
});

/**
 * Console settings that follow the user across browsers (tabs, appearance; `print`: the print
 * settings of issue 14, spec §9, shaped and checked by apps/web's printing feature).
 */
export const settingKey = z.enum([
  'tabs',
  'tabLabels',
  'appearance',
  'orderColumns',
  'itemColumns',
  'orderReviewColumns',
  'print',
]);
export const userSettings = defineCall({
  path: 'user/settings',
  summary: 'The saved console settings of the current user.',
  request: empty,
  response: z.record(z.string(), z.unknown()),
});
export const saveUserSetting = defineCall({
  path: 'user/settings/save',
  summary: 'Save one console setting of the current user.',
  request: z.object({
    key: settingKey,
    value: jsonValue().check((ctx) => {
      if (ctx.value === undefined || JSON.stringify(ctx.value).length > 65_536)
        ctx.issues.push(ruleIssue(ctx.value, 'settingTooLarge'));
    }),
    /**
     * The save's stamp (the browser's clock in hundredths of a millisecond, growing across reloads), as digits: a
     * save older than the stored one is ignored, so a late save cannot put an old value back.
     * Digits, not a number: every number of a request stays below 2^31 (hostile-input rule).
     */
    seq: text({ max: 15 })
      .regex(pattern(/^\d{1,15}$/, 'settingSeq'))
      .optional(),
  }),
  response: nothing,
});

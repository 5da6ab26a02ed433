import { z } from 'zod';
import { expectedVersion, recordVersion } from './versions.ts';
import { defineCall, empty, nothing } from './call.ts';
import { emailAddress } from './email.ts';
import { isoTime, paged, paging } from './envelope.ts';
import { idOf, text, whole } from './fields.ts';
import { addRuleMessages, ruleIssue } from './messages.ts';
import { chinaDay } from './orders.ts';
import { roles } from './routes.ts';

/**
 * Administration (issue 17, beyond the spec): customers, users and agents, what each role sees,
 * and the audit log. Operators and admins only (customers and agents get 403 on every call);
 * editing a role's routes is the admin's alone. Calls that carry a password travel in AES.
 */

addRuleMessages({
  customerCode: {
    en: 'A customer code is 2 to 32 capital letters, digits, dashes or underscores.',
    'zh-CN': '客户代码为 2 至 32 位大写字母、数字、横线或下划线。',
  },
  userName: {
    en: 'A user name is 3 to 64 letters, digits, dots, dashes or underscores.',
    'zh-CN': '用户名为 3 至 64 位字母、数字、点、横线或下划线。',
  },
});

const shaped = (min: number, max: number, re: RegExp, rule: string) =>
  text({ min, max }).check((ctx) => {
    if (!re.test(ctx.value)) ctx.issues.push(ruleIssue(ctx.value, rule));
  });
const customerCode = shaped(2, 32, /^[A-Z0-9_-]{2,32}$/, 'customerCode');
const userName = shaped(3, 64, /^[A-Za-z0-9._-]{3,64}$/, 'userName');

export const customerRow = z.object({
  id: z.number().int(),
  /** What the edit form sends back as `version` (issue 28 #3). */
  version: recordVersion,
  code: z.string(),
  name: z.string(),
  contactName: z.string(),
  contactPhone: z.string(),
  contactEmail: z.string(),
  agentUserId: z.number().int().nullable(),
  agentName: z.string().nullable(),
  users: z.number().int(),
  /** The channels this customer may use; empty: every channel. */
  channels: z.array(z.string()),
  /**
   * Bytes of this customer's files in the file store (uploads, ID card and item images, files made
   * for it, until the retention removes them), and what it may keep (CUSTOMER_FILE_QUOTA_BYTES;
   * 0: no quota). An upload past the quota is refused with 507 `storageQuotaExceeded`.
   */
  storedBytes: z.number().int(),
  storedBytesQuota: z.number().int(),
  createdAt: isoTime,
});
export type CustomerRow = z.infer<typeof customerRow>;

export const customerListRequest = paging
  .extend({
    keyword: text({ min: 1, max: 64 }).optional(),
    agentUserId: idOf.optional(),
    sort: z.enum(['createdAt', 'code', 'name']).default('createdAt'),
  })
  .strict();
export type CustomerListRequest = z.output<typeof customerListRequest>;

export const customerList = defineCall({
  path: 'admin/customer/list',
  summary: 'Customers with their agent and number of users: filter by code/name or agent, paging.',
  permission: 'system.customers',
  request: customerListRequest,
  response: paged(customerRow),
});

const customerFields = {
  name: text({ min: 1, max: 200 }),
  contactName: text({ max: 100 }).default(''),
  contactPhone: text({ max: 32 }).default(''),
  contactEmail: emailAddress({ optional: true }).default(''),
  /** The agent (a user of role agent) who acts for this customer; null: none. */
  agentUserId: idOf.nullable().default(null),
  /**
   * The channels the customer may use (known codes, each once); empty: every channel. The server
   * refuses orders and uploads of this customer on any other channel.
   */
  channels: z
    .array(text({ min: 1, max: 16 }))
    .max(100)
    .default([]),
};

export const createCustomer = defineCall({
  path: 'admin/customer/create',
  summary: 'Create a customer (its code is unique and never changes).',
  permission: 'system.customers',
  request: z.object({ code: customerCode, ...customerFields }).strict(),
  response: customerRow,
});

export const updateCustomer = defineCall({
  path: 'admin/customer/update',
  summary: "Change a customer's name, contact or agent.",
  permission: 'system.customers',
  /** `version`: the one the form was loaded from; a stale one is a 409 `recordChanged` with the customer now. */
  request: z.object({ id: idOf, ...customerFields, version: expectedVersion }).strict(),
  response: customerRow,
});

/**
 * Waybill number segments of one customer (issue 17). `s10`: EMS-style two capital letters, 8
 * digits and a check digit, two capital letters (EE12345678?JP); `plain`: a prefix and a
 * zero-padded 10-digit sequence. A segment hands out firstSeq…lastSeq; the customer's own
 * segment of a channel is used before the shared one.
 */
export const segmentSchemes = ['s10', 'plain'] as const;
export type SegmentScheme = (typeof segmentSchemes)[number];
/**
 * The largest sequence of each scheme: 8 digits for S10; a plain number prints 10 digits, but a
 * request's numbers stay below 2^31 like every other (issue 10 finding 17), which still leaves a
 * plain segment two billion numbers.
 */
export const segmentMaxSeq: Record<SegmentScheme, number> = { s10: 99_999_999, plain: 2_147_483_647 };

export const segmentRow = z.object({
  id: z.number().int(),
  channelCode: z.string(),
  name: z.string(),
  prefix: z.string(),
  suffix: z.string(),
  scheme: z.enum(segmentSchemes),
  firstSeq: z.number().int(),
  nextSeq: z.number().int(),
  lastSeq: z.number().int(),
  /** Numbers handed out (nextSeq − firstSeq). */
  used: z.number().int(),
  /** Numbers left (lastSeq − nextSeq + 1; 0 once retired or used up). */
  remaining: z.number().int(),
  /** The first and the last number of the range as printed. */
  firstNumber: z.string(),
  lastNumber: z.string(),
});
export type SegmentRow = z.infer<typeof segmentRow>;

export const customerSegments = defineCall({
  path: 'admin/customer/segments',
  summary: "A customer's own waybill number segments with what is used and left.",
  permission: 'system.customers',
  request: z.object({ customerId: idOf }).strict(),
  response: z.array(segmentRow),
});

export const createSegment = defineCall({
  path: 'admin/customer/segment/create',
  summary:
    'Give a customer a number segment of a channel. A range overlapping any segment of the same scheme, prefix and suffix (shared or any customer’s) is refused: a number is never handed out twice.',
  permission: 'system.customers',
  request: z
    .object({
      customerId: idOf,
      channelCode: text({ min: 1, max: 16 }),
      name: text({ min: 1, max: 100 }),
      prefix: text({ min: 1, max: 10 }),
      suffix: text({ max: 10 }).default(''),
      scheme: z.enum(segmentSchemes),
      firstSeq: whole(1, segmentMaxSeq.plain),
      lastSeq: whole(1, segmentMaxSeq.plain),
    })
    .strict(),
  response: segmentRow,
});

export const retireSegment = defineCall({
  path: 'admin/customer/segment/retire',
  summary:
    'Stop a customer segment: no further numbers are handed out (its range stays claimed, so it is never reissued).',
  permission: 'system.customers',
  request: z.object({ id: idOf }).strict(),
  response: segmentRow,
});

export const userRow = z.object({
  id: z.number().int(),
  name: z.string(),
  displayName: z.string(),
  role: z.enum(roles),
  customerId: z.number().int().nullable(),
  customerCode: z.string().nullable(),
  disabled: z.boolean(),
  mustChangePassword: z.boolean(),
  /** Sessions not ended. */
  sessions: z.number().int(),
  createdAt: isoTime,
});
export type UserRow = z.infer<typeof userRow>;

export const userListRequest = paging
  .extend({
    keyword: text({ min: 1, max: 64 }).optional(),
    role: z.enum(roles).optional(),
    customerId: idOf.optional(),
    sort: z.enum(['createdAt', 'name']).default('createdAt'),
  })
  .strict();
export type UserListRequest = z.output<typeof userListRequest>;

export const userList = defineCall({
  path: 'admin/user/list',
  summary: 'Accounts: filter by name, role, customer; paging.',
  permission: 'system.users',
  request: userListRequest,
  response: paged(userRow),
});

/** A one-time password: shown once to the operator, to be changed at the first login. */
const oneTime = z.object({ user: userRow, password: z.string() });

export const createUser = defineCall({
  path: 'admin/user/create',
  summary:
    'Create an account with a one-time password the user must change at the first login. A customer user names its customer; only an admin creates admins.',
  aes: true,
  permission: 'system.users',
  request: z
    .object({
      name: userName,
      displayName: text({ min: 1, max: 100 }),
      role: z.enum(roles),
      customerId: idOf.nullable().default(null),
    })
    .strict(),
  response: oneTime,
});

export const resetPassword = defineCall({
  path: 'admin/user/resetPassword',
  summary: 'Give an account a new one-time password; its sessions end and it must change the password.',
  aes: true,
  permission: 'system.users',
  request: z.object({ id: idOf }).strict(),
  response: oneTime,
});

export const disableUser = defineCall({
  path: 'admin/user/disable',
  summary: 'Disable or enable an account; disabling ends its sessions (430 there).',
  permission: 'system.users',
  request: z.object({ id: idOf, disabled: z.boolean() }).strict(),
  response: userRow,
});

export const endUserSessions = defineCall({
  path: 'admin/user/endSessions',
  summary: 'End every session of an account (430 there).',
  permission: 'system.users',
  request: z.object({ id: idOf }).strict(),
  response: z.object({ ended: z.number().int() }),
});

/** Roles whose routes are kept in role_permissions (admin-none sees every route). */
export const editableRoles = ['customer', 'agent', 'operator'] as const;

export const roleList = defineCall({
  path: 'admin/role/list',
  summary: 'Each editable role with the routes it holds.',
  permission: 'system.roles',
  request: empty,
  response: z.array(z.object({ role: z.enum(editableRoles), routes: z.array(z.string()) })),
});

export const updateRole = defineCall({
  path: 'admin/role/update',
  summary:
    "Set the routes a role holds (its users' `me` changes at the next load). A route limited to other roles cannot be granted.",
  permission: 'system.roles',
  request: z.object({ role: z.enum(editableRoles), routes: z.array(text({ min: 1, max: 64 })).max(500) }).strict(),
  response: nothing,
});

/**
 * Every action the audit log records (the server's `audit()` takes only these): the console says
 * each as a sentence in the user's language, and its filter offers them by name. A row written by
 * an older release with another action is still answered (`action` is a string) and shown as is.
 */
export const auditActions = [
  'abnormalRule.update',
  'apiKey.create',
  'apiKey.revoke',
  'bill.adjust',
  'bill.issue',
  'bill.markPaid',
  'customer.create',
  'customer.update',
  'idCard.image',
  'notice.publish',
  'order.delete',
  'order.reweigh',
  'permit.read',
  'pickupCapacity.update',
  'rateCard.save',
  'role.update',
  'segment.create',
  'segment.retire',
  'staff.write',
  'user.create',
  'user.disable',
  'user.enable',
  'user.endSession',
  'user.endSessions',
  'user.resetPassword',
  'webhookDelivery.resend',
  'webhookEndpoint.create',
  'webhookEndpoint.delete',
  'webhookEndpoint.rotateSecret',
  'webhookEndpoint.update',
] as const;
export type AuditAction = (typeof auditActions)[number];

export const auditRow = z.object({
  id: z.number().int(),
  at: isoTime,
  userId: z.number().int().nullable(),
  userName: z.string(),
  action: z.string(),
  target: z.string(),
  detail: z.string(),
  ip: z.string(),
});
export type AuditRow = z.infer<typeof auditRow>;

export const auditListRequest = paging
  .extend({
    userName: text({ min: 1, max: 64 }).optional(),
    action: text({ min: 1, max: 64 }).optional(),
    target: text({ min: 1, max: 100 }).optional(),
    /** China days (UTC+8), both included. */
    dateFrom: chinaDay.optional(),
    dateTo: chinaDay.optional(),
  })
  .strict();
export type AuditListRequest = z.output<typeof auditListRequest>;

export const auditList = defineCall({
  path: 'admin/audit/list',
  summary: 'The audit log, newest first: filter by who, action, target and time.',
  permission: 'system.audit',
  request: auditListRequest,
  response: paged(auditRow),
});

export type CreateCustomerRequest = z.output<typeof createCustomer.request>;
export type UpdateCustomerRequest = z.output<typeof updateCustomer.request>;
export type CreateSegmentRequest = z.output<typeof createSegment.request>;
export type CreateUserRequest = z.output<typeof createUser.request>;
export type EditableRole = (typeof editableRoles)[number];

import type { Catalogue } from './catalogue.ts';

/** Messages of administration (issue 17) in both API languages (acting on oneself or a higher role: auth.messages.ts). */
export const adminMessages = {
  customerNotFound: { en: 'Customer not found.', 'zh-CN': '客户不存在。' },
  customerCodeTaken: { en: 'A customer with this code exists already.', 'zh-CN': '该客户代码已存在。' },
  agentNotAgent: { en: 'Choose a user whose role is agent.', 'zh-CN': '请选择角色为代理的用户。' },
  userNameTaken: { en: 'A user with this name exists already.', 'zh-CN': '该用户名已存在。' },
  customerUserNeedsCustomer: {
    en: 'A customer user belongs to a customer: choose one.',
    'zh-CN': '客户用户必须属于一个客户，请选择客户。',
  },
  onlyCustomerUsersHaveCustomer: {
    en: 'Only a customer user belongs to a customer.',
    'zh-CN': '只有客户用户才能属于客户。',
  },
  cannotCreateHigherRole: {
    en: 'You cannot create an account of a role above your own.',
    'zh-CN': '不能创建高于自己角色的账号。',
  },
  routeNotForRole: {
    en: 'The route {route} is not for this role.',
    'zh-CN': '路由 {route} 不适用于该角色。',
  },
  customerChannelUnknown: { en: 'No channel named {value}.', 'zh-CN': '没有名为 {value} 的渠道。' },
  customerChannelTwice: { en: 'Channel {value} is listed twice.', 'zh-CN': '渠道 {value} 重复。' },
  segmentNotFound: { en: 'Number segment not found.', 'zh-CN': '号段不存在。' },
  segmentPrefixS10: {
    en: 'An S10 prefix is two capital letters (such as EE).',
    'zh-CN': 'S10 号段前缀为两位大写字母（如 EE）。',
  },
  segmentSuffixS10: {
    en: 'An S10 suffix is two capital letters, the country (such as JP).',
    'zh-CN': 'S10 号段后缀为两位大写字母，即国家代码（如 JP）。',
  },
  segmentPrefixPlain: {
    en: 'A prefix is 1 to 10 capital letters or digits.',
    'zh-CN': '前缀为 1 至 10 位大写字母或数字。',
  },
  segmentSuffixPlain: {
    en: 'A suffix is up to 10 capital letters or digits.',
    'zh-CN': '后缀最多 10 位大写字母或数字。',
  },
  segmentSeqRange: { en: 'A sequence number is from 1 to {max}.', 'zh-CN': '序号须在 1 至 {max} 之间。' },
  segmentRangeOrder: {
    en: 'The last number must not be below the first.',
    'zh-CN': '结束序号不能小于起始序号。',
  },
  segmentOverlap: {
    en: 'This range meets segment {name} ({first}–{last}) of the same prefix and suffix: a number would be handed out twice.',
    'zh-CN': '该范围与前后缀相同的号段 {name}（{first}–{last}）重叠，会重复发放单号。',
  },
  staffPasswordAdminOnly: {
    en: "Only an administrator resets a staff member's password.",
    'zh-CN': '只有管理员可以重置员工账号的密码。',
  },
  routeUnknown: { en: 'No route named {route}.', 'zh-CN': '没有名为 {route} 的路由。' },
} as const satisfies Catalogue;

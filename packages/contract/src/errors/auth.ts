import type { Catalogue } from './catalogue.ts';

/** Messages of account management, in both API languages (sign-in messages are the core's). */
export const authMessages = {
  cannotActOnSelf: {
    en: 'You cannot disable your own account or end your own sessions here.',
    'zh-CN': '不能在此禁用自己的账号或结束自己的会话。',
  },
  sessionNotFound: {
    en: 'This session has already ended.',
    'zh-CN': '该会话已结束。',
  },
  cannotActOnHigherRole: {
    en: 'You cannot act on the account of a higher role.',
    'zh-CN': '不能操作更高角色的账号。',
  },
} as const satisfies Catalogue;

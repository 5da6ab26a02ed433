import type { Catalogue } from './catalogue.ts';

/** Messages of the recipient address book in both API languages (field checks reuse the order's). */
export const recipientsMessages = {
  recipientNotFound: { en: 'Recipient not found.', 'zh-CN': '收件人不存在。' },
} as const satisfies Catalogue;

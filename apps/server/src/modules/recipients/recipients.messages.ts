import { addMessages } from '../../lib/messages.ts';

/** Messages of the recipient address book in both API languages (field checks reuse the order's). */
addMessages({
  recipientNotFound: { en: 'Recipient not found.', 'zh-CN': '收件人不存在。' },
});

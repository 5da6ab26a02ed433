import { addMessages } from '../../lib/messages.ts';

/** Messages of the label PDFs, in both API languages. */
addMessages({
  labelsRefused: {
    en: '{count} of the orders cannot be printed: {first}',
    'zh-CN': '有 {count} 个订单不能打印：{first}',
  },
});

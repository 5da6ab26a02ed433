import type { Catalogue } from './catalogue.ts';

/** Messages of bills in both API languages. */
export const billsMessages = {
  billNotFound: { en: 'Bill not found.', 'zh-CN': '账单不存在。' },
  billNotOpen: { en: 'Only an open bill can be issued.', 'zh-CN': '只有未出账的账单可以出账。' },
  billNotIssued: { en: 'Only an issued bill can be marked paid.', 'zh-CN': '只有已出账的账单可以标记为已付款。' },
  billCurrencyUnknown: { en: 'Unknown currency.', 'zh-CN': '未知币种。' },
  billAmountDecimals: {
    en: 'This currency has {decimals} decimal place(s); the amount has more.',
    'zh-CN': '该币种只有 {decimals} 位小数，金额的小数位过多。',
  },
  billAmountZero: { en: 'An adjustment cannot be zero.', 'zh-CN': '调整金额不能为零。' },
  billOrderNotCustomers: { en: 'This order is not the customer’s.', 'zh-CN': '该订单不属于此客户。' },
  billChargeNotCustomers: { en: 'This charge is not the customer’s.', 'zh-CN': '该费用不属于此客户。' },
  rateCardChannelUnknown: { en: 'Unknown channel.', 'zh-CN': '未知渠道。' },
  rateCardCustomerUnknown: { en: 'Unknown customer.', 'zh-CN': '未知客户。' },
  rateCardBrackets: {
    en: 'Brackets must go up in weight, start above the first weight, and only the last may have no end.',
    'zh-CN': '续重区间必须按重量递增、从首重之后开始，且只有最后一个区间可以不设上限。',
  },
} as const satisfies Catalogue;

import type { Catalogue } from './catalogue.ts';

export const taxEstimateMessages = {
  itemNotRegistered_unknown: {
    en: 'JAN {jan} is not in the customer’s item catalogue.',
    'zh-CN': 'JAN {jan} 不在该客户的商品备案中。',
  },
  itemNotRegistered_pending: {
    en: 'JAN {jan} is still awaiting review in the item catalogue.',
    'zh-CN': 'JAN {jan} 的商品备案尚在审核中。',
  },
  itemNotRegistered_failed: {
    en: 'JAN {jan} failed review in the item catalogue.',
    'zh-CN': 'JAN {jan} 的商品备案未通过审核。',
  },
  itemMustBeRegistered_unknown: {
    en: 'This channel takes approved catalogue items only: JAN {jan} is not in the item catalogue.',
    'zh-CN': '该渠道只接受已备案通过的商品：JAN {jan} 不在商品备案中。',
  },
  itemMustBeRegistered_pending: {
    en: 'This channel takes approved catalogue items only: JAN {jan} is still awaiting review.',
    'zh-CN': '该渠道只接受已备案通过的商品：JAN {jan} 尚在审核中。',
  },
  itemMustBeRegistered_failed: {
    en: 'This channel takes approved catalogue items only: JAN {jan} failed review.',
    'zh-CN': '该渠道只接受已备案通过的商品：JAN {jan} 未通过审核。',
  },
  itemRegisteredJanRequired: {
    en: 'This channel takes approved catalogue items only: enter the item’s JAN.',
    'zh-CN': '该渠道只接受已备案通过的商品：请填写商品 JAN。',
  },
  yearlyLimitExceeded: {
    en: 'This order would take the recipient past the CNY {limit} yearly cross-border shopping limit.',
    'zh-CN': '该订单将使收件人超过跨境电商个人年度交易限值 {limit} 元。',
  },
} as const satisfies Catalogue;

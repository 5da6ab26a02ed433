import type { Catalogue } from './catalogue.ts';

/** Messages of the MDA downloads, in both API languages. */
export const mdaMessages = {
  mdaBatchNotFound: { en: 'Batch not found.', 'zh-CN': '批次不存在。' },
  mdaOrdersNotFound: {
    en: '{count} of the chosen orders were not found.',
    'zh-CN': '所选订单中有 {count} 个不存在。',
  },
  mdaBatchEmpty: { en: 'The batch has no orders.', 'zh-CN': '该批次没有订单。' },
} as const satisfies Catalogue;

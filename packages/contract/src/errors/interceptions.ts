import type { Catalogue } from './catalogue.ts';

/** Messages of order interception, in both API languages (refusals of a move are order-life's). */
export const interceptionsMessages = {
  interceptionNotFound: { en: 'Interception not found.', 'zh-CN': '拦截记录不存在。' },
  interceptionAlreadyCancelled: {
    en: 'This interception is already cancelled.',
    'zh-CN': '该拦截已取消。',
  },
  interceptNumberNotFound: { en: 'No order has this number.', 'zh-CN': '没有该号码的订单。' },
  interceptionCancelRefused: {
    en: 'The interception cannot be cancelled: {reason}',
    'zh-CN': '无法取消拦截：{reason}',
  },
} as const satisfies Catalogue;

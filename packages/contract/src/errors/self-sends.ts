import type { Catalogue } from './catalogue.ts';

/** Messages of self-sends in both API languages. */
export const selfSendsMessages = {
  selfSendTrackingDeclared: {
    en: 'Tracking number {trackingNo} is already declared.',
    'zh-CN': '快递单号 {trackingNo} 已经申报过。',
  },
  selfSendTrackingTwice: {
    en: 'Tracking number {trackingNo} is entered twice.',
    'zh-CN': '快递单号 {trackingNo} 重复输入。',
  },
  selfSendExpressNameRequired: {
    en: 'Name the express company.',
    'zh-CN': '请填写快递公司名称。',
  },
} as const satisfies Catalogue;

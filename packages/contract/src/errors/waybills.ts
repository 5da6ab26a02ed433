import type { Catalogue } from './catalogue.ts';

export const waybillsMessages = {
  waybillSegmentExhausted: {
    en: 'No waybill numbers are left for channel {channel}. Please contact customer service.',
    'zh-CN': '渠道 {channel} 的运单号段已用完，请联系客服。',
  },
  segmentNotUsable: { en: 'This number segment cannot be used for the channel.', 'zh-CN': '该号段不能用于此渠道。' },
  segmentExhausted: {
    en: 'No numbers are left in this number segment; choose another one.',
    'zh-CN': '该号段已无可用单号，请选择其他号段。',
  },
} as const satisfies Catalogue;

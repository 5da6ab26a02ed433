import type { Catalogue } from './catalogue.ts';

/** Messages of the label PDFs, in both API languages. */
export const labelsMessages = {
  labelsRefused: {
    en: '{count} of the orders cannot be printed: {first}',
    'zh-CN': '有 {count} 个订单不能打印：{first}',
  },
  printJobNotFound: { en: 'Print job not found.', 'zh-CN': '打印任务不存在。' },
  printJobFailed: {
    en: 'The labels could not be drawn; the orders printed are counted. Please print again.',
    'zh-CN': '面单生成失败，已打印的订单已计数，请重新打印。',
  },
  printJobInterrupted: {
    en: 'The print job was stopped before its labels were drawn. Please print again.',
    'zh-CN': '打印任务在面单生成前中断，请重新打印。',
  },
  fileNotFound: { en: 'File not found.', 'zh-CN': '文件不存在。' },
} as const satisfies Catalogue;

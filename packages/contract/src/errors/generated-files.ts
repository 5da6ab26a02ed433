import type { Catalogue } from './catalogue.ts';

export const generatedFilesMessages = {
  fileExpired: {
    en: 'This file has expired: files made for download are kept for {days} day(s). Make it again.',
    'zh-CN': '该文件已过期：生成的下载文件只保留 {days} 天，请重新生成。',
  },
} as const satisfies Catalogue;

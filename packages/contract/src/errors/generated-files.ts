import type { Catalogue } from './catalogue.ts';

/** The files module's messages: downloads of expired files, and the file store's failures. */
export const generatedFilesMessages = {
  fileStoreUnavailable: {
    en: 'The file store cannot be reached right now; nothing was changed. Please try again in a moment, or tell the administrator if it goes on.',
    'zh-CN': '文件存储暂时无法访问，未做任何更改。请稍后重试；如持续出现，请联系管理员。',
  },
  fileExpired: {
    en: 'This file has expired: files made for download are kept for {days} day(s). Make it again.',
    'zh-CN': '该文件已过期：生成的下载文件只保留 {days} 天，请重新生成。',
  },
} as const satisfies Catalogue;

import type { Catalogue } from './catalogue.ts';

/** The files module's messages: downloads of expired files, and the file store's failures. */
export const generatedFilesMessages = {
  storageQuotaExceeded: {
    en: "This customer's files already take {used} MB of the {limit} MB they may keep, and this file ({file} MB) does not fit; nothing was saved. Room comes back as kept files reach the end of their retention; the administrator can allow more.",
    'zh-CN':
      '该客户已保存的文件占用 {used} MB（上限 {limit} MB），放不下此文件（{file} MB），未保存任何内容。已保存的文件保留期满后会释放空间；如需更多空间，请联系管理员。',
  },
  fileStoreUnavailable: {
    en: 'The file store cannot be reached right now; nothing was changed. Please try again in a moment, or tell the administrator if it goes on.',
    'zh-CN': '文件存储暂时无法访问，未做任何更改。请稍后重试；如持续出现，请联系管理员。',
  },
  renderInputRefused: {
    en: "This file could not be made: its work order failed the server's integrity check (it was changed or damaged in the file store), so nothing was run. Please try again, and tell the administrator if it happens again.",
    'zh-CN':
      '无法生成此文件：其生成任务未通过服务器的完整性校验（在文件存储中被改动或损坏），因此未执行任何操作。请重试；如再次出现，请联系管理员。',
  },
  fileExpired: {
    en: 'This file has expired: files made for download are kept for {days} day(s). Make it again.',
    'zh-CN': '该文件已过期：生成的下载文件只保留 {days} 天，请重新生成。',
  },
  downloadNotReady: {
    en: 'This file is still being made. Please wait until its progress says it is ready.',
    'zh-CN': '该文件仍在生成中，请等进度显示完成后再下载。',
  },
  downloadInterrupted: {
    en: 'The server restarted while preparing this file, so it was not made. Please download it again.',
    'zh-CN': '准备此文件时服务器重启了，文件未生成。请重新下载。',
  },
} as const satisfies Catalogue;

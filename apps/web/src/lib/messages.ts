/** Strings used by lib/ itself (HTTP client, session). Frame strings live in app/i18n.ts. */
import { registerMessages } from './i18n.ts';

registerMessages('common', {
  'zh-chs': {
    ok: '确定',
    cancel: '取消',
    confirm: '确认',
    close: '关闭',
    reload: '重新加载',
    loading: '加载中…',
    search: '搜索',
    reset: '重置',
    export: '导出',
    clear: '清空',
    all: '全部',
    empty: '暂无数据',
    more: '更多',
    save: '保存',
    customer: '客户',
    totalBefore: '共 ',
    totalAfter: ' 条',
  },
  en: {
    ok: 'OK',
    cancel: 'Cancel',
    confirm: 'Confirm',
    close: 'Close',
    reload: 'Reload',
    loading: 'Loading…',
    search: 'Search',
    reset: 'Reset',
    export: 'Export',
    clear: 'Clear',
    all: 'All',
    empty: 'No data',
    more: 'More',
    save: 'Save',
    customer: 'Customer',
    totalBefore: 'Total: ',
    totalAfter: '',
  },
  ja: { ok: 'OK', cancel: 'キャンセル', confirm: '確認', close: '閉じる', reload: '再読み込み', search: '検索' },
  'zh-cht': { ok: '確定', cancel: '取消', confirm: '確認', close: '關閉', reload: '重新載入', search: '搜尋' },
});

registerMessages('http', {
  'zh-chs': {
    sessionEndedTitle: '登录状态已失效',
    errorNumber: '错误编号',
    teamWillHandle: '我们的团队会尽快处理。',
    timeout: '请求超时（{ms} 毫秒）',
    timeoutTitle: '请求超时',
    unreachableTitle: '无法连接服务器',
    retry: '重试',
    unreachable: '请检查网络连接后重试。如果问题持续，请联系管理员。',
    unexpectedTitle: '出现意外错误',
    unexpected: '页面遇到了意外错误，请刷新后重试。如果问题持续，请联系管理员。',
  },
  en: {
    sessionEndedTitle: 'Your session has ended',
    errorNumber: 'ErrorNumber',
    teamWillHandle: 'the team will handle it as soon as possible.',
    timeout: 'timeout of {ms}ms exceeded',
    timeoutTitle: 'Request timed out',
    unreachableTitle: 'Cannot reach the server',
    retry: 'Try again',
    unreachable: 'Check your network connection and try again. If it keeps happening, contact your administrator.',
    unexpectedTitle: 'Something went wrong',
    unexpected:
      'The page met an unexpected error: reload it and try again. If it keeps happening, contact your administrator.',
  },
  ja: { errorNumber: 'エラー番号' },
  'zh-cht': { errorNumber: '錯誤編號', teamWillHandle: '我們的團隊會盡快處理。' },
});

registerMessages('session', {
  'zh-chs': { verificationFailed: '验证失败，请重新登录。', hasError: 'Has Error' },
  en: { verificationFailed: 'Verification failed, please Login again.', hasError: 'Has Error' },
});

/** Spec §8's labels for what failed where the user acted (copy buttons, forms, uploads). */
registerMessages('feedback', {
  'zh-chs': {
    copy: '复制',
    copied: '已复制',
    copyFailed: '复制失败',
    formInvalid: '表单校验失败，请检查',
    uploadFailed: '上传失败：{reason}',
  },
  en: {
    copy: 'Copy',
    copied: 'Copied',
    copyFailed: 'Copy failed',
    formInvalid: 'Form verification failed, please check',
    uploadFailed: 'Upload failed: {reason}',
  },
});

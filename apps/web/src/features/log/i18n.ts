import { registerMessages } from '@/lib/i18n.ts';

registerMessages('log', {
  'zh-chs': {
    title: '前端日志',
    keyword: '筛选信息、页面或用户',
    type: '类型',
    types: { error: '脚本错误', rejection: '未处理的 Promise', render: '渲染错误', call: '请求失败' },
    columns: { time: '时间', type: '类型', message: '信息', page: '页面', user: '用户' },
    clear: '清空日志',
    clearConfirm: '确定清空所有前端日志吗？',
    export: '导出',
    count: '共 {count} 条',
  },
  en: {
    title: 'Frontend log',
    keyword: 'Filter by message, page or user',
    type: 'Type',
    types: { error: 'Script error', rejection: 'Unhandled rejection', render: 'Render error', call: 'Failed call' },
    columns: { time: 'Time', type: 'Type', message: 'Message', page: 'Page', user: 'User' },
    clear: 'Clear log',
    clearConfirm: 'Clear every frontend log entry?',
    export: 'Export',
    count: '{count} entries',
  },
  'zh-cht': { title: '前端日誌', clear: '清空日誌', export: '匯出' },
});

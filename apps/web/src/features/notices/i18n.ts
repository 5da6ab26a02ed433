import { registerMessages } from '@/lib/i18n.ts';

registerMessages('notices', {
  'zh-chs': {
    title: '系统公告',
    keyword: '搜索公告标题或内容',
    onlyUnread: '只看未读',
    columns: { title: '标题', publishedAt: '发布时间', state: '状态' },
    read: '已读',
    unread: '未读',
    agreed: '已同意',
    mustAgree: '需同意',
    agree: '我已阅读并同意',
    total: '共 {total} 条',
  },
  en: {
    title: 'System announcements',
    keyword: 'Search titles or content',
    onlyUnread: 'Unread only',
    columns: { title: 'Title', publishedAt: 'Published', state: 'State' },
    read: 'Read',
    unread: 'Unread',
    agreed: 'Agreed',
    mustAgree: 'Must agree',
    agree: 'I have read and agree',
    total: '{total} in total',
  },
  'zh-cht': { title: '系統公告', read: '已讀', unread: '未讀' },
});

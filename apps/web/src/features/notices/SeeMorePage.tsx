/** /seeMore: the system announcements, searchable, with reading and agreeing. */
import { notifications, type CallResponse } from '@console/contract';
import { Button, Card, Checkbox, Input, Modal, Space, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PagedTable, useFilterText, usePagedQuery } from '@/components/paged-table';
import { formatTime, invalidateCall, useI18n } from '@/lib';
import { useNoticeAgree } from './api/noticeAgree.ts';
import { useNotificationInfo } from './api/notificationInfo.ts';
import './i18n.ts';

type Notice = CallResponse<typeof notifications.notifications>['list'][number];
/** A keyword searches (every notice); without one the list may be narrowed to unread ones. */
type Filters = { keyword?: string; unread?: boolean };

export default function SeeMorePage() {
  const { t, localized } = useI18n();
  const [params] = useSearchParams();
  // The keyword picks the call, so it is read from the address before the list is.
  const keyword = params.get('keyword')?.trim() ?? '';
  const [openId, setOpenId] = useState<number | null>(() => Number(params.get('id')) || null);
  const paged = usePagedQuery<typeof notifications.notifications, Filters>(
    keyword
      ? (notifications.searchNotifications as unknown as typeof notifications.notifications)
      : notifications.notifications,
  );
  const unread = Boolean(paged.state.filters.unread);
  const [text, setText] = useFilterText(keyword || undefined);
  const filter = (next: { keyword: string; unread: boolean }) =>
    paged.setFilters(next.keyword ? { keyword: next.keyword } : { unread: next.unread || undefined });
  const info = useNotificationInfo(openId);
  const agree = useNoticeAgree();

  useEffect(() => {
    // Opening a notice marks it read: refresh the list's read flags.
    if (info.data) void invalidateCall(notifications.notifications);
  }, [info.data]);

  return (
    <Card title={t('notices.title')} data-testid="see-more">
      <Space className="toolbar" wrap>
        <Input.Search
          allowClear
          placeholder={t('notices.keyword')}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onSearch={(v) => filter({ keyword: v.trim(), unread })}
          style={{ width: 280 }}
          data-testid="notices-search"
        />
        <Checkbox
          checked={unread}
          disabled={!!keyword}
          onChange={(e) => filter({ keyword, unread: e.target.checked })}
          data-testid="notices-unread"
        >
          {t('notices.onlyUnread')}
        </Checkbox>
      </Space>
      <PagedTable<Notice>
        rowKey="id"
        paged={paged}
        data-testid="notices-table"
        showTotal={(total) => t('notices.total', { total })}
        columns={[
          {
            title: t('notices.columns.title'),
            key: 'title',
            render: (_, n) => (
              <Button type="link" onClick={() => setOpenId(n.id)} data-testid={`notice-${n.id}`}>
                {localized(n.title)}
              </Button>
            ),
          },
          {
            title: t('notices.columns.publishedAt'),
            key: 'at',
            render: (_, n) => formatTime(n.publishedAt),
            width: 200,
          },
          {
            title: t('notices.columns.state'),
            key: 'state',
            width: 220,
            render: (_, n) => (
              <Space>
                <Tag color={n.read ? 'default' : 'red'}>{n.read ? t('notices.read') : t('notices.unread')}</Tag>
                {n.mustAgree && (
                  <Tag color={n.agreed ? 'green' : 'orange'}>
                    {n.agreed ? t('notices.agreed') : t('notices.mustAgree')}
                  </Tag>
                )}
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={openId !== null}
        title={info.data ? localized(info.data.title) : ''}
        onCancel={() => setOpenId(null)}
        loading={info.isPending}
        footer={
          info.data?.mustAgree && !info.data.agreed ? (
            <Button
              type="primary"
              data-testid="notice-agree"
              loading={agree.isPending}
              onClick={() => agree.mutate({ id: info.data.id }, { onSuccess: () => setOpenId(null) })}
            >
              {t('notices.agree')}
            </Button>
          ) : (
            <Button onClick={() => setOpenId(null)}>{t('common.close')}</Button>
          )
        }
      >
        {info.data && (
          <>
            <p className="notice-meta">{formatTime(info.data.publishedAt)}</p>
            <div className="notice-content">{localized(info.data.content)}</div>
          </>
        )}
      </Modal>
    </Card>
  );
}

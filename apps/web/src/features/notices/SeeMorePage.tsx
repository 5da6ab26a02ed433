/** /seeMore: the system announcements, searchable, with reading and agreeing. */
import { notifications } from '@console/contract';
import { Button, Card, Checkbox, Input, Modal, Space, Table, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { formatTime, invalidateCall, useI18n } from '@/lib';
import { useNoticeAgree } from './api/noticeAgree.ts';
import { useNotificationInfo } from './api/notificationInfo.ts';
import { useNotifications } from './api/notifications.ts';
import { useSearchNotifications } from './api/searchNotifications.ts';
import './i18n.ts';

const PAGE = 20;

export default function SeeMorePage() {
  const { t, localized } = useI18n();
  const [params] = useSearchParams();
  const [page, setPage] = useState(1);
  const [unread, setUnread] = useState(false);
  const [keyword, setKeyword] = useState('');
  const [openId, setOpenId] = useState<number | null>(() => Number(params.get('id')) || null);
  const paging = { offset: (page - 1) * PAGE, limit: PAGE, order: 'desc' as const };
  const list = useNotifications({ ...paging, unread: unread || undefined });
  const search = useSearchNotifications({ ...paging, keyword }, keyword.length > 0);
  const data = keyword ? search.data : list.data;
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
          onSearch={(v) => {
            setKeyword(v.trim());
            setPage(1);
          }}
          style={{ width: 280 }}
        />
        <Checkbox
          checked={unread}
          onChange={(e) => {
            setUnread(e.target.checked);
            setPage(1);
          }}
        >
          {t('notices.onlyUnread')}
        </Checkbox>
      </Space>
      <Table
        rowKey="id"
        loading={keyword ? search.isFetching : list.isFetching}
        dataSource={data?.list ?? []}
        pagination={{
          current: page,
          pageSize: PAGE,
          total: data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (total) => t('notices.total', { total }),
          onChange: setPage,
        }}
        columns={[
          {
            title: t('notices.columns.title'),
            key: 'title',
            render: (_, n) => (
              <Button type="link" onClick={() => setOpenId(n.id)}>
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

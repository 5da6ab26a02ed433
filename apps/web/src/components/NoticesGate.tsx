/**
 * Spec §5: unread notices that must be read and agreed are shown before an ordering page
 * can be used. The server also refuses ordering calls with 428 until then; the client turns
 * that answer into a re-check, so this gate appears again.
 */
import { notifications, type CallResponse } from '@console/contract';
import { Button, Card, List, Modal, Space, Spin, Tag, Typography } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { sessionEvents } from '@/lib/events.ts';
import { call } from '@/lib/http.ts';
import { useI18n } from '@/lib/i18n.ts';
import { invalidateCall, useCall } from '@/lib/query.ts';
import { formatTime } from '@/lib/time.ts';

type Detail = CallResponse<typeof notifications.notificationInfo>;

export function useNoticesRecheck() {
  useEffect(
    () =>
      sessionEvents.on((e) => {
        if (e.type === 'notices') void invalidateCall(notifications.noticeCheck);
      }),
    [],
  );
}

export function NoticesGate({ children }: { children: ReactNode }) {
  const { t, localized } = useI18n();
  const check = useCall(notifications.noticeCheck, {}, { staleTime: 0 });
  const [open, setOpen] = useState<Detail | null>(null);
  const [busy, setBusy] = useState(false);
  useNoticesRecheck();

  if (check.isPending) return <Spin className="page-spin" />;
  if (!check.data?.blocking) return children;

  const read = async (id: number) => {
    setBusy(true);
    try {
      setOpen(await call(notifications.notificationInfo, { id }));
      await invalidateCall(notifications.noticeCheck);
    } finally {
      setBusy(false);
    }
  };
  const agree = async () => {
    if (!open) return;
    setBusy(true);
    try {
      await call(notifications.noticeAgree, { id: open.id });
      setOpen(null);
      await invalidateCall(notifications.noticeCheck);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title={t('frame.notices.title')} data-testid="notices-gate">
      <Typography.Paragraph type="secondary">{t('frame.notices.intro')}</Typography.Paragraph>
      <List
        dataSource={check.data.notices}
        renderItem={(n) => (
          <List.Item
            actions={[
              <Button key="read" type="link" loading={busy} onClick={() => void read(n.id)}>
                {t('frame.notices.read')}
              </Button>,
            ]}
          >
            <List.Item.Meta
              title={
                <Space>
                  {localized(n.title)}
                  {!n.read && <Tag color="red">{t('frame.notices.unread')}</Tag>}
                  {n.mustAgree && !n.agreed && <Tag color="orange">{t('frame.notices.mustAgree')}</Tag>}
                  {n.agreed && <Tag color="green">{t('frame.notices.agreed')}</Tag>}
                </Space>
              }
              description={formatTime(n.publishedAt)}
            />
          </List.Item>
        )}
      />
      <Modal
        open={open !== null}
        title={open ? localized(open.title) : ''}
        onCancel={() => setOpen(null)}
        footer={
          open?.mustAgree && !open.agreed ? (
            <Button type="primary" loading={busy} onClick={() => void agree()}>
              {t('frame.notices.agree')}
            </Button>
          ) : (
            <Button onClick={() => setOpen(null)}>{t('common.close')}</Button>
          )
        }
      >
        <div className="notice-content">{open ? localized(open.content) : ''}</div>
      </Modal>
    </Card>
  );
}

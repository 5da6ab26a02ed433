import { Alert, Button, Card, ConfigProvider, Empty, Input, Space, Tag, Timeline, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { ApiError, t, useI18n } from '@/lib';
import { track } from './api/orders.ts';
import { eventLine } from './components/event-line.ts';
import './i18n.ts';

/** Public tracking page (no login): opened by the header's logistics-trajectory button in a new window. */
export default function TrackingPage() {
  useI18n();
  const [text, setText] = useState(() => new URLSearchParams(location.search).get('no') ?? '');
  const [result, setResult] = useState<Awaited<ReturnType<typeof track>> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async (numbers = text) => {
    setError(null);
    try {
      setResult(await track(numbers));
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    }
  };
  // Opened with `?no=` (the trajectory button, a shared link): show the result at once.
  const searchedOnLoad = useRef(false);
  useEffect(() => {
    if (searchedOnLoad.current || !text.trim()) return;
    searchedOnLoad.current = true;
    void run(text);
    // Only the number the page was opened with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <ConfigProvider theme={{ token: { colorPrimary: '#F08633' } }}>
      <div style={{ maxWidth: 860, margin: '24px auto', padding: 16 }}>
        <Typography.Title level={3}>{t('orders.trackingTitle')}</Typography.Title>
        <Space direction="vertical" style={{ width: '100%' }}>
          <Input.TextArea
            rows={4}
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder={t('orders.trackingHint')}
            data-testid="tracking-input"
          />
          <Button type="primary" onClick={() => void run()} disabled={!text.trim()} data-testid="tracking-run">
            {t('orders.search')}
          </Button>
          {error && <Alert type="error" message={error} />}
          {result?.map((r) => (
            <Card
              key={r.waybillNo}
              size="small"
              title={r.waybillNo}
              data-testid={`tracking-${r.waybillNo}`}
              extra={
                r.found ? (
                  <Space>
                    <Tag>{r.channel}</Tag>
                    <Tag color="blue">{t(`orders.kinds.${r.status}`)}</Tag>
                    <span>{r.recipientName}</span>
                  </Space>
                ) : (
                  <Tag color="red">{t('orders.notFound')}</Tag>
                )
              }
            >
              {r.found ? (
                <Timeline
                  items={[...r.events].reverse().map((e) => ({
                    children: eventLine(e),
                  }))}
                />
              ) : (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('orders.trackingNotFound')} />
              )}
            </Card>
          ))}
        </Space>
      </div>
    </ConfigProvider>
  );
}

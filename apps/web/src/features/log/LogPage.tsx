/** Frontend log (route `log`): view, filter, clear, export what lib/log.ts captured. */
import { App, Button, Card, Input, Popconfirm, Select, Space, Table, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { formatTime, useI18n } from '@/lib';
import { clearLog, useLog, type LogType } from '@/lib/log.ts';
import './i18n.ts';

const types: LogType[] = ['error', 'rejection', 'render', 'call'];
const colors: Record<LogType, string> = { error: 'red', rejection: 'volcano', render: 'magenta', call: 'orange' };

export default function LogPage() {
  const { t } = useI18n();
  const { message } = App.useApp();
  const entries = useLog();
  const [type, setType] = useState<LogType | 'all'>('all');
  const [keyword, setKeyword] = useState('');
  const shown = useMemo(() => {
    const k = keyword.trim().toLowerCase();
    return entries.filter(
      (e) =>
        (type === 'all' || e.type === type) &&
        (!k || `${e.message} ${e.page} ${e.user} ${e.detail ?? ''}`.toLowerCase().includes(k)),
    );
  }, [entries, type, keyword]);

  const exportJson = () => {
    const blob = new Blob([JSON.stringify(shown, null, 2)], { type: 'application/json' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `frontend-log-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, '')}.json`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  };

  return (
    <Card title={t('log.title')} data-testid="log-page">
      <Space className="toolbar" wrap>
        <Select
          value={type}
          onChange={setType}
          style={{ width: 200 }}
          aria-label={t('log.type')}
          options={[
            { value: 'all', label: t('common.all') },
            ...types.map((x) => ({ value: x, label: t(`log.types.${x}`) })),
          ]}
        />
        <Input
          allowClear
          placeholder={t('log.keyword')}
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          style={{ width: 280 }}
        />
        <Button onClick={exportJson} disabled={shown.length === 0}>
          {t('log.export')}
        </Button>
        <Popconfirm
          title={t('log.clearConfirm')}
          okText={t('common.ok')}
          cancelText={t('common.cancel')}
          onConfirm={() => {
            clearLog();
            void message.success(t('log.clear'));
          }}
        >
          <Button danger disabled={entries.length === 0}>
            {t('log.clear')}
          </Button>
        </Popconfirm>
        <Typography.Text type="secondary">{t('log.count', { count: shown.length })}</Typography.Text>
      </Space>
      <Table
        rowKey="id"
        size="small"
        dataSource={shown}
        pagination={{ pageSize: 20, showSizeChanger: false }}
        expandable={{
          rowExpandable: (e) => Boolean(e.detail),
          expandedRowRender: (e) => <pre className="log-detail">{e.detail}</pre>,
        }}
        columns={[
          { title: t('log.columns.time'), key: 'time', width: 180, render: (_, e) => formatTime(e.time) },
          {
            title: t('log.columns.type'),
            key: 'type',
            width: 150,
            render: (_, e) => <Tag color={colors[e.type]}>{t(`log.types.${e.type}`)}</Tag>,
          },
          { title: t('log.columns.message'), dataIndex: 'message', ellipsis: true },
          { title: t('log.columns.page'), dataIndex: 'page', width: 200, ellipsis: true },
          { title: t('log.columns.user'), dataIndex: 'user', width: 120 },
        ]}
      />
    </Card>
  );
}

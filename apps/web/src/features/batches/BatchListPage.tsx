import type { batches } from '@console/contract';
import { App, Button, DatePicker, Dropdown, Form, Input, Popconfirm, Progress, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { formatTime, invalidateCall, t, useI18n } from '@/lib';
import { batches as calls } from '@console/contract';
import {
  type BatchFilters,
  deleteBatch,
  downloadBatchExcel,
  downloadByTime,
  downloadErrors,
  useBatches,
} from './api/batches.ts';
import './i18n.ts';

const STATUS_COLOR: Record<string, string> = {
  parsing: 'processing',
  committing: 'processing',
  preview: 'warning',
  done: 'success',
  failed: 'error',
};

/** "Batch List": filters, progress of running batches, downloads, delete with confirmation. */
export default function BatchListPage() {
  useI18n();
  const { message } = App.useApp();
  const [filters, setFilters] = useState<BatchFilters>({ offset: 0, limit: 20, order: 'desc' });
  const [form] = Form.useForm();
  const list = useBatches(filters, false);
  const anyRunning = list.data?.list.some((b) => b.status === 'parsing' || b.status === 'committing');
  const live = useBatches(filters, anyRunning ? 1000 : false);
  const data = live.data ?? list.data;

  const search = (v: {
    batchNo?: string;
    channel?: string;
    status?: string;
    range?: [{ format(f: string): string }, { format(f: string): string }];
  }) =>
    setFilters({
      offset: 0,
      limit: filters.limit,
      order: 'desc',
      batchNo: v.batchNo || undefined,
      channel: (v.channel || undefined) as never,
      status: (v.status || undefined) as never,
      from: v.range?.[0].format('YYYY-MM-DD'),
      to: v.range?.[1].format('YYYY-MM-DD'),
    });

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Form form={form} layout="inline" onFinish={search}>
        <Form.Item name="batchNo" label={t('batches.batchNo')}>
          <Input allowClear data-testid="filter-batchNo" />
        </Form.Item>
        <Form.Item name="channel" label={t('batches.channel')}>
          <Select
            allowClear
            style={{ width: 110 }}
            options={['JP', 'USA', 'EMS', 'SG', 'AU', 'UK', 'PH', 'TH', 'USD'].map((c) => ({ value: c, label: c }))}
          />
        </Form.Item>
        <Form.Item name="status" label={t('batches.status')}>
          <Select
            allowClear
            style={{ width: 130 }}
            options={['parsing', 'preview', 'committing', 'done', 'failed'].map((s) => ({
              value: s,
              label: t(`batches.statuses.${s}`),
            }))}
          />
        </Form.Item>
        <Form.Item name="range">
          <DatePicker.RangePicker />
        </Form.Item>
        <Button type="primary" htmlType="submit">
          {t('batches.search')}
        </Button>
        <Button onClick={() => (form.resetFields(), search({}))}>{t('batches.reset')}</Button>
        <Dropdown
          menu={{
            items: (['lastWeek', 'lastMonth', 'lastThreeMonths'] as const).map((p) => ({
              key: p,
              label: t(`batches.${p}`),
            })),
            onClick: ({ key }) => downloadByTime(key as 'lastWeek'),
          }}
        >
          <Button>{t('batches.byTime')}</Button>
        </Dropdown>
      </Form>
      <Table<batches.BatchRow>
        rowKey="id"
        loading={list.isLoading}
        dataSource={data?.list ?? []}
        data-testid="batch-table"
        pagination={{
          total: data?.total ?? 0,
          current: Math.floor(filters.offset / filters.limit) + 1,
          pageSize: filters.limit,
          onChange: (page, size) => setFilters({ ...filters, offset: (page - 1) * size, limit: size }),
        }}
        columns={[
          { title: t('batches.batchNo'), dataIndex: 'batchNo' },
          { title: t('batches.channel'), dataIndex: 'channel', width: 80 },
          { title: t('batches.exportNomination'), render: (_, b) => b.exportNomination?.name ?? '—' },
          {
            title: t('batches.status'),
            render: (_, b) => <Tag color={STATUS_COLOR[b.status]}>{t(`batches.statuses.${b.status}`)}</Tag>,
          },
          {
            title: t('batches.progress'),
            width: 160,
            render: (_, b) => (
              <Progress percent={b.progress} size="small" status={b.status === 'failed' ? 'exception' : undefined} />
            ),
          },
          { title: t('batches.rows'), dataIndex: 'totalRows', width: 80 },
          { title: t('batches.orders'), dataIndex: 'orderCount', width: 80 },
          { title: t('batches.createdAt'), render: (_, b) => formatTime(b.createdAt) },
          {
            title: t('batches.actions'),
            render: (_, b) => (
              <Space>
                {b.status === 'done' && (
                  <Button size="small" onClick={() => downloadBatchExcel(b.id)}>
                    {t('batches.excel')}
                  </Button>
                )}
                {b.hasErrorWorkbook && (
                  <Button size="small" onClick={() => downloadErrors(b.id)}>
                    {t('batches.errorWorkbook')}
                  </Button>
                )}
                <Popconfirm
                  title={t('batches.deleteConfirm')}
                  onConfirm={async () => {
                    await deleteBatch(b.id);
                    message.success(t('batches.deleted'));
                    await invalidateCall(calls.batches);
                  }}
                >
                  <Button size="small" danger disabled={b.status === 'parsing' || b.status === 'committing'}>
                    {t('batches.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
    </Space>
  );
}

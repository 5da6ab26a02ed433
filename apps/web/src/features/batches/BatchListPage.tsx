import { batches as calls, type batches } from '@console/contract';
import { App, Button, DatePicker, Dropdown, Input, Popconfirm, Progress, Select, Space, Tag, Typography } from 'antd';
import { Form } from '@/components/form.tsx';
import { useState } from 'react';
import { Link } from 'react-router';
import { useDownloadProgress } from '@/components/download-progress.tsx';
import { MdaBatchMenu } from '@/components/mda-downloads.tsx';
import { attempt } from '@/components/mutation.ts';
import { PagedTable, useFilterForm, useFilterText, usePagedQuery } from '@/components/paged-table';
import { formatTime, invalidateCall, t, useI18n, useSession } from '@/lib';
import {
  type BatchFilters,
  deleteBatch,
  downloadBatchExcel,
  downloadByTime,
  downloadErrors,
  ordersOfBatch,
  previewPageOf,
} from './api/batches.ts';
import { BatchOrdersDrawer } from './components/BatchOrdersDrawer.tsx';
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
  const download = useDownloadProgress();
  const [form] = Form.useForm();
  // Agents and operators see several customers' batches: whose each one is.
  const { user } = useSession();
  const isCustomer = (user?.roles ?? []).includes('customer');
  // Live progress: while a batch of the page parses or commits, the page is read every second.
  const paged = usePagedQuery<typeof calls.batches, BatchFilters>(calls.batches, {
    query: {
      refetchInterval: (q) =>
        q.state.data?.list.some((b) => b.status === 'parsing' || b.status === 'committing') ? 1000 : false,
    },
  });

  useFilterForm(form, paged.filters);

  // Finding a batch by a number it holds (order/batch/search): its own paged answer, shown in
  // place of the filtered list until cleared.
  const found = usePagedQuery<typeof calls.search, { keyword?: string }>(calls.search, {
    url: { prefix: 'find' },
    // Asked only with a number to find (the address holds it after a reload too).
    query: { enabled: (q) => Boolean((q.queryKey[1] as { keyword?: string } | undefined)?.keyword) },
  });
  const keyword = found.state.filters.keyword;
  const [findText, setFindText] = useFilterText(keyword);
  const findByNumber = (k: string) => found.setFilters({ keyword: k.trim() || undefined });
  const [viewing, setViewing] = useState<{ id: number; batchNo: string } | null>(null);

  const search = (v: {
    batchNo?: string;
    channel?: string;
    status?: string;
    range?: [{ format(f: string): string }, { format(f: string): string }];
  }) =>
    paged.setFilters({
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
        <Button type="primary" htmlType="submit" data-testid="batch-search">
          {t('batches.search')}
        </Button>
        <Button onClick={() => (form.resetFields(), search({}))} data-testid="batch-reset">
          {t('batches.reset')}
        </Button>
        <Dropdown
          menu={{
            items: (['lastWeek', 'lastMonth', 'lastThreeMonths'] as const).map((p) => ({
              key: p,
              label: t(`batches.${p}`),
            })),
            onClick: ({ key }) =>
              void attempt(message, () => download.run((id) => downloadByTime(key as 'lastWeek', id))),
          }}
        >
          <Button data-testid="batch-by-time" loading={download.busy}>
            {t('batches.byTime')}
          </Button>
        </Dropdown>
      </Form>
      <Space wrap>
        <Input.Search
          allowClear
          style={{ width: 480 }}
          addonBefore={t('batches.findByNumber')}
          placeholder={t('batches.findByNumberHint')}
          maxLength={64}
          value={findText}
          onChange={(e) => setFindText(e.target.value)}
          onSearch={findByNumber}
          data-testid="batch-find"
        />
        {keyword && (
          <Typography.Text type="secondary" data-testid="batch-found-title">
            {t('batches.foundBatches', { keyword })}
          </Typography.Text>
        )}
      </Space>
      {download.panel}
      <BatchOrdersDrawer batch={viewing} onClose={() => setViewing(null)} />
      <PagedTable<batches.BatchRow>
        rowKey="id"
        paged={keyword ? (found as unknown as typeof paged) : paged}
        // Not the spinner every second while progress is polled, only on the first load.
        loading={paged.query.isLoading}
        data-testid="batch-table"
        // The actions need their width; a narrow window scrolls rather than stacking the headers.
        scroll={{ x: 'max-content' }}
        columns={[
          {
            title: t('batches.batchNo'),
            // A batch that made orders links to them: Order List filtered by its number.
            render: (_, b) =>
              b.status === 'done' && b.orderCount > 0 ? (
                <Link to={ordersOfBatch(b.batchNo)} data-testid={`batch-orders-${b.batchNo}`}>
                  {b.batchNo}
                </Link>
              ) : (
                b.batchNo
              ),
          },
          {
            // Next to the number, where a user looks first: with the customer, nomination and a
            // failure's reason the table is wider than 1440 px, and a status further right sat
            // under the fixed 操作 column (issue 36 #23; seen with the suite's data).
            title: t('batches.status'),
            render: (_, b) => (
              <Space direction="vertical" size={0}>
                <Tag color={STATUS_COLOR[b.status]}>{t(`batches.statuses.${b.status}`)}</Tag>
                {/* Why it failed (an expired preview says so), whole on hover. */}
                {b.status === 'failed' && b.errorMessage && (
                  <Typography.Text
                    type="secondary"
                    ellipsis={{ tooltip: b.errorMessage }}
                    style={{ maxWidth: 240 }}
                    data-testid={`batch-reason-${b.batchNo}`}
                  >
                    {b.errorMessage}
                  </Typography.Text>
                )}
                {/* An unconfirmed preview expires (PREVIEW_TTL_MINUTES): say until when, and reopen it. */}
                {b.previewUntil && (
                  <span data-testid={`batch-preview-until-${b.batchNo}`}>
                    {t('batches.previewExpires', { time: formatTime(b.previewUntil) })}
                  </span>
                )}
              </Space>
            ),
          },
          ...(isCustomer
            ? []
            : [
                {
                  title: t('batches.customer'),
                  key: 'customer',
                  render: (_: unknown, b: batches.BatchRow) => `${b.customerCode} ${b.customerName}`,
                },
              ]),
          { title: t('batches.channel'), dataIndex: 'channel', width: 80 },
          { title: t('batches.exportNomination'), render: (_, b) => b.exportNomination?.name ?? '—' },
          {
            title: t('batches.progress'),
            width: 160,
            render: (_, b) => (
              <Progress
                percent={b.progress}
                aria-label={t('batches.progress')}
                size="small"
                status={b.status === 'failed' ? 'exception' : undefined}
              />
            ),
          },
          { title: t('batches.rows'), dataIndex: 'totalRows', width: 80 },
          { title: t('batches.orders'), dataIndex: 'orderCount', width: 80 },
          { title: t('batches.createdAt'), render: (_, b) => formatTime(b.createdAt) },
          {
            title: t('batches.actions'),
            // Fixed as every other list's 操作: at 1440 px it was past the window's edge (issue 36 #23).
            fixed: 'right',
            render: (_, b) => (
              <Space>
                {b.previewUntil && (
                  <Link to={previewPageOf(b)} style={{ whiteSpace: 'nowrap' }} data-testid={`batch-open-${b.batchNo}`}>
                    {t('batches.openPreview')}
                  </Link>
                )}
                {b.status === 'done' && b.orderCount > 0 && (
                  <Button size="small" onClick={() => setViewing(b)} data-testid={`batch-view-orders-${b.batchNo}`}>
                    {t('batches.ordersButton')}
                  </Button>
                )}
                {b.status === 'done' && (
                  <Button
                    size="small"
                    onClick={() => attempt(message, () => download.run((id) => downloadBatchExcel(b.id, id)))}
                    disabled={download.busy}
                    data-testid={`batch-excel-${b.batchNo}`}
                  >
                    {t('batches.excel')}
                  </Button>
                )}
                {b.status === 'done' && (
                  <MdaBatchMenu batchId={b.id} testId={`batch-mda-${b.batchNo}`} download={download} />
                )}
                {b.hasErrorWorkbook && (
                  <Button
                    size="small"
                    onClick={() => attempt(message, () => downloadErrors(b.id))}
                    data-testid={`batch-errors-${b.batchNo}`}
                  >
                    {t('batches.errorWorkbook')}
                  </Button>
                )}
                <Popconfirm
                  title={t('batches.deleteConfirm')}
                  okButtonProps={{ 'data-testid': 'batch-delete-ok' } as never}
                  onConfirm={async () => {
                    if ((await attempt(message, () => deleteBatch(b.id))) === undefined) return;
                    message.success(t('batches.deleted'));
                    await invalidateCall(calls.batches);
                  }}
                >
                  <Button
                    size="small"
                    danger
                    disabled={b.status === 'parsing' || b.status === 'committing'}
                    data-testid={`batch-delete-${b.batchNo}`}
                  >
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

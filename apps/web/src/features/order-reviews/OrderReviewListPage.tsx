import { orderReviews } from '@console/contract';
import { App, Button, Popconfirm, Space, type TableColumnsType } from 'antd';
import { useNavigate } from 'react-router';
import { ColumnChooser } from '@/components/ColumnChooser.tsx';
import { useDownloadProgress } from '@/components/download-progress.tsx';
import { FilterBar, PagedTable, rangeToDates, usePagedQuery } from '@/components/paged-table';
import { formatTime, invalidateCall, saveServerSetting, t, useI18n, useServerSettings, useSession } from '@/lib';
import { deleteReview, downloadReview, reviewsCall } from './api/orderReviews.ts';
import { ReviewParseTag, ReviewStatusTag } from './components/shared.tsx';
import './i18n.ts';

type Row = orderReviews.OrderReviewRow;
type Filters = Omit<orderReviews.OrderReviewListRequest, 'offset' | 'limit' | 'order' | 'sort'>;

export const ALL_COLUMNS = [
  'reviewNo',
  'customerCode',
  'status',
  'fileName',
  'orderCount',
  'itemCount',
  'flaggedOrders',
  'rowErrorCount',
  'createdBy',
  'createdAt',
  'completedBy',
  'completedAt',
  'remarks',
];
const SORTABLE = new Set(['createdAt', 'status', 'orderCount', 'flaggedOrders']);
const title = (k: string) => t(`orderReviews.${k === 'customerCode' ? 'customer' : k}`);

/**
 * Order Review list (spec §2 orderReview.list): review batches with server-side filters, sort
 * and paging; columns saved per user; a pending review can be deleted (after confirming); the
 * result workbook downloads with progress.
 */
export default function OrderReviewListPage() {
  useI18n();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const { user } = useSession();
  const isCustomer = !!user?.customer;
  const paged = usePagedQuery<typeof reviewsCall, Filters>(reviewsCall, { sort: 'createdAt' });
  const settings = useServerSettings();
  const saved = settings.data?.orderReviewColumns;
  const chosen: readonly string[] =
    Array.isArray(saved) && saved.length ? (saved as string[]) : settings.isPending ? [] : ALL_COLUMNS;
  const ready = !settings.isPending;
  const visible = isCustomer ? chosen.filter((c) => c !== 'customerCode') : chosen;
  const download = useDownloadProgress();

  const onSearch = (v: Record<string, any>) => {
    void invalidateCall(orderReviews.orderReviews);
    paged.setFilters({
      status: v.status,
      reviewNo: v.reviewNo?.trim() || undefined,
      customerId: v.customerId,
      ...rangeToDates(v.range),
    });
  };
  const remove = async (r: Row) => {
    await deleteReview(r.id);
    void message.success(t('orderReviews.deleted'));
    await invalidateCall(orderReviews.orderReviews);
  };

  const cell = (k: string, r: Row): React.ReactNode => {
    switch (k) {
      case 'status':
        return (
          <Space size={4}>
            <ReviewStatusTag status={r.status} />
            <ReviewParseTag review={r} />
          </Space>
        );
      case 'createdAt':
      case 'completedAt':
        return formatTime(r[k]);
      case 'reviewNo':
        return <a onClick={() => navigate(`/orderReview/info?id=${r.id}`)}>{r.reviewNo}</a>;
      default:
        return (r as any)[k] as React.ReactNode;
    }
  };
  const columns: TableColumnsType<Row> = [
    ...visible.map((k) => ({
      key: k,
      title: title(k),
      sorter: SORTABLE.has(k),
      render: (_: unknown, r: Row) => cell(k, r),
    })),
    {
      key: 'actions',
      title: t('orderReviews.actions'),
      fixed: 'right' as const,
      render: (_: unknown, r: Row) => (
        <Space size="small">
          <Button size="small" type="link" onClick={() => navigate(`/orderReview/info?id=${r.id}`)}>
            {t('orderReviews.view')}
          </Button>
          <Button size="small" type="link" onClick={() => navigate(`/orderReview/item?id=${r.id}`)}>
            {t('orderReviews.items')}
          </Button>
          <Button
            size="small"
            type="link"
            disabled={download.busy}
            onClick={() => void download.run((pid) => downloadReview(r.id, pid))}
            data-testid="review-download"
          >
            {t('orderReviews.download')}
          </Button>
          <Popconfirm
            title={t('orderReviews.deleteConfirm', { no: r.reviewNo })}
            onConfirm={() => remove(r)}
            disabled={r.status !== 0}
          >
            <Button
              size="small"
              type="link"
              danger
              disabled={r.status !== 0}
              title={r.status !== 0 ? t('orderReviews.onlyPending') : undefined}
              data-testid="review-delete"
            >
              {t('orderReviews.delete')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <FilterBar
        filters={paged.filters}
        i18n="orderReviews"
        onSearch={onSearch}
        searchTestId="review-search"
        extra={
          <>
            <Button onClick={() => navigate('/orderReview/create')} data-testid="review-create">
              {t('orderReviews.create')}
            </Button>
            <ColumnChooser
              all={ALL_COLUMNS}
              chosen={chosen}
              titleOf={title}
              label={t('orderReviews.columns')}
              disabled={!ready}
              onChoose={(next) => void saveServerSetting('orderReviewColumns', next)}
            />
          </>
        }
      >
        <FilterBar.Enum
          name="status"
          width={120}
          values={[0, 1]}
          i18n="orderReviews.statuses"
          data-testid="review-filter-status"
        />
        <FilterBar.Text name="reviewNo" width={200} maxLength={32} data-testid="review-filter-no" />
        <FilterBar.Customer />
        <FilterBar.DateRange />
      </FilterBar>
      {download.panel}
      <PagedTable<Row>
        rowKey="id"
        size="small"
        paged={paged}
        ready={ready}
        loading={paged.query.isFetching || !ready}
        columns={columns}
        scroll={{ x: 'max-content' }}
        data-testid="review-table"
        onRow={(r) => ({ 'data-review-no': r.reviewNo }) as never}
      />
    </Space>
  );
}

import type { orderReviews } from '@console/contract';
import type { TableColumnsType } from 'antd';
import { PagedTable, usePagedQuery } from '@/components/paged-table';
import { t } from '@/lib';
import { reviewItemsCall } from '../api/orderReviews.ts';
import { CatalogueTag, Findings } from './shared.tsx';

type Row = orderReviews.ReviewItemRow;
type Filters = { id: number; orderId?: number; catalogue?: orderReviews.CatalogueMatch; flaggedOnly?: boolean };

/**
 * A review's items (all, or one order's) with the catalogue's status and price and the findings.
 * The filters are fixed for its life: a caller that changes them gives it a new `key`.
 */
export function ReviewItemsTable({
  filters,
  showOrder = true,
  inUrl = true,
}: {
  filters: Filters;
  showOrder?: boolean;
  /** False inside an expanded row: each row's table would write the same keys of the page's URL. */
  inUrl?: boolean;
}) {
  const paged = usePagedQuery<typeof reviewItemsCall, Filters>(reviewItemsCall, {
    filters,
    limit: 20,
    url: inUrl ? undefined : false,
  });
  const columns: TableColumnsType<Row> = [
    ...(showOrder ? [{ key: 'orderNo', title: t('orderReviews.orderNo'), dataIndex: 'orderNo' }] : []),
    { key: 'jan', title: t('orderReviews.jan'), dataIndex: 'jan' },
    { key: 'name', title: t('orderReviews.name'), dataIndex: 'name' },
    { key: 'quantity', title: t('orderReviews.quantity'), dataIndex: 'quantity', align: 'right' },
    {
      key: 'unitPrice',
      title: t('orderReviews.unitPrice'),
      align: 'right',
      render: (_, r) => `${r.unitPrice} ${r.currency}`,
    },
    {
      key: 'catalogue',
      title: t('orderReviews.catalogue'),
      render: (_, r) => <CatalogueTag match={r.catalogue} />,
    },
    { key: 'clearancePrice', title: t('orderReviews.clearancePrice'), dataIndex: 'clearancePrice', align: 'right' },
    { key: 'findings', title: t('orderReviews.findings'), render: (_, r) => <Findings findings={r.findings} /> },
  ];
  return (
    <PagedTable<Row>
      rowKey="id"
      size="small"
      paged={paged}
      columns={columns}
      data-testid="review-items"
      onRow={(r) => ({ 'data-jan': r.jan ?? '' }) as never}
    />
  );
}

import type { storageOrders as S } from '@console/contract';
import type { TableColumnsType } from 'antd';
import { PagedTable, usePagedQuery } from '@/components/paged-table';
import { formatTime, t } from '@/lib';
import { storageLinesCall } from '../api/storageOrders.ts';
import { OutcomeTag } from './shared.tsx';

type Filters = { id: number; result?: 'ok' | 'refused'; code?: string };

/** A storage order's lines with each order's receive state, paged on the server. */
export function useLines(filters: Filters) {
  return usePagedQuery<typeof storageLinesCall, Filters>(storageLinesCall, { filters, order: 'asc' });
}

export function LinesTable({ paged }: { paged: ReturnType<typeof useLines> }) {
  const columns: TableColumnsType<S.StorageLine> = [
    { key: 'code', title: t('storageOrders.waybill'), render: (_, r) => r.code },
    { key: 'outcome', title: t('storageOrders.result'), render: (_, r) => <OutcomeTag outcome={r.outcome} /> },
    {
      key: 'weight',
      title: t('storageOrders.weight'),
      align: 'right',
      render: (_, r) => (r.grossWeightG === null ? '' : String(r.grossWeightG)),
    },
    { key: 'message', title: t('storageOrders.message'), render: (_, r) => r.message },
    { key: 'order', title: t('storageOrders.order'), render: (_, r) => r.order?.orderNo ?? '' },
    { key: 'customer', title: t('storageOrders.customer'), render: (_, r) => r.order?.customerCode ?? '' },
    {
      key: 'status',
      title: t('storageOrders.orderStatus'),
      render: (_, r) => (r.order ? t(`storageOrders.orderStatuses.${r.order.status}`) : ''),
    },
    {
      key: 'receivedAt',
      title: t('storageOrders.receivedAt'),
      render: (_, r) => (r.order?.receivedAt ? formatTime(r.order.receivedAt) : ''),
    },
    { key: 'at', title: t('storageOrders.at'), render: (_, r) => formatTime(r.at) },
  ];
  return (
    <PagedTable<S.StorageLine>
      rowKey="id"
      size="small"
      paged={paged}
      columns={columns}
      scroll={{ x: 'max-content' }}
      data-testid="storage-lines"
      onRow={(r) => ({ 'data-code': r.code, 'data-outcome': r.outcome }) as never}
    />
  );
}

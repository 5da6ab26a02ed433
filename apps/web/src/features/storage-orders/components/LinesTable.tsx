import type { storageOrders as S } from '@console/contract';
import { Button, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { PagedTable, usePagedQuery } from '@/components/paged-table';
import { formatTime, hasRoute, t } from '@/lib';
import { ReweighModal } from './ReweighModal.tsx';
import { storageLinesCall } from '../api/storageOrders.ts';
import { OutcomeTag } from './shared.tsx';

type Filters = { id: number; result?: 'ok' | 'refused'; code?: string };

/** A storage order's lines with each order's receive state, paged on the server. */
export function useLines(filters: Filters) {
  return usePagedQuery<typeof storageLinesCall, Filters>(storageLinesCall, { filters, order: 'asc' });
}

export function LinesTable({ paged }: { paged: ReturnType<typeof useLines> }) {
  const [reweighing, setReweighing] = useState<S.StorageLine | null>(null);
  const columns: TableColumnsType<S.StorageLine> = [
    { key: 'code', title: t('storageOrders.waybill'), render: (_, r) => r.code },
    { key: 'outcome', title: t('storageOrders.result'), render: (_, r) => <OutcomeTag outcome={r.outcome} /> },
    {
      key: 'weight',
      title: t('storageOrders.weight'),
      align: 'right',
      render: (_, r) => (r.grossWeightG === null ? '' : String(r.grossWeightG)),
    },
    {
      key: 'declared',
      title: t('storageOrders.declaredWeight'),
      align: 'right',
      render: (_, r) => <span data-testid="line-declared">{r.declaredWeightG ?? ''}</span>,
    },
    {
      key: 'measured',
      title: t('storageOrders.measuredWeight'),
      align: 'right',
      render: (_, r) => <span data-testid="line-measured">{r.measuredWeightG ?? ''}</span>,
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
    // Re-weighing is the warehouse's (operators): only orders it has received.
    ...(hasRoute('storageOrder.reweigh')
      ? [
          {
            key: 'reweigh',
            title: t('storageOrders.actions'),
            render: (_: unknown, r: S.StorageLine) =>
              r.order?.receivedAt ? (
                <Button size="small" type="link" onClick={() => setReweighing(r)} data-testid="line-reweigh">
                  {t('storageOrders.reweigh')}
                </Button>
              ) : null,
          },
        ]
      : []),
  ];
  return (
    <>
      <ReweighModal line={reweighing} onClose={() => setReweighing(null)} />
      <PagedTable<S.StorageLine>
        rowKey="id"
        size="small"
        paged={paged}
        columns={columns}
        scroll={{ x: 'max-content' }}
        data-testid="storage-lines"
        onRow={(r) => ({ 'data-code': r.code, 'data-outcome': r.outcome }) as never}
      />
    </>
  );
}

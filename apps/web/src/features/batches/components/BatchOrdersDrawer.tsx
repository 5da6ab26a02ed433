import { orders } from '@console/contract';
import { Drawer, Tag } from 'antd';
import { PagedTable, usePagedQuery } from '@/components/paged-table';
import { formatTime, t } from '@/lib';
import { CopyNumber } from '@/components/CopyNumber.tsx';

type Row = orders.OrderRow;

/**
 * One batch's orders (call order/orders; issue 28 #17), paged and sorted on the server, without
 * leaving the Batch List (the batch number still opens the Order List filtered by it).
 */
export function BatchOrdersDrawer({
  batch,
  onClose,
}: {
  batch: { id: number; batchNo: string } | null;
  onClose: () => void;
}) {
  return (
    <Drawer
      open={batch !== null}
      onClose={onClose}
      width={900}
      title={batch ? t('batches.batchOrdersTitle', { batchNo: batch.batchNo }) : ''}
      data-testid="batch-orders"
      destroyOnHidden
    >
      {batch && <Orders batchId={batch.id} />}
    </Drawer>
  );
}

function Orders({ batchId }: { batchId: number }) {
  const paged = usePagedQuery<typeof orders.batchOrders, { batchId: number }>(orders.batchOrders, {
    filters: { batchId },
    sort: 'createdAt',
    // The drawer's opening is not in the URL: its page would outlive it there.
    url: false,
  });
  return (
    <PagedTable<Row>
      rowKey="id"
      size="small"
      paged={paged}
      data-testid="batch-orders-table"
      onRow={(r) => ({ 'data-order-no': r.orderNo }) as never}
      columns={[
        {
          key: 'orderNo',
          title: t('batches.orderNo'),
          sorter: true,
          render: (_, r) => <CopyNumber value={r.orderNo} />,
        },
        {
          key: 'waybillNo',
          title: t('batches.waybillNo'),
          render: (_, r) => (r.waybillNo ? <CopyNumber value={r.waybillNo} /> : '—'),
        },
        { key: 'recipient', title: t('batches.recipient'), dataIndex: 'recipientName' },
        {
          key: 'status',
          title: t('batches.status'),
          render: (_, r) => <Tag>{t(`batches.orderStatuses.${r.status}`)}</Tag>,
        },
        { key: 'createdAt', title: t('batches.createdAt'), sorter: true, render: (_, r) => formatTime(r.createdAt) },
      ]}
    />
  );
}

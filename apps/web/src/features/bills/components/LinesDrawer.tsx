import type { bills as B } from '@console/contract';
import { Drawer, type TableColumnsType, Typography } from 'antd';
import { PagedTable, usePagedQuery } from '@/components/paged-table';
import { formatTime, t } from '@/lib';
import { billLinesCall } from '../api/bills.ts';

type Row = B.ChargeRow;

/** One statement's lines, paged on the server, newest first. */
export function LinesDrawer({ bill, onClose }: { bill: B.BillRow | null; onClose: () => void }) {
  return (
    <Drawer
      open={!!bill}
      onClose={onClose}
      size="large"
      width={960}
      title={bill ? t('bills.linesOf', { customer: bill.customerCode, period: bill.period }) : ''}
      destroyOnHidden
    >
      {/* Keyed by the bill: the paged query's filters belong to one statement. */}
      {bill && <Lines key={bill.id} id={bill.id} />}
    </Drawer>
  );
}

function Lines({ id }: { id: number }) {
  const paged = usePagedQuery<typeof billLinesCall, { id: number }>(billLinesCall, {
    // Newest first: what just happened is what the customer looks for.
    order: 'desc',
    limit: 50,
    filters: { id },
    // The drawer's opening is not in the URL: its page would outlive it there.
    url: false,
  });
  const columns: TableColumnsType<Row> = [
    { key: 'at', title: t('bills.at'), render: (_, r) => formatTime(r.at) },
    { key: 'kind', title: t('bills.kind'), render: (_, r) => t(`bills.kinds.${r.kind}`) },
    { key: 'orderNo', title: t('bills.orderNo'), render: (_, r) => r.orderNo ?? '' },
    { key: 'weightG', title: t('bills.weight'), align: 'right', render: (_, r) => r.weightG ?? '' },
    {
      key: 'amount',
      title: t('bills.amount'),
      align: 'right',
      render: (_, r) => (
        <Typography.Text type={r.amount.startsWith('-') ? 'success' : undefined}>{r.amount}</Typography.Text>
      ),
    },
    { key: 'currency', title: t('bills.currency'), render: (_, r) => r.currency },
    {
      key: 'reason',
      title: t('bills.reason'),
      render: (_, r) =>
        [r.reason, r.correctsId ? t('bills.corrects', { id: r.correctsId }) : null].filter(Boolean).join(' · '),
    },
  ];
  return (
    <PagedTable<Row>
      rowKey="id"
      size="small"
      paged={paged}
      columns={columns}
      scroll={{ x: 'max-content' }}
      data-testid="bill-lines"
      onRow={(r) => ({ 'data-kind': r.kind }) as never}
    />
  );
}

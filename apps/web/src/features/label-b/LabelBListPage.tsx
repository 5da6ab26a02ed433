import { type labelB as L } from '@console/contract';
import { Button, Space, type TableColumnsType } from 'antd';
import { useNavigate } from 'react-router';
import { FilterBar, PagedTable, usePagedQuery } from '@/components/paged-table';
import { formatTime, invalidateCall, t, useI18n, useSession } from '@/lib';
import { downloadTemplate, exportBatch, labelBListCall } from './api/labelB.ts';
import { StatusTag } from './components/shared.tsx';
import './i18n.ts';

type Row = L.LabelBBatchRow;
type Filters = Omit<L.LabelBListRequest, 'offset' | 'limit' | 'order'>;

/** Modify Address (spec §7 updateLableB/list): the address batches with their counts and status. */
export default function LabelBListPage() {
  useI18n();
  const navigate = useNavigate();
  const { user } = useSession();
  const isCustomer = !!user?.customer;
  const paged = usePagedQuery<typeof labelBListCall, Filters>(labelBListCall, {});
  const l = (k: string) => t(`labelB.${k}`);
  const onSearch = (v: Record<string, any>) => {
    void invalidateCall(labelBListCall);
    paged.setFilters({ batchNo: v.batchNo?.trim() || undefined, status: v.status, customerId: v.customerId });
  };
  const open = (r: Row) => navigate(`/order/updateLabelB/info?id=${r.id}`);
  const columns: TableColumnsType<Row> = [
    { key: 'batchNo', title: l('batchNo'), render: (_, r) => <a onClick={() => open(r)}>{r.batchNo}</a> },
    ...(isCustomer ? [] : [{ key: 'customer', title: l('customer'), render: (_: unknown, r: Row) => r.customerCode }]),
    { key: 'status', title: l('status'), render: (_, r) => <StatusTag status={r.status} /> },
    { key: 'rowCount', title: l('rowCount'), dataIndex: 'rowCount' },
    { key: 'refusedCount', title: l('refusedCount'), dataIndex: 'refusedCount' },
    { key: 'changedCount', title: l('changedCount'), dataIndex: 'changedCount' },
    { key: 'labelBCount', title: l('labelBCount'), dataIndex: 'labelBCount' },
    { key: 'fileName', title: l('fileName'), dataIndex: 'fileName' },
    { key: 'createdAt', title: l('createdAt'), render: (_, r) => formatTime(r.createdAt) },
    {
      key: 'actions',
      title: l('actions'),
      fixed: 'right' as const,
      render: (_, r) => (
        <Space size="small">
          <Button size="small" type="link" onClick={() => open(r)}>
            {l('view')}
          </Button>
          <Button size="small" type="link" onClick={() => void exportBatch(r.id)}>
            {l('export')}
          </Button>
        </Space>
      ),
    },
  ];
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <FilterBar
        filters={paged.filters}
        i18n="labelB"
        onSearch={onSearch}
        searchTestId="labelb-search"
        extra={
          <>
            <Button onClick={() => navigate('/order/updateLabelB/create')} data-testid="labelb-create">
              {l('create')}
            </Button>
            <Button onClick={() => void downloadTemplate()}>{l('template')}</Button>
          </>
        }
      >
        <FilterBar.Text name="batchNo" width={220} maxLength={40} data-testid="labelb-filter-no" />
        <FilterBar.Enum
          name="status"
          width={130}
          values={['draft', 'applying', 'done', 'failed']}
          i18n="labelB.statuses"
        />
        <FilterBar.Customer />
      </FilterBar>
      <PagedTable<Row>
        rowKey="id"
        size="small"
        paged={paged}
        columns={columns}
        scroll={{ x: 'max-content' }}
        data-testid="labelb-table"
        onRow={(r) => ({ 'data-batch-no': r.batchNo }) as never}
      />
    </Space>
  );
}

import { type storageOrders as S } from '@console/contract';
import { Button, DatePicker, Form, Input, Select, Space, type TableColumnsType } from 'antd';
import { useNavigate } from 'react-router';
import { CustomerSelect } from '@/components/CustomerSelect.tsx';
import { PagedTable, usePagedQuery } from '@/components/paged-table';
import { formatTime, invalidateCall, t, useCall, useI18n, useSession } from '@/lib';
import { originsCall, storageListCall } from './api/storageOrders.ts';
import { StorageStatusTag } from './components/shared.tsx';
import './i18n.ts';

type Row = S.StorageOrderRow;
type Filters = Omit<S.StorageOrderListRequest, 'offset' | 'limit' | 'order' | 'sort'>;
const SORTABLE = new Set(['createdAt', 'lineCount', 'receivedCount']);

/**
 * Storage order list (spec §2 storageOrder.list): number, method, origin, status, customer and
 * storage dates filtered, sorted and paged on the server; each opens to its info and orders.
 */
export default function StorageListPage() {
  useI18n();
  const navigate = useNavigate();
  const [form] = Form.useForm();
  const { user } = useSession();
  const isCustomer = !!user?.customer;
  const paged = usePagedQuery<typeof storageListCall, Filters>(storageListCall, { sort: 'createdAt' });
  const origins = useCall(originsCall, {});

  const onSearch = (v: Record<string, any>) => {
    void invalidateCall(storageListCall);
    paged.setFilters({
      storageNo: v.storageNo?.trim() || undefined,
      method: v.method,
      origin: v.origin,
      status: v.status,
      customerId: v.customerId,
      dateFrom: v.range?.[0]?.format('YYYY-MM-DD'),
      dateTo: v.range?.[1]?.format('YYYY-MM-DD'),
    });
  };
  const label = (k: string) => t(`storageOrders.${k}`);
  const col = (k: keyof Row, render?: (r: Row) => React.ReactNode) => ({
    key: k,
    title: label(k === 'customerCode' ? 'customer' : k),
    sorter: SORTABLE.has(k),
    render: (_: unknown, r: Row) => (render ? render(r) : (r[k] as React.ReactNode)),
  });
  const columns: TableColumnsType<Row> = [
    col('storageNo', (r) => <a onClick={() => navigate(`/storageOrder/info?id=${r.id}`)}>{r.storageNo}</a>),
    ...(isCustomer ? [] : [col('customerCode', (r) => r.customerCode ?? t('storageOrders.anyCustomer'))]),
    col('method', (r) => t(`storageOrders.methods.${r.method}`)),
    col('origin', (r) => origins.data?.find((o) => o.value === r.origin)?.label ?? r.origin),
    col('status', (r) => <StorageStatusTag status={r.status} />),
    col('lineCount'),
    col('receivedCount'),
    col('refusedCount'),
    col('createdBy'),
    col('createdAt', (r) => formatTime(r.createdAt)),
    {
      key: 'actions',
      title: label('actions'),
      fixed: 'right' as const,
      render: (_: unknown, r: Row) => (
        <Space size="small">
          <Button size="small" type="link" onClick={() => navigate(`/storageOrder/info?id=${r.id}`)}>
            {label('view')}
          </Button>
          <Button size="small" type="link" onClick={() => navigate(`/storageOrder/item?id=${r.id}`)}>
            {label('orders')}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Form form={form} layout="inline" onFinish={onSearch} style={{ rowGap: 8 }}>
        <Form.Item name="storageNo" label={label('storageNo')}>
          <Input allowClear style={{ width: 220 }} maxLength={32} data-testid="storage-filter-no" />
        </Form.Item>
        <Form.Item name="method" label={label('method')}>
          <Select
            allowClear
            style={{ width: 150 }}
            options={(['entry', 'excel'] as const).map((m) => ({ value: m, label: t(`storageOrders.methods.${m}`) }))}
          />
        </Form.Item>
        <Form.Item name="origin" label={label('origin')}>
          <Select allowClear style={{ width: 120 }} options={origins.data ?? []} />
        </Form.Item>
        <Form.Item name="status" label={label('status')}>
          <Select
            allowClear
            style={{ width: 130 }}
            options={(['received', 'partial', 'refused'] as const).map((s) => ({
              value: s,
              label: t(`storageOrders.statuses.${s}`),
            }))}
          />
        </Form.Item>
        {!isCustomer && (
          <Form.Item name="customerId" label={label('customer')}>
            <CustomerSelect allowClear style={{ width: 160 }} />
          </Form.Item>
        )}
        <Form.Item name="range" label={label('dateRange')}>
          <DatePicker.RangePicker />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" data-testid="storage-search">
            {label('search')}
          </Button>
          <Button onClick={() => (form.resetFields(), onSearch({}))}>{label('reset')}</Button>
          <Button onClick={() => navigate('/storageOrder/create')}>{label('create')}</Button>
        </Space>
      </Form>
      <PagedTable<Row>
        rowKey="id"
        size="small"
        paged={paged}
        columns={columns}
        scroll={{ x: 'max-content' }}
        data-testid="storage-table"
        onRow={(r) => ({ 'data-storage-no': r.storageNo }) as never}
      />
    </Space>
  );
}

import { type storageOrders as S } from '@console/contract';
import { Button, Select, type TableColumnsType } from 'antd';
import { Form } from '@/components/form.tsx';
import { useNavigate } from 'react-router';
import { FilterBar, ListPage, listActions, listColumn, rangeToDates, usePagedQuery } from '@/components/paged-table';
import { formatTime, invalidateCall, t, useCall, useI18n, useSession } from '@/lib';
import { originsCall, storageListCall } from './api/storageOrders.ts';
import { StorageKindTag, StorageStatusTag } from './components/shared.tsx';
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
      ...rangeToDates(v.range),
    });
  };
  const label = (k: string) => t(`storageOrders.${k}`);
  const col = listColumn<Row>('storageOrders', SORTABLE, { customerCode: 'customer', preAlert: 'kind' });
  const columns: TableColumnsType<Row> = [
    col('storageNo', (r) => <a onClick={() => navigate(`/storageOrder/info?id=${r.id}`)}>{r.storageNo}</a>),
    ...(isCustomer ? [] : [col('customerCode', (r) => r.customerCode ?? t('storageOrders.anyCustomer'))]),
    col('method', (r) => t(`storageOrders.methods.${r.method}`)),
    col('origin', (r) => origins.data?.find((o) => o.value === r.origin)?.label ?? r.origin),
    col('preAlert', (r) => <StorageKindTag preAlert={r.preAlert} />),
    col('status', (r) => <StorageStatusTag status={r.status} />),
    col('lineCount'),
    col('receivedCount'),
    col('refusedCount'),
    col('createdBy'),
    col('createdAt', (r) => formatTime(r.createdAt)),
    listActions<Row>('storageOrders', (r) => (
      <>
        <Button size="small" type="link" onClick={() => navigate(`/storageOrder/info?id=${r.id}`)}>
          {label('view')}
        </Button>
        <Button size="small" type="link" onClick={() => navigate(`/storageOrder/item?id=${r.id}`)}>
          {label('orders')}
        </Button>
      </>
    )),
  ];

  return (
    <ListPage<Row>
      paged={paged}
      i18n="storageOrders"
      onSearch={onSearch}
      testId="storage"
      createPath="/storageOrder/create"
      columns={columns}
      onRow={(r) => ({ 'data-storage-no': r.storageNo }) as never}
      filters={
        <>
          <FilterBar.Text name="storageNo" width={220} maxLength={32} data-testid="storage-filter-no" />
          <FilterBar.Enum name="method" width={150} values={['entry', 'excel']} i18n="storageOrders.methods" />
          <Form.Item name="origin" label={label('origin')}>
            <Select allowClear style={{ width: 120 }} options={origins.data ?? []} />
          </Form.Item>
          <FilterBar.Enum
            name="status"
            width={130}
            values={['received', 'partial', 'refused']}
            i18n="storageOrders.statuses"
          />
          <FilterBar.Customer />
          <FilterBar.DateRange />
        </>
      }
    />
  );
}

import { type meituan as M } from '@console/contract';
import { App, Button, Select, Space, Tag, type TableColumnsType } from 'antd';
import { Form } from '@/components/form.tsx';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { FilterBar, PagedTable, rangeToDates, usePagedQuery, useRowSelection } from '@/components/paged-table';
import { errorText, formatTime, hasRoute, invalidateCall, t, useCall, useI18n, useSession } from '@/lib';
import { batchNumbersCall, completeMeituan, exportMeituan, locationsCall, meituanListCall } from './api/meituan.ts';
import './i18n.ts';

type Row = M.MeituanOrderRow;
type Filters = Omit<M.MeituanListRequest, 'offset' | 'limit' | 'order' | 'sort'>;
const SORTABLE = new Set(['createdAt', 'systemNo', 'completedAt']);

/**
 * Meituan reservation order list (spec §2 meituanOrder.list): numbers, status, operation
 * location, batch, customer and upload dates filtered, sorted and paged on the server; the
 * current filter exported; operators complete orders singly or the selected ones.
 */
export default function MeituanListPage() {
  useI18n();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const { user } = useSession();
  const isCustomer = !!user?.customer;
  const canComplete = hasRoute('meituanOrder.complete');
  const paged = usePagedQuery<typeof meituanListCall, Filters>(meituanListCall, { sort: 'createdAt' });
  const locations = useCall(locationsCall, {});
  const batches = useCall(batchNumbersCall, {});
  const selection = useRowSelection<Row>(paged, { getCheckboxProps: (r) => ({ disabled: r.status === 1 }) });
  const selected = selection.keys as number[];
  const [busy, setBusy] = useState(false);
  const l = (k: string, p?: Record<string, string | number>) => t(`meituan.${k}`, p);

  const onSearch = (v: Record<string, any>) => {
    void invalidateCall(meituanListCall);
    selection.clear();
    paged.setFilters({
      number: v.number?.trim() || undefined,
      status: v.status,
      operationLocation: v.operationLocation,
      batchNumber: v.batchNumber,
      customerId: v.customerId,
      ...rangeToDates(v.range),
    });
  };
  const complete = async (ids: number[]) => {
    setBusy(true);
    try {
      const r = await completeMeituan(ids);
      void message.success(l('completed', { done: r.completed, already: r.alreadyCompleted }));
      selection.clear();
      void invalidateCall(meituanListCall);
    } finally {
      setBusy(false);
    }
  };
  const onExport = async () => {
    setBusy(true);
    try {
      const { offset: _o, limit: _l, ...filters } = paged.request as M.MeituanListRequest;
      await exportMeituan(filters);
    } catch (e) {
      void message.error(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  const locationLabel = (v: string) => locations.data?.find((x) => x.value === v)?.label ?? v;
  const col = (k: keyof Row, render?: (r: Row) => React.ReactNode) => ({
    key: k,
    title: l(k === 'customerCode' ? 'customer' : k),
    sorter: SORTABLE.has(k),
    render: (_: unknown, r: Row) => (render ? render(r) : (r[k] as React.ReactNode)),
  });
  const columns: TableColumnsType<Row> = [
    col('systemNo', (r) => <a onClick={() => navigate(`/meituanOrder/info?id=${r.id}`)}>{r.systemNo}</a>),
    col('meituanNo'),
    col('expressNo'),
    col('orderRef'),
    ...(isCustomer ? [] : [col('customerCode')]),
    col('status', (r) => (
      <Tag color={r.status === 1 ? 'green' : 'orange'} data-testid="meituan-status">
        {l(`statuses.${r.status}`)}
      </Tag>
    )),
    col('operationLocation', (r) => locationLabel(r.operationLocation)),
    col('batchNumber'),
    col('receiverName'),
    col('receiverPhone'),
    col('itemCount'),
    col('totalPrice'),
    col('createdAt', (r) => formatTime(r.createdAt)),
    col('completedAt', (r) => (r.completedAt ? formatTime(r.completedAt) : '')),
    {
      key: 'actions',
      title: l('actions'),
      fixed: 'right' as const,
      render: (_: unknown, r: Row) => (
        <Space size="small">
          <Button size="small" type="link" onClick={() => navigate(`/meituanOrder/info?id=${r.id}`)}>
            {l('view')}
          </Button>
          {canComplete && r.status === 0 && (
            <Button
              size="small"
              type="link"
              disabled={busy}
              onClick={() => void complete([r.id])}
              data-testid="meituan-complete-one"
            >
              {l('complete')}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="meituan-list-page">
      <FilterBar
        filters={paged.filters}
        i18n="meituan"
        onSearch={onSearch}
        searchTestId="meituan-search"
        wrapButtons
        extra={
          <>
            {hasRoute('meituanOrder.create') && (
              <Button onClick={() => navigate('/meituanOrder/create')}>{l('create')}</Button>
            )}
            <Button loading={busy} onClick={() => void onExport()} data-testid="meituan-export">
              {l('export')}
            </Button>
            {canComplete && (
              <Button
                disabled={!selected.length || busy}
                onClick={() => void complete(selected)}
                data-testid="meituan-complete-selected"
              >
                {l('completeSelected', { count: selected.length })}
              </Button>
            )}
          </>
        }
      >
        <FilterBar.Text
          name="number"
          width={220}
          maxLength={64}
          placeholder={l('numberHint')}
          data-testid="meituan-filter-number"
        />
        <FilterBar.Enum name="status" width={140} values={[0, 1]} i18n="meituan.statuses" />
        <Form.Item name="operationLocation" label={l('operationLocation')}>
          <Select allowClear style={{ width: 160 }} options={locations.data ?? []} />
        </Form.Item>
        <Form.Item name="batchNumber" label={l('batchNumber')}>
          <Select
            allowClear
            showSearch
            style={{ width: 220 }}
            options={(batches.data ?? []).map((b) => ({ value: b, label: b }))}
          />
        </Form.Item>
        <FilterBar.Customer />
        <FilterBar.DateRange />
      </FilterBar>
      {canComplete && selection.bar}
      <PagedTable<Row>
        rowKey="id"
        size="small"
        paged={paged}
        columns={columns}
        scroll={{ x: 'max-content' }}
        data-testid="meituan-table"
        rowSelection={canComplete ? selection.rowSelection : undefined}
        onRow={(r) => ({ 'data-system-no': r.systemNo }) as never}
      />
    </Space>
  );
}

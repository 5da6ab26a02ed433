import dayjs from 'dayjs';
import { type bills as B } from '@console/contract';
import { App, Button, DatePicker, Space, Tag, type TableColumnsType } from 'antd';
import { Form } from '@/components/form.tsx';
import { useState } from 'react';
import { FilterBar, PagedTable, usePagedQuery } from '@/components/paged-table';
import { formatTime, hasRoute, invalidateCall, t, useCall, useI18n, useSession } from '@/lib';
import { billMonthsCall, billsCall, downloadBill, issueBill, markBillPaid } from './api/bills.ts';
import { AdjustModal } from './components/AdjustModal.tsx';
import { LinesDrawer } from './components/LinesDrawer.tsx';
import { MonthChart } from './components/MonthChart.tsx';
import './i18n.ts';

type Row = B.BillRow;
type Filters = Omit<B.BillListRequest, 'offset' | 'limit' | 'order'>;
const STATUS_COLOR: Record<B.BillStatus, string> = { open: 'blue', issued: 'orange', paid: 'green' };

/**
 * Bills (spec route `bill`): the last 12 months as a chart, the monthly statements filtered by
 * period, customer (agents and operators) and status, paged on the server; each opens to its
 * lines and downloads as an xlsx. Operators issue, mark paid and adjust.
 */
/** The month filter is a month picker's day in the form, `YYYY-MM` in the call and the URL. */
const periodToForm = ({ period, ...rest }: Record<string, unknown>) =>
  typeof period === 'string' ? { ...rest, period: dayjs(period, 'YYYY-MM') } : rest;

export default function BillPage() {
  useI18n();
  const { modal } = App.useApp();
  const { user } = useSession();
  const isCustomer = !!user?.customer;
  const manage = hasRoute('bill.manage');
  const paged = usePagedQuery<typeof billsCall, Filters>(billsCall);
  const customerId = paged.state.filters.customerId;
  const months = useCall(billMonthsCall, customerId ? { customerId } : {});
  const [open, setOpen] = useState<Row | null>(null);
  const [adjusting, setAdjusting] = useState(false);
  const [busy, setBusy] = useState<number | null>(null);

  const onSearch = (v: Record<string, any>) => {
    void invalidateCall(billsCall);
    paged.setFilters({ period: v.period?.format('YYYY-MM'), customerId: v.customerId, status: v.status });
  };
  const refresh = () => Promise.all([invalidateCall(billsCall), invalidateCall(billMonthsCall)]);
  const act = (r: Row, question: string, run: (id: number) => Promise<unknown>) =>
    modal.confirm({
      content: question,
      onOk: async () => {
        await run(r.id);
        await refresh();
      },
    });
  const download = async (r: Row) => {
    setBusy(r.id);
    try {
      await downloadBill(r.id);
    } finally {
      setBusy(null);
    }
  };

  const columns: TableColumnsType<Row> = [
    { key: 'period', title: t('bills.period'), render: (_, r) => <a onClick={() => setOpen(r)}>{r.period}</a> },
    ...(isCustomer
      ? []
      : [{ key: 'customer', title: t('bills.customer'), render: (_: unknown, r: Row) => r.customerCode }]),
    {
      key: 'status',
      title: t('bills.status'),
      render: (_, r) => <Tag color={STATUS_COLOR[r.status]}>{t(`bills.statuses.${r.status}`)}</Tag>,
    },
    { key: 'lines', title: t('bills.lines'), align: 'right', render: (_, r) => r.lines },
    {
      key: 'totals',
      title: t('bills.totals'),
      // A bill in eight currencies on one line pushed 付款时间 under the fixed 操作 column at
      // 1440 px (issue 36 #23): the totals wrap within this width instead.
      width: 260,
      render: (_, r) => (
        <Space size={4} wrap>
          {r.totals.map((x) => (
            <span key={x.currency} data-currency={x.currency}>
              {x.currency} {x.amount}
            </span>
          ))}
        </Space>
      ),
    },
    { key: 'totalCny', title: t('bills.totalCny'), align: 'right', render: (_, r) => <b>{r.totalCny}</b> },
    { key: 'issuedAt', title: t('bills.issuedAt'), render: (_, r) => formatTime(r.issuedAt) },
    { key: 'paidAt', title: t('bills.paidAt'), render: (_, r) => formatTime(r.paidAt) },
    {
      key: 'actions',
      title: t('bills.actions'),
      fixed: 'right' as const,
      render: (_, r) => (
        <Space size="small">
          <Button size="small" type="link" onClick={() => setOpen(r)}>
            {t('bills.view')}
          </Button>
          <Button
            size="small"
            type="link"
            loading={busy === r.id}
            onClick={() => void download(r)}
            data-testid="bill-download"
          >
            {t('bills.download')}
          </Button>
          {manage && r.status === 'open' && (
            <Button size="small" type="link" onClick={() => act(r, t('bills.confirmIssue'), issueBill)}>
              {t('bills.issue')}
            </Button>
          )}
          {manage && r.status === 'issued' && (
            <Button size="small" type="link" onClick={() => act(r, t('bills.confirmPaid'), markBillPaid)}>
              {t('bills.markPaid')}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <MonthChart months={months.data} />
      <FilterBar
        filters={paged.filters}
        toForm={periodToForm}
        i18n="bills"
        onSearch={onSearch}
        searchTestId="bill-search"
        extra={manage && <Button onClick={() => setAdjusting(true)}>{t('bills.adjust')}</Button>}
      >
        <Form.Item name="period" label={t('bills.period')}>
          <DatePicker picker="month" />
        </Form.Item>
        <FilterBar.Customer width={180} />
        <FilterBar.Enum name="status" width={130} values={['open', 'issued', 'paid']} i18n="bills.statuses" />
      </FilterBar>
      <PagedTable<Row>
        rowKey="id"
        size="small"
        paged={paged}
        columns={columns}
        scroll={{ x: 'max-content' }}
        data-testid="bill-table"
        onRow={(r) => ({ 'data-period': r.period, 'data-status': r.status }) as never}
      />
      <LinesDrawer bill={open} onClose={() => setOpen(null)} />
      {manage && <AdjustModal open={adjusting} onClose={() => setAdjusting(false)} />}
    </Space>
  );
}

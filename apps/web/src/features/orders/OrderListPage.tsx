import { orders } from '@console/contract';
import { App, Button, Input, Select, Space } from 'antd';
import { Form } from '@/components/form.tsx';
import { ColumnChooser } from '@/components/ColumnChooser.tsx';
import { useDownloadProgress } from '@/components/download-progress.tsx';
import { MdaOrdersMenu } from '@/components/mda-downloads.tsx';
import { attempt } from '@/components/mutation.ts';
import { FilterBar, filtersToForm, rangeToDates, usePagedQuery, useRowSelection } from '@/components/paged-table';
import { saveServerSetting, t, useI18n, useServerSettings } from '@/lib';
import { exportOrders, type ListRequest, setPrintFlag } from './api/orders.ts';
import { PrintButton } from '@/components/printing/components.tsx';
import { DeleteOrders } from './components/DeleteOrders.tsx';
import { ALL_COLUMNS, columnTitle, OrderTable } from './components/OrderTable.tsx';
import './i18n.ts';

const CHANNELS = ['JP', 'USA', 'EMS', 'SG', 'AU', 'UK', 'PH', 'TH', 'USD'];
const STATUSES = ['created', 'printed', 'received', 'shipped', 'released', 'cancelled'];
const KINDS = ['orderNo', 'waybillNo', 'splitWaybillNo', 'systemNo', 'userRefNo', 'batchNo'];
type Filters = Omit<ListRequest, 'offset' | 'limit' | 'order' | 'sort'>;
type Row = orders.OrderRow;
/** The yes/no filters are selects of 'true'/'false' in the form, booleans in the call. */
const toForm = (f: Record<string, unknown>) =>
  filtersToForm(Object.fromEntries(Object.entries(f).map(([k, v]) => [k, typeof v === 'boolean' ? String(v) : v])));
const bool = () => [
  { value: 'true', label: t('orders.yes') },
  { value: 'false', label: t('orders.no') },
];

/** Order List: every filter, sort and paging on the server; columns saved per user; export of the current filter. */
export default function OrderListPage() {
  useI18n();
  const { message } = App.useApp();
  const download = useDownloadProgress();
  const [form] = Form.useForm();
  const paged = usePagedQuery<typeof orders.orderList, Filters>(orders.orderList, {
    sort: 'createdAt',
    // `?batchNo=` (a batch's link in Batch List and after an import): the orders of that batch.
    links: { batchNo: (numbers) => ({ noType: 'batchNo', numbers }) },
  });
  const list = paged.query;
  const req = paged.request;
  // Kept across pages (a bulk action spans them), cleared by a new query (useRowSelection).
  const selection = useRowSelection<Row>(paged);
  const selectedRows = selection.rows;
  const selected = selection.keys as number[];
  const settings = useServerSettings();
  // The columns come from the saved settings during render (not copied into state by an
  // effect, which paints every column first), and the table shows none until the saved
  // choice is known: a hidden column must not flash up after a reload. A failed settings
  // call falls back to every column.
  const saved = settings.data?.orderColumns;
  const columns: readonly string[] =
    Array.isArray(saved) && saved.length ? (saved as string[]) : settings.isPending ? [] : ALL_COLUMNS;
  const columnsKnown = !settings.isPending;

  const onSearch = (v: Record<string, any>) => {
    const b = (x?: string) => (x === undefined ? undefined : x === 'true');
    const numbers: string | undefined = v.numbers?.trim() || undefined;
    paged.setFilters({
      // The kind only means something with numbers: without them it would only lengthen the URL.
      noType: numbers && v.noType,
      numbers,
      channel: v.channel,
      status: v.status,
      receiveStatus: v.receiveStatus,
      intercepted: b(v.intercepted),
      released: b(v.released),
      printFlag: b(v.printFlag),
      recipientName: v.recipientName?.trim() || undefined,
      recipientPhone: v.recipientPhone?.trim() || undefined,
      ...rangeToDates(v.range),
    } as Filters);
  };
  // At least one column stays: an empty choice would read as "not chosen" (every column).
  const afterWrite = async () => {
    selection.clear();
    await list.refetch();
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <FilterBar
        form={form}
        i18n="orders"
        onSearch={onSearch}
        filters={paged.filters}
        toForm={toForm}
        initialValues={{ noType: 'orderNo' }}
        searchTestId="list-search"
        resetTestId="list-reset"
        extra={
          <>
            <Button
              onClick={() =>
                void attempt(message, () =>
                  download.run((id) => exportOrders({ ...req, offset: undefined, limit: undefined } as never, id)),
                )
              }
              loading={download.busy}
              data-testid="list-export"
            >
              {t('orders.export')}
            </Button>
            <ColumnChooser
              all={ALL_COLUMNS}
              chosen={columns}
              titleOf={columnTitle}
              label={t('orders.columns')}
              disabled={!columnsKnown}
              onChoose={(next) => void saveServerSetting('orderColumns', next)}
            />
            <Button
              disabled={!selected.length}
              data-testid="list-mark-printed"
              onClick={async () => {
                if ((await attempt(message, () => setPrintFlag(selected, true))) === undefined) return;
                message.success(t('orders.markedPrinted'));
                await afterWrite();
              }}
            >
              {t('orders.markPrinted')}
            </Button>
            <PrintButton
              orders={selectedRows}
              testId="list-print"
              onDone={(o) => void (o.kind === 'printed' && afterWrite())}
            />
            <DeleteOrders rows={selectedRows} onDeleted={afterWrite} />
            <MdaOrdersMenu ids={selected} download={download} />
          </>
        }
      >
        <Form.Item name="noType">
          <Select
            style={{ width: 130 }}
            options={KINDS.map((k) => ({ value: k, label: t(`orders.${k}`) }))}
            aria-label={t('orders.noType')}
            data-testid="list-noType"
          />
        </Form.Item>
        <Form.Item name="numbers">
          <Input.TextArea
            autoSize={{ minRows: 1, maxRows: 4 }}
            placeholder={t('orders.numbers')}
            style={{ width: 220 }}
            data-testid="list-numbers"
          />
        </Form.Item>
        <Form.Item name="channel" label={t('orders.channel')}>
          <Select
            allowClear
            style={{ width: 90 }}
            options={CHANNELS.map((c) => ({ value: c, label: c }))}
            data-testid="list-channel"
          />
        </Form.Item>
        <FilterBar.Enum name="status" width={110} values={STATUSES} i18n="orders.kinds" data-testid="list-status" />
        <FilterBar.Enum
          name="receiveStatus"
          width={130}
          values={['none', 'partial', 'all']}
          i18n="orders.receive"
          data-testid="list-receiveStatus"
        />
        <Form.Item name="intercepted" label={t('orders.intercepted')}>
          <Select allowClear style={{ width: 80 }} options={bool()} data-testid="list-intercepted" />
        </Form.Item>
        <Form.Item name="released" label={t('orders.released')}>
          <Select allowClear style={{ width: 80 }} options={bool()} data-testid="list-released" />
        </Form.Item>
        <Form.Item name="printFlag" label={t('orders.printFlag')}>
          <Select allowClear style={{ width: 80 }} options={bool()} data-testid="list-printFlag" />
        </Form.Item>
        <Form.Item name="recipientName" label={t('orders.recipient')}>
          <Input allowClear style={{ width: 110 }} data-testid="list-recipientName" />
        </Form.Item>
        <Form.Item name="recipientPhone" label={t('orders.phone')}>
          <Input allowClear style={{ width: 130 }} data-testid="list-recipientPhone" />
        </Form.Item>
        <FilterBar.DateRange data-testid="list-range" />
      </FilterBar>
      {download.panel}
      {selection.bar}
      <OrderTable
        data-testid="order-table"
        sortable
        visible={columns}
        paged={paged}
        loading={list.isFetching || !columnsKnown}
        ready={columnsKnown}
        rowSelection={selection.rowSelection}
      />
    </Space>
  );
}

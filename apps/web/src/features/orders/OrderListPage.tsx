import { App, Button, Checkbox, DatePicker, Form, Input, Popconfirm, Popover, Select, Space } from 'antd';
import { useState } from 'react';
import { t, useI18n } from '@/lib';
import {
  deleteOrders,
  exportOrders,
  type ListRequest,
  saveColumns,
  setPrintFlag,
  useOrderList,
  useUserSettings,
} from './api/orders.ts';
import { ALL_COLUMNS, columnTitle, OrderTable } from './components/OrderTable.tsx';
import './i18n.ts';

const CHANNELS = ['JP', 'USA', 'EMS', 'SG', 'AU', 'UK', 'PH', 'TH', 'USD'];
const STATUSES = ['created', 'printed', 'received', 'shipped', 'released', 'cancelled'];
const KINDS = ['orderNo', 'waybillNo', 'splitWaybillNo', 'systemNo', 'userRefNo', 'batchNo'];
const bool = () => [
  { value: 'true', label: t('orders.yes') },
  { value: 'false', label: t('orders.no') },
];

/** Order List: every filter, sort and paging on the server; columns saved per user; export of the current filter. */
export default function OrderListPage() {
  useI18n();
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const [req, setReq] = useState<ListRequest>({ offset: 0, limit: 20, order: 'desc', sort: 'createdAt' });
  const [selected, setSelected] = useState<number[]>([]);
  const list = useOrderList(req);
  const settings = useUserSettings();
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
    setReq({
      offset: 0,
      limit: req.limit,
      order: req.order,
      sort: req.sort,
      noType: v.noType,
      numbers: v.numbers?.trim() || undefined,
      channel: v.channel,
      status: v.status,
      receiveStatus: v.receiveStatus,
      intercepted: b(v.intercepted),
      released: b(v.released),
      printFlag: b(v.printFlag),
      recipientName: v.recipientName?.trim() || undefined,
      recipientPhone: v.recipientPhone?.trim() || undefined,
      dateFrom: v.range?.[0]?.format('YYYY-MM-DD'),
      dateTo: v.range?.[1]?.format('YYYY-MM-DD'),
    } as ListRequest);
  };
  // At least one column stays: an empty choice would read as "not chosen" (every column).
  const chooseColumns = (next: string[]) => {
    if (next.length) void saveColumns(next);
  };
  const total = list.data?.total ?? 0;

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Form form={form} layout="inline" onFinish={onSearch} initialValues={{ noType: 'orderNo' }} style={{ rowGap: 8 }}>
        <Form.Item name="noType">
          <Select
            style={{ width: 130 }}
            options={KINDS.map((k) => ({ value: k, label: t(`orders.${k}`) }))}
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
        <Form.Item name="status" label={t('orders.status')}>
          <Select
            allowClear
            style={{ width: 110 }}
            options={STATUSES.map((s) => ({ value: s, label: t(`orders.kinds.${s}`) }))}
            data-testid="list-status"
          />
        </Form.Item>
        <Form.Item name="receiveStatus" label={t('orders.receiveStatus')}>
          <Select
            allowClear
            style={{ width: 130 }}
            options={['none', 'partial', 'all'].map((s) => ({ value: s, label: t(`orders.receive.${s}`) }))}
          />
        </Form.Item>
        <Form.Item name="intercepted" label={t('orders.intercepted')}>
          <Select allowClear style={{ width: 80 }} options={bool()} />
        </Form.Item>
        <Form.Item name="released" label={t('orders.released')}>
          <Select allowClear style={{ width: 80 }} options={bool()} />
        </Form.Item>
        <Form.Item name="printFlag" label={t('orders.printFlag')}>
          <Select allowClear style={{ width: 80 }} options={bool()} />
        </Form.Item>
        <Form.Item name="recipientName" label={t('orders.recipient')}>
          <Input allowClear style={{ width: 110 }} />
        </Form.Item>
        <Form.Item name="recipientPhone" label={t('orders.phone')}>
          <Input allowClear style={{ width: 130 }} />
        </Form.Item>
        <Form.Item name="range" label={t('orders.dateRange')}>
          <DatePicker.RangePicker />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" data-testid="list-search">
            {t('orders.search')}
          </Button>
          <Button onClick={() => (form.resetFields(), onSearch({}))} data-testid="list-reset">
            {t('orders.reset')}
          </Button>
          <Button
            onClick={() => exportOrders({ ...req, offset: undefined, limit: undefined } as never)}
            data-testid="list-export"
          >
            {t('orders.export')}
          </Button>
          <Popover
            trigger="click"
            content={
              <Checkbox.Group
                value={[...columns]}
                onChange={(v) => chooseColumns(v as string[])}
                style={{ display: 'grid' }}
                data-testid="list-column-choice"
              >
                {ALL_COLUMNS.map((k) => (
                  <Checkbox key={k} value={k}>
                    {columnTitle(k)}
                  </Checkbox>
                ))}
              </Checkbox.Group>
            }
          >
            <Button data-testid="list-columns" disabled={!columnsKnown}>
              {t('orders.columns')}
            </Button>
          </Popover>
          <Button
            disabled={!selected.length}
            onClick={async () => (await setPrintFlag(selected, true), list.refetch())}
          >
            {t('orders.markPrinted')}
          </Button>
          <Popconfirm
            title={t('orders.deleteConfirm')}
            disabled={!selected.length}
            onConfirm={async () => {
              await deleteOrders(selected);
              message.success(t('orders.deleted'));
              setSelected([]);
              await list.refetch();
            }}
          >
            <Button danger disabled={!selected.length}>
              {t('orders.delete')}
            </Button>
          </Popconfirm>
        </Space>
      </Form>
      <OrderTable
        data-testid="order-table"
        sortable
        visible={columns}
        loading={list.isFetching || !columnsKnown}
        dataSource={columnsKnown ? (list.data?.list ?? []) : []}
        rowSelection={{ selectedRowKeys: selected, onChange: (k) => setSelected(k as number[]) }}
        onChange={(_p, _f, sorter) => {
          const s = Array.isArray(sorter) ? sorter[0] : sorter;
          const key = (s?.columnKey as string) || 'createdAt';
          setReq({
            ...req,
            offset: 0,
            sort: (s?.order ? key : 'createdAt') as never,
            order: s?.order === 'ascend' ? 'asc' : 'desc',
          });
        }}
        pagination={{
          total,
          current: Math.floor(Number(req.offset ?? 0) / Number(req.limit ?? 20)) + 1,
          pageSize: Number(req.limit ?? 20),
          showSizeChanger: true,
          showTotal: (n) => (list.data && !list.data.exact ? `${n.toLocaleString()}+` : n.toLocaleString()),
          onChange: (page, size) => setReq({ ...req, offset: (page - 1) * size, limit: size }),
        }}
      />
    </Space>
  );
}

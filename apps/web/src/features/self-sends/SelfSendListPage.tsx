import { selfSends as S } from '@console/contract';
import { Button, DatePicker, Form, Input, Select, Space, Tag, type TableColumnsType } from 'antd';
import { useNavigate } from 'react-router';
import { CustomerSelect } from '@/components/CustomerSelect.tsx';
import { PagedTable, usePagedQuery } from '@/components/paged-table';
import { formatTime, invalidateCall, t, useI18n, useSession } from '@/lib';
import './i18n.ts';

type Row = S.SelfSendRow;
type Filters = Omit<S.SelfSendListRequest, 'offset' | 'limit' | 'order' | 'sort'>;
const COLOR = { pending: 'default', partial: 'orange', arrived: 'green' } as const;

/** Self-send list (spec §2 selfSendTake.list): each declaration with its pieces expected against arrived. */
export default function SelfSendListPage() {
  useI18n();
  const navigate = useNavigate();
  const [form] = Form.useForm();
  const { user } = useSession();
  const isCustomer = !!user?.customer;
  const paged = usePagedQuery<typeof S.selfSendList, Filters>(S.selfSendList, { sort: 'createdAt' });
  const l = (k: string) => t(`selfSends.${k}`);
  const onSearch = (v: Record<string, any>) => {
    void invalidateCall(S.selfSendList);
    paged.setFilters({
      trackingNo: v.trackingNo?.trim() || undefined,
      expressCompany: v.expressCompany,
      status: v.status,
      customerId: v.customerId,
      dateFrom: v.range?.[0]?.format('YYYY-MM-DD'),
      dateTo: v.range?.[1]?.format('YYYY-MM-DD'),
    });
  };
  const columns: TableColumnsType<Row> = [
    ...(isCustomer ? [] : [{ key: 'customerCode', title: l('customer'), dataIndex: 'customerCode' }]),
    {
      key: 'expressCompany',
      title: l('expressCompany'),
      render: (_: unknown, r: Row) => r.expressName ?? l(`companies.${r.expressCompany}`),
    },
    {
      key: 'parcels',
      title: l('parcels'),
      render: (_: unknown, r: Row) => (
        <Space size={4} wrap>
          {r.parcels.map((p) => (
            <Tag key={p.trackingNo} color={p.arrivedAt ? 'green' : undefined} title={p.storageNo ?? ''}>
              {p.trackingNo}
            </Tag>
          ))}
        </Space>
      ),
    },
    {
      key: 'arrived',
      title: l('arrived'),
      render: (_: unknown, r: Row) => (
        <span data-testid="self-send-arrived">{`${r.arrivedCount} / ${r.expectedPieces}`}</span>
      ),
    },
    {
      key: 'status',
      title: l('status'),
      render: (_: unknown, r: Row) => <Tag color={COLOR[r.status]}>{l(`statuses.${r.status}`)}</Tag>,
    },
    { key: 'sendDate', title: l('sendDate'), sorter: true, dataIndex: 'sendDate' },
    { key: 'remark', title: l('remark'), dataIndex: 'remark' },
    { key: 'createdAt', title: l('createdAt'), sorter: true, render: (_: unknown, r: Row) => formatTime(r.createdAt) },
  ];
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Form form={form} layout="inline" onFinish={onSearch} style={{ rowGap: 8 }}>
        <Form.Item name="trackingNo" label={l('trackingNo')}>
          <Input allowClear style={{ width: 200 }} maxLength={40} data-testid="self-send-filter-tracking" />
        </Form.Item>
        <Form.Item name="expressCompany" label={l('expressCompany')}>
          <Select
            allowClear
            style={{ width: 170 }}
            options={S.expressCompany.options.map((c) => ({ value: c, label: l(`companies.${c}`) }))}
          />
        </Form.Item>
        <Form.Item name="status" label={l('status')}>
          <Select
            allowClear
            style={{ width: 130 }}
            options={S.selfSendStatus.options.map((s) => ({ value: s, label: l(`statuses.${s}`) }))}
          />
        </Form.Item>
        {!isCustomer && (
          <Form.Item name="customerId" label={l('customer')}>
            <CustomerSelect allowClear style={{ width: 160 }} />
          </Form.Item>
        )}
        <Form.Item name="range" label={l('dateRange')}>
          <DatePicker.RangePicker />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" data-testid="self-send-search">
            {l('search')}
          </Button>
          <Button onClick={() => (form.resetFields(), onSearch({}))}>{l('reset')}</Button>
          <Button onClick={() => navigate('/selfSendTake/create')}>{l('create')}</Button>
        </Space>
      </Form>
      <PagedTable<Row>
        rowKey="id"
        size="small"
        paged={paged}
        columns={columns}
        scroll={{ x: 'max-content' }}
        data-testid="self-send-table"
      />
    </Space>
  );
}

import { selfSends as S } from '@console/contract';
import { Button, Space, Tag, type TableColumnsType } from 'antd';
import { useNavigate } from 'react-router';
import { FilterBar, PagedTable, rangeToDates, usePagedQuery } from '@/components/paged-table';
import { formatTime, invalidateCall, t, useI18n, useSession } from '@/lib';
import './i18n.ts';

type Row = S.SelfSendRow;
type Filters = Omit<S.SelfSendListRequest, 'offset' | 'limit' | 'order' | 'sort'>;
const COLOR = { pending: 'default', partial: 'orange', arrived: 'green' } as const;

/** Self-send list (spec §2 selfSendTake.list): each declaration with its pieces expected against arrived. */
export default function SelfSendListPage() {
  useI18n();
  const navigate = useNavigate();
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
      ...rangeToDates(v.range),
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
      <FilterBar
        filters={paged.filters}
        i18n="selfSends"
        onSearch={onSearch}
        searchTestId="self-send-search"
        extra={<Button onClick={() => navigate('/selfSendTake/create')}>{l('create')}</Button>}
      >
        <FilterBar.Text name="trackingNo" width={200} maxLength={40} data-testid="self-send-filter-tracking" />
        <FilterBar.Enum
          name="expressCompany"
          width={170}
          values={S.expressCompany.options}
          i18n="selfSends.companies"
        />
        <FilterBar.Enum name="status" width={130} values={S.selfSendStatus.options} i18n="selfSends.statuses" />
        <FilterBar.Customer />
        <FilterBar.DateRange />
      </FilterBar>
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

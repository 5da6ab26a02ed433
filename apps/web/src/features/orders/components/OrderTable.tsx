import type { orders } from '@console/contract';
import { Table, Tag, Tooltip, type TableProps } from 'antd';
import { Link } from 'react-router';
import { CopyNumber } from '@/components/CopyNumber.tsx';
import { PagedTable, type PagedQuery } from '@/components/paged-table';
import { formatTime, t } from '@/lib';

type Row = orders.OrderRow;
export const ALL_COLUMNS = [
  'orderNo',
  'waybillNo',
  'channel',
  'customerCode',
  'batchNo',
  'status',
  'recipientName',
  'recipientPhone',
  'recipientProvince',
  'printCount',
  'printFlag',
  'intercepted',
  'released',
  'createdAt',
] as const;
export type ColumnKey = (typeof ALL_COLUMNS)[number];
const STATUS_COLOR: Record<string, string> = {
  created: 'default',
  printed: 'blue',
  received: 'cyan',
  shipped: 'green',
  released: 'purple',
  cancelled: 'red',
};

export const columnTitle = (k: ColumnKey | string) =>
  ({
    customerCode: t('orders.customer'),
    recipientName: t('orders.recipient'),
    recipientPhone: t('orders.phone'),
    recipientProvince: t('orders.province'),
  })[k] ?? t(`orders.${k}`);

/**
 * The order table used by the list, search, error and abnormal pages (masked rows from the
 * server). With `paged` it is a server-paged PagedTable; without, a plain table of the rows given.
 */
export function OrderTable(
  props: Omit<TableProps<Row>, 'onChange'> & {
    visible?: readonly string[];
    extra?: TableProps<Row>['columns'];
    sortable?: boolean;
    paged?: PagedQuery;
    showTotal?: (total: number) => React.ReactNode;
    ready?: boolean;
  },
) {
  const {
    visible = ALL_COLUMNS,
    extra = [],
    sortable,
    paged,
    showTotal,
    ready,
    dataSource,
    pagination,
    ...rest
  } = props;
  const sorter = (k: string) =>
    sortable && ['orderNo', 'waybillNo', 'status', 'printCount', 'channel', 'createdAt'].includes(k) ? true : undefined;
  const render: Partial<Record<ColumnKey, (r: Row) => React.ReactNode>> = {
    // A real link: a click opens the detail in a tab (the router), a middle-click or
    // "copy link" gets the detail's address.
    orderNo: (r) => (
      <CopyNumber value={r.orderNo}>
        <Link to={`/order/info?id=${r.id}`} data-testid={`order-${r.orderNo}`}>
          {r.orderNo}
        </Link>
      </CopyNumber>
    ),
    waybillNo: (r) => <CopyNumber value={r.waybillNo} />,
    status: (r) => <Tag color={STATUS_COLOR[r.status]}>{t(`orders.kinds.${r.status}`)}</Tag>,
    printFlag: (r) => (
      <Tag color={r.printFlag ? 'blue' : 'default'}>{r.printFlag ? t('orders.yes') : t('orders.no')}</Tag>
    ),
    intercepted: (r) => (r.intercepted ? <Tag color="red">{t('orders.yes')}</Tag> : ''),
    released: (r) => (r.released ? <Tag color="purple">{t('orders.yes')}</Tag> : ''),
    createdAt: (r) => formatTime(r.createdAt),
  };
  const columns: TableProps<Row>['columns'] = [
    ...ALL_COLUMNS.filter((k) => visible.includes(k)).map((k) => ({
      key: k,
      dataIndex: k,
      title: columnTitle(k),
      sorter: sorter(k),
      render: render[k] ? (_: unknown, r: Row) => render[k]!(r) : undefined,
    })),
    ...(extra ?? []),
  ];
  if (paged) {
    return (
      <PagedTable<Row>
        rowKey="id"
        size="small"
        scroll={{ x: 'max-content' }}
        columns={columns}
        paged={paged}
        showTotal={showTotal}
        ready={ready}
        {...rest}
      />
    );
  }
  return (
    <Table<Row>
      rowKey="id"
      size="small"
      scroll={{ x: 'max-content' }}
      columns={columns}
      dataSource={dataSource}
      pagination={pagination}
      {...rest}
    />
  );
}

export const reasonColumn = (key: 'errorReason' | 'abnormalReason') => ({
  key,
  title: t(`orders.${key}`),
  render: (_: unknown, r: Row) => (
    <Tooltip title={r[key]}>
      <span style={{ color: 'var(--ant-color-error-text)' }}>{r[key]}</span>
    </Tooltip>
  ),
});

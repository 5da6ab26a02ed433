import type { items } from '@console/contract';
import { Button, Space, Tooltip, type TableProps } from 'antd';
import { Link, useNavigate } from 'react-router';
import { PagedTable, type PagedQuery } from '@/components/paged-table';
import { formatTime, t, useI18n } from '@/lib';
import { ReviewActions } from './ReviewActions.tsx';
import { ItemThumb, StatusTag } from './shared.tsx';

type Row = items.ItemRow;
// The status right after the JAN: at 1440 px the table is twice the window's width, and last in
// the row it sat under the fixed 操作 column until scrolled to (issue 36 #23).
export const ALL_COLUMNS = [
  'image',
  'jan',
  'status',
  'nameZh',
  'nameEn',
  'nameJa',
  'customerCode',
  'brand',
  'category',
  'part',
  'group',
  'clearancePrice',
  'declarationPrice',
  'netWeightG',
  'origin',
  'reason',
  'createdAt',
  'updatedAt',
] as const;
const SORTABLE = ['jan', 'nameZh', 'status', 'createdAt', 'updatedAt'];
export const columnTitle = (k: string) => (k === 'customerCode' ? t('items.customer') : t(`items.${k}`));

/**
 * The item table of the Item List and the Failed To Pass Item List: server-paged, a thumbnail
 * of the image, the JAN a real link to the item's info, and the actions the role may use.
 */
export function ItemTable({
  paged,
  visible = ALL_COLUMNS,
  isOperator,
  onChanged,
  failedList = false,
  ready,
  ...rest
}: Omit<TableProps<Row>, 'onChange' | 'columns'> & {
  paged: PagedQuery;
  visible?: readonly string[];
  isOperator: boolean;
  onChanged: () => unknown;
  /** The failed list: the reason stands out and "fix and resubmit" is the action. */
  failedList?: boolean;
  /** False until the saved columns are known. */
  ready?: boolean;
}) {
  const { localized } = useI18n();
  const navigate = useNavigate();
  const render: Partial<Record<(typeof ALL_COLUMNS)[number], (r: Row) => React.ReactNode>> = {
    image: (r) => <ItemThumb imageId={r.imageId} />,
    jan: (r) => (
      <Link to={`/item/info?id=${r.id}`} data-testid={`item-${r.jan}`}>
        {r.jan}
      </Link>
    ),
    brand: (r) => (r.brand ? localized(r.brand.name) : ''),
    part: (r) => (r.part ? localized(r.part.name) : ''),
    category: (r) =>
      r.category ? [...r.category.path.map(localized)].join(' / ') || localized(r.category.name) : r.newCategory,
    clearancePrice: (r) => `${r.clearancePrice} CNY`,
    declarationPrice: (r) => `${r.declarationPrice} JPY`,
    status: (r) => <StatusTag status={r.status} />,
    reason: (r) =>
      r.reason ? (
        <Tooltip title={r.reason}>
          <span style={{ color: 'var(--ant-color-error-text)' }} data-testid="item-reason">
            {r.reason}
          </span>
        </Tooltip>
      ) : (
        ''
      ),
    createdAt: (r) => formatTime(r.createdAt),
    updatedAt: (r) => formatTime(r.updatedAt),
  };
  const columns: TableProps<Row>['columns'] = [
    ...ALL_COLUMNS.filter((k) => visible.includes(k)).map((k) => ({
      key: k,
      dataIndex: k,
      title: columnTitle(k),
      sorter: SORTABLE.includes(k) ? true : undefined,
      width: k === 'reason' ? 240 : undefined,
      ellipsis: k === 'reason' ? true : undefined,
      render: render[k] ? (_: unknown, r: Row) => render[k]!(r) : undefined,
    })),
    {
      key: 'actions',
      title: t('items.actions'),
      fixed: 'right',
      render: (_: unknown, r: Row) => (
        <Space size={0} wrap>
          <Button
            size="small"
            type="link"
            onClick={() => navigate(`/item/info?id=${r.id}`)}
            data-testid={`view-${r.id}`}
          >
            {t('items.view')}
          </Button>
          <Button
            size="small"
            type="link"
            onClick={() => navigate(`/item/update?id=${r.id}`)}
            data-testid={`edit-${r.id}`}
          >
            {failedList || r.status === 'failed' ? t('items.resubmit') : t('items.edit')}
          </Button>
          {isOperator && <ReviewActions item={r} onDone={onChanged} />}
        </Space>
      ),
    },
  ];
  return (
    <PagedTable<Row>
      rowKey="id"
      size="small"
      scroll={{ x: 'max-content' }}
      columns={columns}
      paged={paged}
      ready={ready}
      {...rest}
    />
  );
}

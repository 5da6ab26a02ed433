import { Table, type TableProps } from 'antd';
import { t } from '@/lib';
import { PAGE_SIZES, pageOf } from './paging.ts';
import type { PagedQuery } from './usePagedQuery.ts';

export type PagedTableProps<Row> = Omit<TableProps<Row>, 'pagination' | 'onChange' | 'dataSource'> & {
  paged: PagedQuery;
  /** The total text; by default "共 N 条" ("1,000+" when the server stopped counting). */
  showTotal?: (total: number) => React.ReactNode;
  /** False while the page cannot show rows yet (Order List waits for its saved columns). */
  ready?: boolean;
};

/**
 * antd Table wired to `usePagedQuery`: rows, total, page, page size and sort come from the
 * hook and every change goes back to it through the table's one `onChange`. Sorting is
 * controlled (the header shows the sort the server applied).
 */
export function PagedTable<Row extends object>({
  paged,
  showTotal,
  columns,
  loading,
  ready = true,
  scroll = { x: 'max-content' },
  ...rest
}: PagedTableProps<Row>) {
  const { state } = paged;
  const sortOrder = (key: unknown) =>
    state.sort !== undefined && key === state.sort ? (state.order === 'asc' ? 'ascend' : 'descend') : null;
  return (
    <Table<Row>
      {...rest}
      // As wide as its columns, scrolling sideways when the window is narrower: squeezed into
      // the window, columns wrapped letter by letter at 1280 px and slid under a fixed 操作
      // column at 1440 px (issue 28, finding 14).
      scroll={scroll}
      // Busy from the click until the new answer: a change first travels through the address.
      loading={paged.navigating || (loading ?? paged.query.isFetching)}
      dataSource={ready ? ((paged.data?.list ?? []) as Row[]) : []}
      columns={columns?.map((c) => (c.sorter ? { ...c, sortOrder: sortOrder(c.key) } : c))}
      pagination={{
        total: paged.data?.total ?? 0,
        current: pageOf(state),
        pageSize: state.limit,
        showSizeChanger: true,
        pageSizeOptions: PAGE_SIZES.map(String),
        // "共 12 条", not a bare number (issue 36 #23); the figure has a test id of its own.
        showTotal:
          showTotal ??
          ((n) => (
            <span>
              {t('common.totalBefore')}
              <span data-testid="total-count">
                {paged.data?.exact === false ? `${n.toLocaleString()}+` : n.toLocaleString()}
              </span>
              {t('common.totalAfter')}
            </span>
          )),
      }}
      onChange={(p, _filters, sorter, extra) => {
        const s = Array.isArray(sorter) ? sorter[0] : sorter;
        paged.onTableChange({
          action: extra.action === 'paginate' || extra.action === 'sort' ? extra.action : 'filter',
          current: p.current,
          pageSize: p.pageSize,
          sortKey: s?.columnKey === undefined ? undefined : String(s.columnKey),
          sortOrder: s?.order ?? null,
        });
      }}
    />
  );
}

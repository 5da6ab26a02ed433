import { Button, Space } from 'antd';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { t } from '@/lib';
import { FilterBar } from './FilterBar.tsx';
import { PagedTable, type PagedTableProps } from './PagedTable.tsx';
import type { PagedFilters, PagedQuery } from './usePagedQuery.ts';

/**
 * The column maker of a list page: a column per row field, titled `<i18n>.<key>` (or the key
 * `titles` names instead), sortable when the server sorts by it, showing the field itself
 * unless `render` says otherwise.
 *
 *   const col = listColumn<Row>('pickups', SORTABLE, { customerCode: 'customer' });
 *   const columns = [col('pickupNo'), col('createdAt', (r) => formatTime(r.createdAt))];
 */
export function listColumn<Row>(i18n: string, sortable: ReadonlySet<string>, titles: Record<string, string> = {}) {
  return (key: string, render?: (r: Row) => ReactNode) => ({
    key,
    title: t(`${i18n}.${titles[key] ?? key}`),
    sorter: sortable.has(key),
    render: (_: unknown, r: Row) => (render ? render(r) : (r[key as keyof Row] as ReactNode)),
  });
}

/** The row's buttons: the last column, kept in view on the right, titled `<i18n>.actions`. */
export function listActions<Row>(i18n: string, render: (r: Row) => ReactNode) {
  return {
    key: 'actions',
    title: t(`${i18n}.actions`),
    fixed: 'right' as const,
    render: (_: unknown, r: Row) => <Space size="small">{render(r)}</Space>,
  };
}

export interface ListPageProps<Row> {
  /** The list's query (`usePagedQuery`): the bar's form is filled from its filters. */
  paged: PagedQuery & { filters: PagedFilters };
  /** The module's i18n prefix: Search, Reset and Create read their labels under it. */
  i18n: string;
  onSearch: (values: Record<string, any>) => void;
  /** Test ids: `<testId>-search` on Search, `<testId>-table` on the table. */
  testId: string;
  /** The create page, opened by a Create button after Reset. */
  createPath?: string;
  /** The bar's filter fields. */
  filters: ReactNode;
  columns: PagedTableProps<Row>['columns'];
  onRow?: PagedTableProps<Row>['onRow'];
}

/**
 * A server-paged list page: the filter bar (with Create) above the table (issue 40, item 4:
 * the pickup and storage lists were one page written twice). The rows have an `id`.
 */
export function ListPage<Row extends object>({
  paged,
  i18n,
  onSearch,
  testId,
  createPath,
  filters,
  columns,
  onRow,
}: ListPageProps<Row>) {
  const navigate = useNavigate();
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <FilterBar
        filters={paged.filters}
        i18n={i18n}
        onSearch={onSearch}
        searchTestId={`${testId}-search`}
        extra={createPath && <Button onClick={() => navigate(createPath)}>{t(`${i18n}.create`)}</Button>}
      >
        {filters}
      </FilterBar>
      <PagedTable<Row>
        rowKey="id"
        size="small"
        paged={paged}
        columns={columns}
        scroll={{ x: 'max-content' }}
        data-testid={`${testId}-table`}
        onRow={onRow}
      />
    </Space>
  );
}

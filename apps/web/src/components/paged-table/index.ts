export { PagedTable, type PagedTableProps } from './PagedTable.tsx';
export { usePagedQuery, type PagedQuery, type PagedQueryOptions } from './usePagedQuery.ts';
export { PAGE_SIZES } from './paging.ts';

export { PagedTable, type PagedTableProps } from './PagedTable.tsx';
export { usePagedQuery, type PagedFilters, type PagedQuery, type PagedQueryOptions } from './usePagedQuery.ts';
export { filtersToForm, useFilterForm, useFilterText } from './useFilterForm.ts';
export { PAGE_SIZES, rangeToDates } from './paging.ts';
export { EnumSelect, FilterBar, type EnumSelectProps, type FilterBarProps } from './FilterBar.tsx';
export { useRowSelection } from './useRowSelection.tsx';
export { ListPage, listActions, listColumn, type ListPageProps } from './ListPage.tsx';

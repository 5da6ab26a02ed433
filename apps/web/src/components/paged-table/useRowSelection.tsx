/**
 * Row selection for a paged table, by the rule of ./selection.ts: kept across pages, cleared by a
 * new query; the bar above the table says how many rows are selected (on every page) and clears
 * them.
 *
 *   const selection = useRowSelection<Row>(paged);
 *   {selection.bar}
 *   <PagedTable paged={paged} rowSelection={selection.rowSelection} … />
 *   selection.rows / selection.keys for the bulk action; selection.clear() after it.
 */
import { Button, Space, Typography } from 'antd';
import type { Key } from 'react';
import { useState } from 'react';
import { registerMessages, t, useI18n } from '@/lib';
import { nextSelection } from './selection.ts';

registerMessages('selection', {
  'zh-chs': { count: '已选择 {count} 项（翻页时保留）', clear: '清空选择' },
  en: { count: '{count} selected (kept across pages)', clear: 'Clear selection' },
});

interface Options<R> {
  /** The row's key, as the table's rowKey (`id` by default). */
  keyOf?: (r: R) => Key;
  getCheckboxProps?: (r: R) => { disabled?: boolean };
}

export function useRowSelection<R extends object>(paged: { selectionScope: string }, options: Options<R> = {}) {
  useI18n();
  const keyOf = options.keyOf ?? ((r: R) => (r as { id: Key }).id);
  const [rows, setRows] = useState<R[]>([]);
  // A new query clears the selection during the render that shows it (React's "adjust state
  // when a prop changes"), so no frame shows the old selection over the new answer.
  const [scope, setScope] = useState(paged.selectionScope);
  if (scope !== paged.selectionScope) {
    setScope(paged.selectionScope);
    setRows([]);
  }
  const keys = rows.map(keyOf);
  const clear = () => setRows([]);
  return {
    rows,
    keys,
    clear,
    rowSelection: {
      selectedRowKeys: keys,
      // antd keeps the keys of rows on other pages; the rows themselves are kept here.
      preserveSelectedRowKeys: true,
      onChange: (next: Key[], changed: (R | undefined)[]) =>
        setRows((prev) => nextSelection(prev, next, changed, keyOf)),
      getCheckboxProps: options.getCheckboxProps,
    },
    bar: rows.length ? (
      <Space data-testid="selection-bar" role="status">
        <Typography.Text data-testid="selection-count">{t('selection.count', { count: rows.length })}</Typography.Text>
        <Button type="link" size="small" onClick={clear} data-testid="selection-clear">
          {t('selection.clear')}
        </Button>
      </Space>
    ) : null,
  };
}

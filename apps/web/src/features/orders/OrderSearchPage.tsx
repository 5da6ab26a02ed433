import { orders } from '@console/contract';
import { Alert, Button, Card, Input, Space, Tag } from 'antd';
import { type PagedQuery, useFilterText, usePagedQuery } from '@/components/paged-table';
import { t, useI18n } from '@/lib';
import { OrderTable } from './components/OrderTable.tsx';
import './i18n.ts';

/**
 * Order Search: paste many numbers of any kind (one per line) → the orders found, paged on the
 * server (a batch number alone can name thousands), and the numbers that name none.
 */
export default function OrderSearchPage() {
  useI18n();
  const paged = usePagedQuery<typeof orders.search, { numbers?: string }>(orders.search, {
    // Asked only once numbers were searched (the address holds them after a reload too).
    query: { enabled: (q) => Boolean((q.queryKey[1] as { numbers?: string } | undefined)?.numbers) },
  });
  const submitted = paged.state.filters.numbers;
  const [text, setText] = useFilterText(submitted);
  // The same numbers again ask again too (setFilters always does).
  const run = () => text.trim() && paged.setFilters({ numbers: text });
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Input.TextArea
        rows={6}
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder={t('orders.numbers')}
        data-testid="search-numbers"
      />
      <Button
        type="primary"
        loading={paged.query.isFetching}
        disabled={!text.trim()}
        onClick={run}
        data-testid="search-run"
      >
        {t('orders.search')}
      </Button>
      {submitted && paged.data && <SearchResult paged={paged} notFound={paged.data.notFound} />}
    </Space>
  );
}

/** The orders found (a server-paged table with the number that matched each) and the numbers not found. */
export function SearchResult({ paged, notFound }: { paged: PagedQuery; notFound: string[] }) {
  return (
    <>
      <Card size="small" title={`${t('orders.found')} (${(paged.data?.total ?? 0).toLocaleString()})`}>
        <OrderTable
          data-testid="search-found"
          paged={paged}
          extra={[
            {
              key: 'matchedBy',
              title: t('orders.matchedBy'),
              render: (_: unknown, r: any) => <Tag>{`${t(`orders.${r.matchedBy}`)}: ${r.matched}`}</Tag>,
            },
          ]}
        />
      </Card>
      {notFound.length > 0 && (
        <Alert
          type="warning"
          data-testid="search-not-found"
          message={`${t('orders.notFound')} (${notFound.length})`}
          description={notFound.join('\n')}
          style={{ whiteSpace: 'pre-wrap' }}
        />
      )}
    </>
  );
}

import type { orders } from '@console/contract';
import { Alert, Button, Card, Input, Space, Tag } from 'antd';
import { useState } from 'react';
import { t, useI18n } from '@/lib';
import { searchOrders } from './api/orders.ts';
import { OrderTable } from './components/OrderTable.tsx';
import './i18n.ts';

type Result = Awaited<ReturnType<typeof searchOrders>>;

/** Order Search: paste many numbers of any kind (one per line) → found and not found. */
export default function OrderSearchPage() {
  useI18n();
  const [text, setText] = useState('');
  const [result, setResult] = useState<Result | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    if (!text.trim()) return;
    setBusy(true);
    try {
      setResult(await searchOrders(text));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Input.TextArea
        rows={6}
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder={t('orders.numbers')}
        data-testid="search-numbers"
      />
      <Button type="primary" loading={busy} onClick={run} data-testid="search-run">
        {t('orders.search')}
      </Button>
      {result && <SearchResult result={result} />}
    </Space>
  );
}

export function SearchResult({ result }: { result: { found: orders.SearchFound[]; notFound: string[] } }) {
  return (
    <>
      <Card size="small" title={`${t('orders.found')} (${result.found.length})`}>
        <OrderTable
          data-testid="search-found"
          dataSource={result.found}
          pagination={{ pageSize: 50 }}
          extra={[
            {
              key: 'matchedBy',
              title: t('orders.matchedBy'),
              render: (_: unknown, r: any) => <Tag>{`${t(`orders.${r.matchedBy}`)}: ${r.matched}`}</Tag>,
            },
          ]}
        />
      </Card>
      {result.notFound.length > 0 && (
        <Alert
          type="warning"
          data-testid="search-not-found"
          message={`${t('orders.notFound')} (${result.notFound.length})`}
          description={result.notFound.join('\n')}
          style={{ whiteSpace: 'pre-wrap' }}
        />
      )}
    </>
  );
}

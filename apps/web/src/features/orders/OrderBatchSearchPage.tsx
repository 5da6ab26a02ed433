import { orders } from '@console/contract';
import { Button, Space, Typography, Upload } from 'antd';
import { useState } from 'react';
import { usePagedQuery } from '@/components/paged-table';
import { t, useI18n } from '@/lib';
import { batchSearch, downloadBatchResult } from './api/orders.ts';
import './i18n.ts';
import { SearchResult } from './OrderSearchPage.tsx';

/**
 * Batch Orders Search: upload a workbook of numbers → the orders found, paged on the server by
 * the search's id, the numbers not found, and a result workbook.
 */
export default function OrderBatchSearchPage() {
  useI18n();
  const [result, setResult] = useState<Awaited<ReturnType<typeof batchSearch>> | null>(null);
  const [busy, setBusy] = useState(false);
  const paged = usePagedQuery<typeof orders.orderBatchSearchFound, { searchId?: number }>(
    orders.orderBatchSearchFound,
    // The list is of one upload, whose summary is not in the URL: a reload starts anew.
    { query: { enabled: !!result }, url: false },
  );
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space>
        <Upload
          accept=".xls,.xlsx"
          maxCount={1}
          showUploadList={false}
          beforeUpload={async (file) => {
            setBusy(true);
            try {
              const r = await batchSearch(file);
              paged.setFilters({ searchId: r.searchId });
              setResult(r);
            } finally {
              setBusy(false);
            }
            return false;
          }}
        >
          <Button type="primary" loading={busy} data-testid="batch-search-upload">
            {t('orders.upload')}
          </Button>
        </Upload>
        {result && (
          <Button onClick={() => downloadBatchResult(result.resultFileId)} data-testid="batch-search-download">
            {t('orders.downloadResult')}
          </Button>
        )}
      </Space>
      <Typography.Text type="secondary">{t('orders.batchSearchHint')}</Typography.Text>
      {result && <SearchResult paged={paged} notFound={result.notFound} />}
    </Space>
  );
}

import { orders } from '@console/contract';
import { App, Button, Space, Typography, Upload } from 'antd';
import { useState } from 'react';
import { usePagedQuery } from '@/components/paged-table';
import { attempt } from '@/components/mutation.ts';
import { ApiError, errorText, t, useI18n } from '@/lib';
import { batchSearch, downloadBatchResult, downloadBatchSearchTemplate } from './api/orders.ts';
import './i18n.ts';
import { SearchResult } from './OrderSearchPage.tsx';

/**
 * Batch Orders Search: upload a workbook of numbers → the orders found, paged on the server by
 * the search's id, the numbers not found, and a result workbook.
 */
export default function OrderBatchSearchPage() {
  useI18n();
  const { message } = App.useApp();
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
            } catch (e) {
              // The client toasts other refusals ('Upload failed' and why); a 422 (the file's
              // problem: unreadable, empty, too many numbers) is the page's to show.
              if (e instanceof ApiError && e.code === 422)
                message.error(t('feedback.uploadFailed', { reason: errorText(e) }));
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
        <Button onClick={() => void attempt(message, downloadBatchSearchTemplate)} data-testid="batch-search-template">
          {t('orders.batchSearchTemplate')}
        </Button>
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

import { Button, Space, Typography, Upload } from 'antd';
import { useState } from 'react';
import { t, useI18n } from '@/lib';
import { batchSearch, downloadBatchResult } from './api/orders.ts';
import './i18n.ts';
import { SearchResult } from './OrderSearchPage.tsx';

/** Batch Orders Search: upload a workbook of numbers → the results and a result workbook. */
export default function OrderBatchSearchPage() {
  useI18n();
  const [result, setResult] = useState<Awaited<ReturnType<typeof batchSearch>> | null>(null);
  const [busy, setBusy] = useState(false);
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
              setResult(await batchSearch(file));
            } finally {
              setBusy(false);
            }
            return false;
          }}
        >
          <Button type="primary" loading={busy}>
            {t('orders.upload')}
          </Button>
        </Upload>
        {result && (
          <Button onClick={() => downloadBatchResult(result.resultFileId)}>{t('orders.downloadResult')}</Button>
        )}
      </Space>
      <Typography.Text type="secondary">{t('orders.batchSearchHint')}</Typography.Text>
      {result && <SearchResult result={result} />}
    </Space>
  );
}

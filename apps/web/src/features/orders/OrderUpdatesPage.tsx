import type { orders } from '@console/contract';

type BulkPreview = orders.BulkPreview;
import { Card, Space } from 'antd';
import { useState } from 'react';
import { t, useI18n } from '@/lib';
import { ChangePreview, CustomerSelect, SheetUpload } from './components/ChangePreview.tsx';
import './i18n.ts';
import './pages-i18n.ts';

/**
 * Updates (spec "order: updates"): change chosen fields of many orders from a sheet of order
 * numbers and the columns to change; the preview shows old and new values per field and the
 * orders refused (by status, or a value the order rules refuse), downloadable as a workbook to
 * fix and upload again; one apply changes all the others or none.
 */
export default function OrderUpdatesPage() {
  useI18n();
  const [customerId, setCustomerId] = useState<number>();
  const [preview, setPreview] = useState<BulkPreview | null>(null);
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="order-updates">
      <Card size="small">
        <CustomerSelect value={customerId} onChange={setCustomerId} />
        <SheetUpload
          kind="updates"
          customerId={customerId}
          hint={t('orderPages.updatesSheetHint')}
          onPreview={setPreview}
        />
      </Card>
      {preview && <ChangePreview kind="updates" preview={preview} onApplied={() => setPreview(null)} />}
    </Space>
  );
}

import { orderReviews as calls, type orderReviews } from '@console/contract';
import { Empty, Select, Space, Switch } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTabRecord } from '@/components/useTabRecord.ts';
import { t, useCall, useI18n } from '@/lib';
import { ReviewItemsTable } from './components/ReviewItemsTable.tsx';
import './i18n.ts';

/** A review's items (spec §2 orderReview.item): every item with its catalogue match and findings, filtered. */
export default function OrderReviewItemPage() {
  useI18n();
  const [params] = useSearchParams();
  const id = Number(params.get('id') ?? 0);
  const [catalogue, setCatalogue] = useState<orderReviews.CatalogueMatch | undefined>();
  const [flaggedOnly, setFlaggedOnly] = useState(false);
  // The tab names the review by its number, as its info page does (not "#12").
  const header = useCall(calls.orderReviewOrders, { id, offset: 0, limit: 1, order: 'asc' }, { enabled: id > 0 });
  useTabRecord(header.data?.review.reviewNo);
  if (!id) return <Empty />;
  const filters = { id, catalogue, flaggedOnly: flaggedOnly || undefined };
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space>
        {t('orderReviews.catalogue')}
        <Select
          allowClear
          style={{ width: 160 }}
          value={catalogue}
          onChange={setCatalogue}
          options={(['approved', 'pending', 'failed', 'unknown'] as const).map((c) => ({
            value: c,
            label: t(`orderReviews.catalogues.${c}`),
          }))}
          data-testid="review-items-catalogue"
        />
        <Switch checked={flaggedOnly} onChange={setFlaggedOnly} />
        {t('orderReviews.flaggedOnly')}
      </Space>
      <ReviewItemsTable key={JSON.stringify(filters)} filters={filters} />
    </Space>
  );
}

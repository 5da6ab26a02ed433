import type { orderReviews } from '@console/contract';
import { Space, Tag, Tooltip } from 'antd';
import { t } from '@/lib';

export function ReviewStatusTag({ status }: { status: orderReviews.OrderReviewStatus }) {
  return (
    <Tag color={status === 1 ? 'green' : 'gold'} data-testid="review-status">
      {t(`orderReviews.statuses.${status}`)}
    </Tag>
  );
}

/**
 * A review whose parse has not ended (it runs on the server's job queue) or failed: its state,
 * the reason on hover. Nothing once it is done: then the review status says it all.
 */
export function ReviewParseTag({ review }: { review: orderReviews.OrderReviewRow }) {
  if (review.parseState === 'done') return null;
  const tag = (
    <Tag color={review.parseState === 'failed' ? 'red' : 'blue'} data-testid="review-parse">
      {t(`orderReviews.parseStates.${review.parseState}`, { percent: review.parseProgress })}
    </Tag>
  );
  return review.parseError ? <Tooltip title={review.parseError}>{tag}</Tooltip> : tag;
}

const CATALOGUE_COLOR: Record<orderReviews.CatalogueMatch, string> = {
  approved: 'green',
  pending: 'gold',
  failed: 'red',
  unknown: 'default',
};

export function CatalogueTag({ match }: { match: orderReviews.CatalogueMatch }) {
  return (
    <Tag color={CATALOGUE_COLOR[match]} data-testid="review-catalogue">
      {t(`orderReviews.catalogues.${match}`)}
    </Tag>
  );
}

/** The findings of an order or an item: one tag each (red a problem, orange a note), the message beside. */
export function Findings({ findings }: { findings: orderReviews.ReviewFinding[] }) {
  if (!findings.length) return <Tag color="green">{t('orderReviews.noFindings')}</Tag>;
  return (
    <Space direction="vertical" size={2} data-testid="review-findings">
      {findings.map((f, i) => (
        <Tooltip key={i} title={`${f.check} / ${f.code}`}>
          <Tag color={f.severity === 'error' ? 'red' : 'orange'} style={{ whiteSpace: 'normal' }} data-code={f.code}>
            {f.message}
          </Tag>
        </Tooltip>
      ))}
    </Space>
  );
}

export const fileSize = (n: number) =>
  n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;

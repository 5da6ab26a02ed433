/**
 * What orders show of the item catalogue and the tax (issue 12), shared by the order detail and
 * the batch preview: an item's catalogue status as a tag, and an order's tax estimate with its
 * parts and its regime's notes (waived, over the per-order limit, incomplete data).
 */
import type { orders } from '@console/contract';
import { type App, Space, Tag, Tooltip, Typography } from 'antd';
import { registerMessages, t } from '@/lib';

registerMessages('taxEstimate', {
  'zh-chs': {
    catalogue: '商品备案',
    status_unknown: '未备案',
    status_pending: '审核中',
    status_failed: '未通过',
    status_approved: '已备案',
    status_none: '无 JAN',
    tax: '预估税费',
    regime_cbec: '跨境电商零售进口',
    regime_postal: '行邮税',
    value: '完税价格',
    duty: '关税',
    vat: '进口增值税',
    consumption: '消费税',
    postal: '行邮税额',
    waived: '税额 50 元及以下免征',
    overOrderLimit: '超过单次交易限值 5000 元，按全额税率估算',
    incomplete: '部分商品未备案通过，缺少其税务数据',
    yearlyLimit: '超过年度限值',
    yearlyLimitHint: '该订单将使收件人超过跨境电商个人年度交易限值 26,000 元',
    estimateNote: '按参考汇率估算，以海关核定为准',
    warningsTitle: '订单已保存，请注意',
    totalLine: '预估税费：CNY {total}',
  },
  en: {
    catalogue: 'Catalogue',
    status_unknown: 'Not registered',
    status_pending: 'Under review',
    status_failed: 'Failed review',
    status_approved: 'Approved',
    status_none: 'No JAN',
    tax: 'Tax estimate',
    regime_cbec: 'Cross-border e-commerce retail import',
    regime_postal: 'Postal articles tax',
    value: 'Dutiable value',
    duty: 'Duty',
    vat: 'Import VAT',
    consumption: 'Consumption tax',
    postal: 'Postal articles tax',
    waived: 'Waived: CNY 50 or less',
    overOrderLimit: 'Over the CNY 5,000 per-order limit: estimated at full rates',
    incomplete: 'Some items are not approved in the catalogue: their tax data is missing',
    yearlyLimit: 'Past the yearly limit',
    yearlyLimitHint: 'This order would take the recipient past the CNY 26,000 yearly cross-border shopping limit',
    estimateNote: 'Estimated by reference exchange rates; customs decides the tax',
    warningsTitle: 'The order is saved; please note',
    totalLine: 'Tax estimate: CNY {total}',
  },
});

const STATUS_COLOR: Record<orders.CatalogueMark, string> = {
  unknown: 'red',
  pending: 'orange',
  failed: 'red',
  approved: 'green',
};

export function CatalogueStatusTag({ status }: { status: orders.CatalogueMark | null }) {
  if (!status) return <Tag data-testid="catalogue-status">{t('taxEstimate.status_none')}</Tag>;
  return (
    <Tag color={STATUS_COLOR[status]} data-testid="catalogue-status" data-status={status}>
      {t(`taxEstimate.status_${status}`)}
    </Tag>
  );
}

export function YearlyLimitTag() {
  return (
    <Tooltip title={t('taxEstimate.yearlyLimitHint')}>
      <Tag color="red" data-testid="yearly-limit">
        {t('taxEstimate.yearlyLimit')}
      </Tag>
    </Tooltip>
  );
}

/** The total with its parts in a tooltip (compact, for tables). */
export function TaxEstimateCell({ estimate }: { estimate: orders.TaxEstimate | null }) {
  if (!estimate) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Tooltip title={<TaxParts estimate={estimate} />}>
      <span data-testid="tax-estimate">
        CNY {estimate.total}
        {estimate.incomplete || estimate.overOrderLimit ? ' *' : ''}
      </span>
    </Tooltip>
  );
}

function TaxParts({ estimate: e }: { estimate: orders.TaxEstimate }) {
  const parts: [string, string][] =
    e.regime === 'postal'
      ? [
          ['value', e.value],
          ['postal', e.postal],
        ]
      : [
          ['value', e.value],
          ['duty', e.duty],
          ['vat', e.vat],
          ['consumption', e.consumption],
        ];
  return (
    <div>
      <div>{t(`taxEstimate.regime_${e.regime}`)}</div>
      {parts.map(([k, v]) => (
        <div key={k}>
          {t(`taxEstimate.${k}`)}: CNY {v}
        </div>
      ))}
      {e.waived && <div>{t('taxEstimate.waived')}</div>}
      {e.overOrderLimit && <div>{t('taxEstimate.overOrderLimit')}</div>}
      {e.incomplete && <div>{t('taxEstimate.incomplete')}</div>}
    </div>
  );
}

/** The estimate in full (order detail). */
export function TaxEstimateBlock({ estimate: e }: { estimate: orders.TaxEstimate | null }) {
  if (!e) return <Typography.Text type="secondary">—</Typography.Text>;
  const parts: [string, string][] =
    e.regime === 'postal'
      ? [['postal', e.postal]]
      : [
          ['duty', e.duty],
          ['vat', e.vat],
          ['consumption', e.consumption],
        ];
  return (
    <Space direction="vertical" size={2} data-testid="tax-estimate">
      <Space wrap>
        <Typography.Text strong data-testid="tax-estimate-total">
          CNY {e.total}
        </Typography.Text>
        <Tag>{t(`taxEstimate.regime_${e.regime}`)}</Tag>
        {e.waived && <Tag color="green">{t('taxEstimate.waived')}</Tag>}
        {e.overOrderLimit && <Tag color="orange">{t('taxEstimate.overOrderLimit')}</Tag>}
        {e.incomplete && <Tag color="orange">{t('taxEstimate.incomplete')}</Tag>}
      </Space>
      <Typography.Text type="secondary">
        {t('taxEstimate.value')}: CNY {e.value}
        {parts.map(([k, v]) => `  ·  ${t(`taxEstimate.${k}`)}: CNY ${v}`).join('')}
      </Typography.Text>
      <Typography.Text type="secondary">{t('taxEstimate.estimateNote')}</Typography.Text>
    </Space>
  );
}

/**
 * After a create or update: the warnings it went through with (items not approved in the
 * catalogue, the recipient past the yearly limit) in a dialog the user closes, with the estimate.
 */
export function showOrderWarnings(
  modal: ReturnType<typeof App.useApp>['modal'],
  r: { warnings: orders.OrderWarning[]; taxEstimate: orders.TaxEstimate | null },
) {
  if (!r.warnings.length) return;
  modal.warning({
    title: t('taxEstimate.warningsTitle'),
    content: (
      <div data-testid="order-warnings">
        <ul style={{ paddingLeft: 18, margin: 0 }}>
          {r.warnings.map((w) => (
            <li key={`${w.field}-${w.message}`}>{w.message}</li>
          ))}
        </ul>
        {r.taxEstimate && <p style={{ marginTop: 8 }}>{t('taxEstimate.totalLine', { total: r.taxEstimate.total })}</p>}
      </div>
    ),
  });
}

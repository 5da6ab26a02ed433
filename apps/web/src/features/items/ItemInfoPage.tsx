import { items } from '@console/contract';
import { Alert, Button, Card, Descriptions, Empty, Space, Table, Tag, Timeline } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { useTabRecord } from '@/components/useTabRecord.ts';
import { formatTime, invalidateCall, t, useI18n } from '@/lib';
import { useItem } from './api/useItem.ts';
import { AdjustmentDecision } from './components/AdjustmentDecision.tsx';
import { Changes } from './components/Changes.tsx';
import { rateText } from './components/ItemForm.tsx';
import { ReviewActions } from './components/ReviewActions.tsx';
import { ItemThumb, StatusTag } from './components/shared.tsx';
import { useRole } from './components/useRole.ts';
import './i18n.ts';

/** Item Info: every field of spec §3 Item, the whole history (oldest first) and every adjustment. */
export default function ItemInfoPage() {
  const { localized } = useI18n();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const role = useRole();
  const id = Number(params.get('id') ?? 0);
  const q = useItem(id);
  useTabRecord(q.data?.jan);
  const it = q.data;
  if (!id) return <Empty />;
  if (q.isError) return <Empty description={q.error.message} />;
  if (!it) return <Card loading />;
  const refresh = async () => {
    await invalidateCall(items.item);
    await invalidateCall(items.items);
    await invalidateCall(items.itemAdjustments);
  };
  const D = Descriptions.Item;
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="item-info">
      {it.status === 'failed' && it.reason && (
        <Alert
          type="error"
          showIcon
          message={t('items.failReason')}
          description={it.reason}
          data-testid="info-reason"
        />
      )}
      <Card
        size="small"
        title={`${t('items.jan')}: ${it.jan}`}
        extra={
          <Space>
            <StatusTag status={it.status} />
            {role.isOperator && <ReviewActions item={it} onDone={refresh} size="middle" />}
            <Button type="primary" onClick={() => navigate(`/item/update?id=${it.id}`)} data-testid="info-edit">
              {it.status === 'failed' ? t('items.resubmit') : t('items.edit')}
            </Button>
          </Space>
        }
      >
        <Descriptions size="small" column={3} bordered>
          <D label={t('items.image')}>
            <ItemThumb imageId={it.imageId} size={96} />
          </D>
          <D label={t('items.customer')}>{it.customerCode}</D>
          <D label={t('items.group')}>{it.group}</D>
          <D label={t('items.nameZh')}>{it.nameZh}</D>
          <D label={t('items.nameEn')}>{it.nameEn}</D>
          <D label={t('items.nameJa')}>{it.nameJa}</D>
          <D label={t('items.specs')}>{it.specs}</D>
          <D label={t('items.part')}>{it.part ? localized(it.part.name) : ''}</D>
          <D label={t('items.brand')}>{it.brand ? localized(it.brand.name) : ''}</D>
          <D label={t('items.category')}>
            {it.category ? it.category.path.map(localized).join(' / ') || localized(it.category.name) : ''}
          </D>
          <D label={t('items.newCategory')}>{it.newCategory}</D>
          <D label={t('items.exportCategory')}>
            {it.exportCategory ? `${it.exportCategory.code} ${localized(it.exportCategory.name)}` : ''}
          </D>
          <D label={t('items.tariff')}>{it.tariff}</D>
          <D label={t('items.netWeightG')}>{it.netWeightG}</D>
          <D label={t('items.origin')}>{it.origin}</D>
          <D label={t('items.clearancePrice')}>{`${it.clearancePrice} CNY`}</D>
          <D label={t('items.declarationPrice')}>{`${it.declarationPrice} JPY`}</D>
          <D label={t('items.essentials')}>{it.essentials}</D>
          <D label={t('items.taxCode')}>{it.tax?.code}</D>
          <D label={t('items.taxName')}>{it.tax ? localized(it.tax.name) : ''}</D>
          <D label={t('items.taxUnit')}>{it.tax?.unit}</D>
          <D label={t('items.taxAmount')}>{it.tax ? `${it.tax.amount} CNY` : ''}</D>
          <D label={t('items.taxRate')}>{it.tax ? rateText(it.tax.rate) : ''}</D>
          <D label={t('items.createdAt')}>{formatTime(it.createdAt)}</D>
          <D label={t('items.updatedAt')}>{formatTime(it.updatedAt)}</D>
        </Descriptions>
      </Card>
      <Card size="small" title={t('items.adjustments')} data-testid="info-adjustments">
        <Table
          rowKey="id"
          size="small"
          pagination={false}
          dataSource={it.adjustments}
          locale={{ emptyText: t('items.noAdjustments') }}
          columns={[
            {
              key: 'changes',
              title: t('items.before') + ' → ' + t('items.after'),
              render: (_, a) => <Changes changes={a.changes} />,
            },
            { key: 'note', dataIndex: 'note', title: t('items.note') },
            { key: 'by', dataIndex: 'adjustedBy', title: t('items.by') },
            { key: 'at', title: t('items.at'), render: (_, a) => formatTime(a.adjustedAt) },
            {
              key: 'status',
              title: t('items.adjStatus'),
              render: (_, a) => (
                <span>
                  <Tag data-testid={`adj-status-${a.id}`}>{t(`items.adjStatuses.${a.status}`)}</Tag>
                  {a.decidedBy && `${a.decidedBy} ${a.decidedAt ? formatTime(a.decidedAt) : ''}`}
                  {a.decisionNote && ` · ${a.decisionNote}`}
                </span>
              ),
            },
            {
              key: 'decision',
              title: t('items.decision'),
              render: (_, a) => (!role.isOperator ? <AdjustmentDecision adj={a} onDone={refresh} /> : null),
            },
          ]}
        />
      </Card>
      <Card size="small" title={t('items.history')} data-testid="info-history">
        {it.history.length ? (
          <Timeline
            items={it.history.map((e) => ({
              color: e.kind === 'failed' || e.kind === 'rejected' ? 'red' : e.kind === 'approved' ? 'green' : 'blue',
              children: (
                <div data-testid={`history-${e.kind}`}>
                  <div>
                    {formatTime(e.at)} · <b>{t(`items.events.${e.kind}`)}</b> · {e.by} ·{' '}
                    {t(`items.statuses.${e.status}`)}
                  </div>
                  {e.note && <div style={{ color: '#555' }}>{e.note}</div>}
                  {e.changes.length > 0 && <Changes changes={e.changes} />}
                </div>
              ),
            }))}
          />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('items.noHistory')} />
        )}
      </Card>
    </Space>
  );
}

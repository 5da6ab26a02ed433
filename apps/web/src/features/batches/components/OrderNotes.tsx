import type { batches } from '@console/contract';
import { Alert, Space, Table } from 'antd';
import { t } from '@/lib';
import { CatalogueStatusTag, TaxEstimateCell, YearlyLimitTag } from '@/components/tax-estimate.tsx';
import '../i18n.ts';

/**
 * The preview's notes on the orders to be made: each order's items not approved in the catalogue,
 * its tax estimate and the yearly limit; nothing when there are none.
 */
export function OrderNotes({ batch }: { batch: batches.BatchProgress }) {
  if (batch.orderNotes.length === 0) return null;
  return (
    <Alert
      type={batch.notesSummary.unregisteredItems || batch.notesSummary.yearlyLimitOrders ? 'warning' : 'info'}
      data-testid="order-notes"
      message={t('batches.notesTitle', {
        unregistered: batch.notesSummary.unregisteredItems,
        yearly: batch.notesSummary.yearlyLimitOrders,
        tax: batch.notesSummary.taxTotal,
        taxed: batch.notesSummary.taxedOrders,
      })}
      description={
        <Table
          size="small"
          rowKey="row"
          dataSource={batch.orderNotes}
          pagination={{ pageSize: 10 }}
          data-testid="notes-table"
          onRow={(o) => ({ 'data-order-no': o.orderNo }) as React.HTMLAttributes<HTMLElement>}
          columns={[
            { title: t('batches.row'), dataIndex: 'row', width: 70 },
            { title: t('batches.orderNo'), dataIndex: 'orderNo', width: 160 },
            {
              title: t('batches.notesCatalogue'),
              render: (_, o) =>
                o.items.length ? (
                  <Space direction="vertical" size={2}>
                    {o.items.map((i) => (
                      <span key={`${i.row}-${i.jan}`}>
                        {i.jan} <CatalogueStatusTag status={i.status} />
                      </span>
                    ))}
                  </Space>
                ) : o.taxEstimate?.incomplete ? (
                  // No flagged JAN, yet an item lacks catalogue data: one without a JAN (issue 36 #22).
                  <span data-testid="catalogue-no-jan">{t('batches.notesNoJan')}</span>
                ) : (
                  <span data-testid="catalogue-ok">{t('batches.notesAllApproved')}</span>
                ),
            },
            {
              title: t('taxEstimate.tax'),
              width: 140,
              render: (_, o) => <TaxEstimateCell estimate={o.taxEstimate} />,
            },
            {
              title: t('batches.notesYearly'),
              width: 130,
              render: (_, o) => (o.yearlyLimit ? <YearlyLimitTag /> : null),
            },
          ]}
        />
      }
    />
  );
}

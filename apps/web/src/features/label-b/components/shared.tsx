import type { labelB as L } from '@console/contract';
import { Table, Tag, Typography } from 'antd';
import { t } from '@/lib';

const STATUS_COLOR: Record<L.LabelBStatus, string> = {
  draft: 'blue',
  applying: 'processing',
  done: 'green',
  failed: 'red',
};
export const StatusTag = ({ status }: { status: L.LabelBStatus }) => (
  <Tag color={STATUS_COLOR[status]} data-testid="labelb-status">
    {t(`labelB.statuses.${status}`)}
  </Tag>
);

const OUTCOME_COLOR = { ok: 'blue', refused: 'red', changed: 'green' } as const;
const addressText = (a: L.LabelBAddress | null) =>
  a ? `${a.name} ${a.phone} ${a.province}${a.city}${a.district}${a.address}` : '-';

/**
 * The rows of one batch (the dry run's answer or the batch page): old and new address side by
 * side, the outcome and why. All rows are in the answer (at most 10,000), paged in the browser.
 */
export function RowsTable({ rows }: { rows: L.LabelBLine[] }) {
  const l = (k: string) => t(`labelB.${k}`);
  return (
    <Table<L.LabelBLine>
      rowKey="rowNo"
      size="small"
      dataSource={rows}
      scroll={{ x: 'max-content' }}
      pagination={{ defaultPageSize: 20, showSizeChanger: true }}
      data-testid="labelb-rows"
      onRow={(r) => ({ 'data-order-no': r.orderNo, 'data-outcome': r.outcome }) as never}
      columns={[
        { key: 'rowNo', title: l('row'), dataIndex: 'rowNo', width: 60 },
        { key: 'orderNo', title: l('orderNo'), dataIndex: 'orderNo' },
        { key: 'old', title: l('oldAddress'), render: (_, r) => addressText(r.oldAddress) },
        { key: 'new', title: l('newAddress'), render: (_, r) => addressText(r.newAddress) },
        { key: 'division', title: l('division'), render: (_, r) => r.divisionCode ?? '-' },
        {
          key: 'outcome',
          title: l('outcome'),
          render: (_, r) => <Tag color={OUTCOME_COLOR[r.outcome]}>{t(`labelB.outcomes.${r.outcome}`)}</Tag>,
        },
        {
          key: 'note',
          title: l('note'),
          render: (_, r) =>
            r.reason ? (
              <Typography.Text type="danger">{r.reason}</Typography.Text>
            ) : r.warning ? (
              <Typography.Text type="warning">{r.warning}</Typography.Text>
            ) : null,
        },
        {
          key: 'labelB',
          title: l('labelB'),
          render: (_, r) => (r.labelB ? <Tag color="orange">B</Tag> : null),
        },
      ]}
    />
  );
}

import { items } from '@console/contract';
import { Space, Table } from 'antd';
import { Link } from 'react-router';
import { PagedTable, usePagedQuery } from '@/components/paged-table';
import { formatTime, invalidateCall, t, useI18n } from '@/lib';
import { adjustmentsCall } from './api/useAdjustments.ts';
import { AdjustmentDecision } from './components/AdjustmentDecision.tsx';
import { Changes } from './components/Changes.tsx';
import { useRole } from './components/useRole.ts';
import './i18n.ts';

type Row = items.AdjustmentRow;

/**
 * unAdopt (spec §2): operators' adjustments the customer has not answered yet — before and
 * after, who, when — each adopted or rejected after a confirmation. Operators see them too
 * (what customers still owe an answer on), without the buttons.
 */
export default function UnAdoptPage() {
  useI18n();
  const role = useRole();
  const paged = usePagedQuery<typeof items.itemAdjustments, { status: 'pending' }>(adjustmentsCall, {
    filters: { status: 'pending' },
  });
  const done = async () => {
    await invalidateCall(items.itemAdjustments);
    await invalidateCall(items.items);
    await invalidateCall(items.item);
  };
  const columns: NonNullable<Parameters<typeof Table<Row>>[0]['columns']> = [
    {
      key: 'jan',
      title: t('items.jan'),
      render: (_, a) => (
        <Link to={`/item/info?id=${a.itemId}`} data-testid={`adj-item-${a.jan}`}>
          {a.jan}
        </Link>
      ),
    },
    { key: 'itemName', dataIndex: 'itemName', title: t('items.name') },
    ...(role.isCustomer ? [] : [{ key: 'customerCode', dataIndex: 'customerCode', title: t('items.customer') }]),
    {
      key: 'changes',
      title: `${t('items.before')} → ${t('items.after')}`,
      render: (_, a) => <Changes changes={a.changes} />,
    },
    { key: 'note', dataIndex: 'note', title: t('items.note') },
    { key: 'adjustedBy', dataIndex: 'adjustedBy', title: t('items.by') },
    { key: 'adjustedAt', title: t('items.at'), render: (_, a) => formatTime(a.adjustedAt) },
    ...(role.isOperator
      ? []
      : [
          {
            key: 'actions',
            title: t('items.actions'),
            render: (_: unknown, a: Row) => <AdjustmentDecision adj={a} onDone={done} />,
          },
        ]),
  ];
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <PagedTable<Row>
        rowKey="id"
        size="small"
        scroll={{ x: 'max-content' }}
        data-testid="adj-table"
        paged={paged}
        columns={columns}
        locale={{ emptyText: t('items.unAdoptEmpty') }}
      />
    </Space>
  );
}

import type { items } from '@console/contract';
import { App, Button, Input, Popconfirm, Space } from 'antd';
import { useState } from 'react';
import { attempt } from '@/components/mutation.ts';
import { t } from '@/lib';
import { adoptAdjustment } from '../api/adoptAdjustment.ts';
import { rejectAdjustment } from '../api/rejectAdjustment.ts';

/** The customer's answer to an operator's adjustment: adopt or reject, each after a confirmation. */
export function AdjustmentDecision({ adj, onDone }: { adj: items.AdjustmentRow; onDone: () => unknown }) {
  const { message } = App.useApp();
  const [reason, setReason] = useState('');
  if (adj.status !== 'pending') return null;
  return (
    <Space size={0}>
      <Popconfirm
        title={t('items.adoptConfirm')}
        okText={t('items.adopt')}
        cancelText={t('items.cancel')}
        okButtonProps={{ 'data-testid': 'adopt-ok' }}
        onConfirm={async () => {
          if ((await attempt(message, () => adoptAdjustment(adj.id))) === undefined) return;
          message.success(t('items.adopted'));
          await onDone();
        }}
      >
        <Button type="link" size="small" data-testid={`adopt-${adj.id}`}>
          {t('items.adopt')}
        </Button>
      </Popconfirm>
      <Popconfirm
        title={t('items.rejectConfirm')}
        description={
          <Input.TextArea
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            placeholder={t('items.rejectReason')}
            maxLength={500}
            autoSize={{ minRows: 2 }}
            data-testid="reject-reason"
          />
        }
        okText={t('items.reject')}
        cancelText={t('items.cancel')}
        okButtonProps={{ danger: true, 'data-testid': 'reject-ok' }}
        onConfirm={async () => {
          if ((await attempt(message, () => rejectAdjustment(adj.id, reason.trim()))) === undefined) return;
          message.success(t('items.rejected'));
          setReason('');
          await onDone();
        }}
      >
        <Button type="link" size="small" danger data-testid={`reject-${adj.id}`}>
          {t('items.reject')}
        </Button>
      </Popconfirm>
    </Space>
  );
}

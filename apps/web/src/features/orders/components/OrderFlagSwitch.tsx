import { orders } from '@console/contract';
import { App, Switch, Tag } from 'antd';
import { useState } from 'react';
import { usePermission } from '@/components/Permission.tsx';
import { invalidateCall, t } from '@/lib';
import { setFlag } from '../api/orders.ts';

/**
 * One of an order's flags (GNS update, push S, push price, whole set) on its detail: a switch
 * that sets it through order/setFlag for a user who may update orders (issue 28 #17: the call
 * was served but the flags were only shown), a tag for everyone else.
 */
export function OrderFlagSwitch({
  id,
  flag,
  value,
}: {
  id: number;
  flag: (typeof orders.flagName.options)[number];
  value: boolean;
}) {
  const { message } = App.useApp();
  const canUpdate = usePermission('order.update');
  const [busy, setBusy] = useState(false);
  if (!canUpdate) return <Tag color={value ? 'blue' : 'default'}>{value ? t('orders.yes') : t('orders.no')}</Tag>;
  const change = async (next: boolean) => {
    setBusy(true);
    try {
      await setFlag({ ids: [id], flag, value: next });
      await Promise.all([invalidateCall(orders.order), invalidateCall(orders.orderList)]);
      void message.success(t('orders.flagSaved'));
    } catch {
      // The call's own message is shown; the switch stays as the server has it.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Switch
      size="small"
      checked={value}
      loading={busy}
      checkedChildren={t('orders.yes')}
      unCheckedChildren={t('orders.no')}
      onChange={(v) => void change(v)}
      data-testid={`order-flag-${flag}`}
    />
  );
}

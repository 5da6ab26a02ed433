import type { orders } from '@console/contract';
import { App, Button, Input, Modal, Popconfirm, Typography } from 'antd';
import { useState } from 'react';
import { attempt } from '@/components/mutation.ts';
import { t } from '@/lib';
import { deleteOrders } from '../api/orders.ts';

type Row = orders.OrderRow;

/**
 * A printed order with a waybill, still deletable: its label is out in the world and becomes
 * void when deleted. (Received, shipped and released orders cannot be deleted: the server
 * refuses them with its own message, so no typed confirmation is asked for those.)
 */
export const hasLiveLabel = (r: Row) =>
  !!r.waybillNo &&
  (r.status === 'created' || r.status === 'printed') &&
  (r.printFlag || r.printCount > 0 || r.status === 'printed');

/** The typed confirmation matches when it holds exactly the numbers of the printed orders. */
export function typedMatches(typed: string, orderNos: readonly string[]): boolean {
  const given = new Set(typed.split(/[\s,，;；]+/u).filter(Boolean));
  return given.size === orderNos.length && orderNos.every((n) => given.has(n));
}

/**
 * Order List's delete. Unprinted orders: a plain confirmation. Printed orders with a
 * waybill: say that their labels become void and ask for their order numbers typed. A
 * refused delete (shipped, received, intercepted: 409) shows the server's message.
 */
export function DeleteOrders({ rows, onDeleted }: { rows: Row[]; onDeleted: () => Promise<unknown> }) {
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const printed = rows.filter(hasLiveLabel).map((r) => r.orderNo);
  const run = async () => {
    setBusy(true);
    try {
      const done = await attempt(message, () => deleteOrders(rows.map((r) => r.id)));
      if (done === undefined) return;
      message.success(t('orders.deleted'));
      setOpen(false);
      await onDeleted();
    } finally {
      setBusy(false);
    }
  };
  const button = (onClick?: () => void) => (
    <Button danger disabled={!rows.length} onClick={onClick} data-testid="list-delete">
      {t('orders.delete')}
    </Button>
  );
  if (!printed.length)
    return (
      <Popconfirm
        title={t('orders.deleteConfirm')}
        disabled={!rows.length}
        onConfirm={run}
        okButtonProps={{ 'data-testid': 'list-delete-ok' } as never}
      >
        {button()}
      </Popconfirm>
    );
  return (
    <>
      {button(() => (setTyped(''), setOpen(true)))}
      <Modal
        open={open}
        title={t('orders.deletePrintedTitle', { count: printed.length })}
        okText={t('orders.delete')}
        okButtonProps={
          { danger: true, disabled: !typedMatches(typed, printed), 'data-testid': 'delete-printed-ok' } as never
        }
        confirmLoading={busy}
        onOk={run}
        onCancel={() => setOpen(false)}
      >
        <Typography.Paragraph data-testid="delete-printed-warning">
          {t('orders.deletePrintedVoid', { orderNos: printed.join(', ') })}
        </Typography.Paragraph>
        <Typography.Paragraph type="secondary">{t('orders.deletePrintedType')}</Typography.Paragraph>
        <Input.TextArea
          autoSize={{ minRows: 1, maxRows: 4 }}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          data-testid="delete-printed-input"
        />
      </Modal>
    </>
  );
}

import type { storageOrders as S } from '@console/contract';
import { App, Input, InputNumber, Modal } from 'antd';
import { Form, validateForSubmit } from '@/components/form.tsx';
import { useEffect, useState } from 'react';
import { ApiError, errorText, invalidateCall, t } from '@/lib';
import { reweighOrder, storageLinesCall } from '../api/storageOrders.ts';

type Values = { grossWeightG: number; reason: string };

/**
 * An operator's re-weigh of a received order (issue 26): the measured weight and a reason, then a
 * confirmation naming the change, since a charged freight is re-priced. The server checks the
 * weight (a 422 shows on its field).
 */
export function ReweighModal({ line, onClose }: { line: S.StorageLine | null; onClose: () => void }) {
  const { message, modal } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const order = line?.order ?? null;
  useEffect(() => {
    if (line) form.resetFields();
  }, [line, form]);

  const send = async (v: Values) => {
    setBusy(true);
    try {
      const r = await reweighOrder({ orderId: order!.id, grossWeightG: v.grossWeightG, reason: v.reason });
      void message.success(
        r.adjustment
          ? t('storageOrders.reweighAdjusted', { to: r.grossWeightG, ...r.adjustment })
          : t('storageOrders.reweighDone', { to: r.grossWeightG }),
      );
      void invalidateCall(storageLinesCall);
      onClose();
    } catch (e) {
      if (e instanceof ApiError && Object.keys(e.fieldErrors).length)
        form.setFields(Object.entries(e.fieldErrors).map(([name, errors]) => ({ name: name as never, errors })));
      else void message.error(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  const onOk = async () => {
    const v = await validateForSubmit(form);
    modal.confirm({
      title: t('storageOrders.reweigh'),
      content: t('storageOrders.reweighConfirm', {
        orderNo: order!.orderNo,
        from: line!.measuredWeightG === null ? '—' : `${line!.measuredWeightG} g`,
        to: v.grossWeightG,
      }),
      okButtonProps: { 'data-testid': 'reweigh-confirm' } as never,
      onOk: () => send(v),
    });
  };

  return (
    <Modal
      open={!!order}
      title={order ? t('storageOrders.reweighTitle', { orderNo: order.orderNo }) : ''}
      onCancel={onClose}
      onOk={() => void onOk().catch(() => undefined)}
      confirmLoading={busy}
      okButtonProps={{ 'data-testid': 'reweigh-submit' } as never}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" data-testid="reweigh-form">
        <Form.Item
          name="grossWeightG"
          label={t('storageOrders.reweighWeight')}
          rules={[{ required: true, message: t('storageOrders.reweighWeight') }]}
        >
          <InputNumber style={{ width: 200 }} data-testid="reweigh-weight" />
        </Form.Item>
        <Form.Item
          name="reason"
          label={t('storageOrders.reweighReason')}
          rules={[{ required: true, whitespace: true, message: t('storageOrders.reweighReason') }]}
        >
          <Input maxLength={200} data-testid="reweigh-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

import type { orders } from '@console/contract';
import { Alert, App, Input, Modal } from 'antd';
import { Form, validateForSubmit } from '@/components/form.tsx';
import { useEffect, useState } from 'react';
import { ApiError, errorText, t } from '@/lib';
import { fixBoxError } from '../api/orders.ts';

type Row = Pick<orders.OrderRow, 'id' | 'orderNo'> & {
  boxNo?: string | null;
  splitWaybillNo?: string | null;
  /** The error the user is asked to fix, shown above the form. */
  reason?: string | null;
};

/**
 * The box-C error fix (spec §2 order.updateBoxcError, call order/error/boxcUpdate; issue 28 #16):
 * an error order of a channel with boxes gets its box and split waybill numbers corrected. The
 * server saves them and clears the error unless its reason is about the recipient (then it says
 * so, and the recipient is fixed with Fix).
 */
export function BoxFixModal({ order, onClose }: { order: Row | null; onClose: (saved: boolean) => void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<{ boxNo: string; splitWaybillNo?: string }>();
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (order) form.setFieldsValue({ boxNo: order.boxNo ?? '', splitWaybillNo: order.splitWaybillNo ?? '' });
  }, [order, form]);

  const save = async () => {
    const v = await validateForSubmit(form).catch(() => null);
    if (!v || !order) return;
    setSaving(true);
    try {
      const r = await fixBoxError({
        id: order.id,
        boxNo: v.boxNo.trim(),
        splitWaybillNo: v.splitWaybillNo?.trim() || undefined,
      });
      if (r.cleared) void message.success(t('orders.boxFixed'));
      else void message.warning(t('orders.boxSavedStillError'));
      onClose(true);
    } catch (e) {
      if (e instanceof ApiError && e.code === 422)
        form.setFields(Object.entries(e.fieldErrors).map(([name, errors]) => ({ name: name as never, errors })));
      else void message.error(errorText(e));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={order !== null}
      title={order ? t('orders.fixBoxTitle', { orderNo: order.orderNo }) : ''}
      onCancel={() => onClose(false)}
      onOk={() => void save()}
      confirmLoading={saving}
      okButtonProps={{ 'data-testid': 'box-fix-save' } as never}
      destroyOnHidden
    >
      {order?.reason && (
        <Alert
          type="error"
          showIcon
          message={t('orders.fixReason')}
          description={order.reason}
          data-testid="fix-reason"
          style={{ marginBottom: 8 }}
        />
      )}
      <Alert type="info" showIcon message={t('orders.fixBoxHint')} style={{ marginBottom: 12 }} />
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item
          name="boxNo"
          label={t('orders.boxNo')}
          rules={[{ required: true, whitespace: true, message: t('orders.boxNoRequired') }]}
        >
          <Input maxLength={64} data-testid="box-fix-box-no" />
        </Form.Item>
        <Form.Item name="splitWaybillNo" label={t('orders.splitWaybillNo')}>
          <Input maxLength={64} data-testid="box-fix-split" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

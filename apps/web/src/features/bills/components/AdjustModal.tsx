import { reference } from '@console/contract';
import { App, Input, Modal, Select } from 'antd';
import { Form, validateForSubmit } from '@/components/form.tsx';
import { useState } from 'react';
import { CustomerSelect } from '@/components/CustomerSelect.tsx';
import { invalidateCall, t, useCall } from '@/lib';
import { adjustBill, billLinesCall, billMonthsCall, billsCall } from '../api/bills.ts';

/** An operator's manual adjustment: a new signed line with a reason on the customer's open bill. */
export function AdjustModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm();
  const { message } = App.useApp();
  const [saving, setSaving] = useState(false);
  const currencies = useCall(reference.currencies, {}, { enabled: open });
  const submit = async () => {
    const v = await validateForSubmit(form);
    setSaving(true);
    try {
      await adjustBill({ ...v, amount: String(v.amount).trim() });
      void message.success(t('bills.adjusted'));
      await Promise.all([invalidateCall(billsCall), invalidateCall(billLinesCall), invalidateCall(billMonthsCall)]);
      form.resetFields();
      onClose();
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={open}
      title={t('bills.adjustTitle')}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={saving}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={{ currency: 'JPY' }}>
        <Form.Item name="customerId" label={t('bills.customer')} rules={[{ required: true }]}>
          <CustomerSelect enabled={open} />
        </Form.Item>
        <Form.Item name="currency" label={t('bills.currency')} rules={[{ required: true }]}>
          <Select options={(currencies.data ?? []).map((c: { code: string }) => ({ value: c.code, label: c.code }))} />
        </Form.Item>
        <Form.Item
          name="amount"
          label={t('bills.amount')}
          extra={t('bills.adjustAmountHint')}
          rules={[{ required: true }]}
        >
          <Input maxLength={20} data-testid="adjust-amount" />
        </Form.Item>
        <Form.Item name="reason" label={t('bills.reason')} rules={[{ required: true }]}>
          <Input.TextArea maxLength={500} rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

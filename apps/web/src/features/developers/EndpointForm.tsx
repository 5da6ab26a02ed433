import { type CallResponse, v1, webhooks } from '@console/contract';
import { App, Input, Modal, Select, Switch } from 'antd';
import { useEffect, useState } from 'react';
import { CustomerSelect } from '@/components/CustomerSelect.tsx';
import { Form, validateForSubmit } from '@/components/form.tsx';
import { ApiError, errorText, t } from '@/lib';
import { createEndpoint, updateEndpoint } from './api/developers.ts';
import './i18n.ts';

export type Endpoint = CallResponse<typeof webhooks.webhookEndpointList>['list'][number];
type Values = {
  url: string;
  description?: string;
  eventTypes: Endpoint['eventTypes'];
  active: boolean;
  customerId?: number;
};

/** The names of the event types with their meaning (the v1 document's words) on hover. */
export const eventOptions = Object.entries(v1.webhookEventTypes).map(([value, title]) => ({
  value,
  label: value,
  title,
}));

/**
 * Making or changing a webhook endpoint. An agent names the customer it is for (fixed once
 * made); the signing secret of a new endpoint goes to `onMade`, to be shown once.
 */
export function EndpointForm({
  open,
  editing,
  isAgent,
  onClose,
  onMade,
}: {
  open: boolean;
  editing: Endpoint | null;
  isAgent: boolean;
  onClose: () => void;
  onMade: (secret: string) => void;
}) {
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (editing) form.setFieldsValue({ ...editing });
  }, [open, editing, form]);

  const save = async () => {
    const v = await validateForSubmit(form);
    setSaving(true);
    try {
      const body = {
        url: v.url.trim(),
        description: v.description?.trim() ?? '',
        eventTypes: v.eventTypes,
        active: v.active,
      };
      if (editing) {
        await updateEndpoint({ id: editing.id, ...body });
        void message.success(t('dev.saved'));
        onClose();
      } else {
        const made = await createEndpoint({ ...body, ...(isAgent ? { customerId: v.customerId } : {}) });
        onClose();
        onMade(made.secret);
      }
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
      open={open}
      title={editing ? t('dev.editEndpoint') : t('dev.newEndpoint')}
      onCancel={onClose}
      onOk={() => void save().catch(() => undefined)}
      confirmLoading={saving}
      okText={editing ? t('dev.save') : t('dev.create')}
      cancelText={t('dev.cancel')}
      destroyOnHidden
      data-testid="endpoint-form"
    >
      <Form form={form} layout="vertical" autoComplete="off" initialValues={{ active: true, eventTypes: [] }}>
        {isAgent && !editing && (
          <Form.Item name="customerId" label={t('dev.customer')} rules={[{ required: true }]}>
            <CustomerSelect enabled={open} data-testid="endpoint-customer" />
          </Form.Item>
        )}
        <Form.Item name="url" label={t('dev.url')} rules={[{ required: true, whitespace: true, max: 2000 }]}>
          <Input maxLength={2000} placeholder="https://" data-testid="endpoint-url" />
        </Form.Item>
        <Form.Item name="description" label={t('dev.description')} rules={[{ max: 200 }]}>
          <Input maxLength={200} data-testid="endpoint-description" />
        </Form.Item>
        <Form.Item name="eventTypes" label={t('dev.events')} rules={[{ required: true }]}>
          <Select mode="multiple" options={eventOptions} data-testid="endpoint-events" />
        </Form.Item>
        <Form.Item name="active" label={t('dev.enabled')} valuePropName="checked">
          <Switch data-testid="endpoint-active" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

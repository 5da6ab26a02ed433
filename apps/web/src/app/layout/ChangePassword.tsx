/**
 * Change password (spec §5): checked on blur with the four messages; changing the new
 * password re-checks the confirmation; a server 422 puts the first message of each field
 * under old_password and password.
 */
import { auth, type CallRequest } from '@console/contract';
import { App, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { ApiError, call } from '@/lib/http.ts';
import { useI18n } from '@/lib/i18n.ts';

type Values = CallRequest<typeof auth.updatePassWord> & { confirm: string };

export default function ChangePassword({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);

  const submit = async () => {
    const values = await form.validateFields();
    setSaving(true);
    try {
      await call(auth.updatePassWord, { old_password: values.old_password, password: values.password });
      void message.success(t('frame.password.success'));
      form.resetFields();
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.code === 422) {
        const fields = err.fieldErrors;
        form.setFields(
          (['old_password', 'password'] as const)
            .filter((f) => fields[f]?.length)
            .map((f) => ({ name: f, errors: [fields[f][0]] })),
        );
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('frame.password.title')}
      onCancel={onClose}
      onOk={() => void submit().catch(() => undefined)}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      destroyOnHidden
      data-testid="change-password"
    >
      <Form form={form} layout="vertical" validateTrigger="onBlur" autoComplete="off">
        <Form.Item
          name="old_password"
          label={t('frame.password.old')}
          rules={[{ required: true, message: t('frame.password.oldEmpty') }]}
        >
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('frame.password.new')}
          rules={[{ required: true, message: t('frame.password.newEmpty') }]}
        >
          <Input.Password
            autoComplete="new-password"
            onChange={() => {
              if (form.isFieldTouched('confirm')) void form.validateFields(['confirm']).catch(() => undefined);
            }}
          />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('frame.password.confirm')}
          dependencies={['password']}
          rules={[
            { required: true, message: t('frame.password.confirmEmpty') },
            ({ getFieldValue }) => ({
              validator: (_rule, value: string | undefined) =>
                !value || value === getFieldValue('password')
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('frame.password.mismatch'))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

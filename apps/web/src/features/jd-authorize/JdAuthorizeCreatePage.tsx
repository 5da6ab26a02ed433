import { App, Button, Card, Space } from 'antd';
import { Form, showSaveError } from '@/components/form.tsx';
import { useNavigate } from 'react-router';
import { CustomerSelect } from '@/components/CustomerSelect.tsx';
import { useCreateFormDirty } from '@/components/useTabDirty.ts';
import { useFormDraft } from '@/components/useFormDraft.tsx';
import { t, useI18n, useSession } from '@/lib';
import { createJd, refreshJd } from './api/jdAuthorize.ts';
import { JdFields, toFields } from './components/JdFields.tsx';
import './i18n.ts';
import { useOneAtATime } from '@/lib/one-at-a-time.ts';

/** Create JD Authorization (spec §2 order.jdAuthorize create): save the app; authorizing it is the list's button. */
export default function JdAuthorizeCreatePage() {
  useI18n();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const { user } = useSession();
  const isCustomer = !!user?.customer;
  const [form] = Form.useForm();
  // A typed app key and secret are lost with the tab: it asks first (issue 36 #18, #19).
  const draft = useCreateFormDirty();
  useFormDraft(form, draft);
  const [submit, submitting] = useOneAtATime(async (v: Record<string, any>) => {
    try {
      await createJd({ ...toFields(v), customerId: isCustomer ? undefined : v.customerId });
      draft.created();
      void message.success(t('jdAuthorize.created'));
      await refreshJd();
      form.resetFields();
      navigate('/order/jdAuthorize');
    } catch (e) {
      showSaveError(form, e);
    }
  });
  return (
    <Card title={t('jdAuthorize.create')} data-testid="jd-create">
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        onValuesChange={draft.touched}
        scrollToFirstError
        style={{ maxWidth: 900 }}
      >
        {!isCustomer && (
          <Form.Item
            name="customerId"
            label={t('jdAuthorize.customer')}
            rules={[{ required: true, message: t('jdAuthorize.selectCustomer') }]}
            style={{ maxWidth: 360 }}
          >
            <CustomerSelect placeholder={t('jdAuthorize.selectCustomer')} data-testid="jd-customer" />
          </Form.Item>
        )}
        <JdFields />
        <Space>
          <Button type="primary" htmlType="submit" loading={submitting} data-testid="jd-submit">
            {t('jdAuthorize.save')}
          </Button>
          <Button onClick={() => navigate('/order/jdAuthorize')}>{t('jdAuthorize.cancel')}</Button>
        </Space>
      </Form>
    </Card>
  );
}

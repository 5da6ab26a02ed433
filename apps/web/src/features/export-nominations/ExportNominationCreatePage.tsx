import { App, Button, Card, Space } from 'antd';
import { Form, showSaveError } from '@/components/form.tsx';
import { useNavigate } from 'react-router';
import { CustomerSelect } from '@/components/CustomerSelect.tsx';
import { t, useI18n, useSession } from '@/lib';
import { createNomination, refreshNominations } from './api/exportNominations.ts';
import { NominationFields, toFields } from './components/NominationFields.tsx';
import { useCreateFormDirty } from '@/components/useTabDirty.ts';
import { useFormDraft } from '@/components/useFormDraft.tsx';
import './i18n.ts';
import { useOneAtATime } from '@/lib/one-at-a-time.ts';

/**
 * Create Export Nomination (spec §2 exports.create): every field of spec §3; agents and
 * operators choose the customer it belongs to. The corporate number is checked as it is typed
 * with the contract's rule, and again by the server.
 */
export default function ExportNominationCreatePage() {
  useI18n();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const { user } = useSession();
  const isCustomer = !!user?.customer;
  const [form] = Form.useForm();
  const draft = useCreateFormDirty();
  useFormDraft(form, draft);
  const [submit, submitting] = useOneAtATime(async (v: Record<string, any>) => {
    try {
      await createNomination({ ...toFields(v), customerId: isCustomer ? undefined : v.customerId });
      draft.created();
      void message.success(t('exportNominations.created'));
      await refreshNominations();
      form.resetFields();
      navigate('/exports/list');
    } catch (e) {
      showSaveError(form, e, { scroll: true });
    }
  });
  return (
    <Card title={t('exportNominations.create')} data-testid="nomination-create">
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
            label={t('exportNominations.customer')}
            rules={[{ required: true, message: t('exportNominations.selectCustomer') }]}
            style={{ maxWidth: 360 }}
          >
            <CustomerSelect placeholder={t('exportNominations.selectCustomer')} data-testid="nomination-customer" />
          </Form.Item>
        )}
        <NominationFields />
        <Space>
          <Button type="primary" htmlType="submit" loading={submitting} data-testid="nomination-submit">
            {t('exportNominations.save')}
          </Button>
          <Button onClick={() => navigate('/exports/list')}>{t('exportNominations.cancel')}</Button>
        </Space>
      </Form>
    </Card>
  );
}

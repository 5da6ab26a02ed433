import { items } from '@console/contract';
import { App, Button, Card } from 'antd';
import { Form, showSaveError } from '@/components/form.tsx';
import { useNavigate } from 'react-router';
import { CustomerSelect } from '@/components/CustomerSelect.tsx';
import { invalidateCall, t, useI18n } from '@/lib';
import { createItem } from './api/createItem.ts';
import { ItemFields, toItemInput } from './components/ItemForm.tsx';
import { useRole } from './components/useRole.ts';
import { useCreateFormDirty } from '@/components/useTabDirty.ts';
import { useFormDraft } from '@/components/useFormDraft.tsx';
import './i18n.ts';
import { useOneAtATime } from '@/lib/one-at-a-time.ts';

/** Create Item: every field of spec §3 Item; it goes to review (pending). Agents and operators choose the customer. */
export default function ItemCreatePage() {
  useI18n();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const role = useRole();
  const [form] = Form.useForm();
  const draft = useCreateFormDirty();
  useFormDraft(form, draft);
  const chosen = Form.useWatch('customerId', form) as number | undefined;
  const [submit, submitting] = useOneAtATime(async (v: Record<string, any>) => {
    try {
      const r = await createItem({ ...toItemInput(v), customerId: role.isCustomer ? undefined : v.customerId });
      draft.created();
      message.success(t('items.created'));
      await invalidateCall(items.items);
      form.resetFields();
      navigate(`/item/info?id=${r.id}`);
    } catch (e) {
      showSaveError(form, e, { scroll: true });
    }
  });
  return (
    <Card title={t('items.create')} data-testid="item-create">
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        onValuesChange={draft.touched}
        initialValues={{ origin: 'JP' }}
        scrollToFirstError
      >
        {!role.isCustomer && (
          <Form.Item
            name="customerId"
            label={t('items.customer')}
            rules={[{ required: true, message: t('items.required', { label: t('items.customer') }) }]}
            style={{ maxWidth: 360 }}
          >
            <CustomerSelect
              placeholder={t('items.selectCustomer')}
              // An image belongs to the customer it was uploaded for.
              onChange={() => form.setFieldValue('imageId', null)}
              data-testid="item-customer"
            />
          </Form.Item>
        )}
        <ItemFields customerId={role.isCustomer ? undefined : chosen} />
        <Button type="primary" htmlType="submit" loading={submitting} data-testid="item-submit">
          {t('items.save')}
        </Button>
      </Form>
    </Card>
  );
}

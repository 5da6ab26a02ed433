import { App, Button, Card, Space } from 'antd';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { CustomerSelect } from '@/components/CustomerSelect.tsx';
import { Form, showSaveError } from '@/components/form.tsx';
import { useCreateFormDirty } from '@/components/useTabDirty.ts';
import { useFormDraft } from '@/components/useFormDraft.tsx';
import { t, useSession } from '@/lib';
import { useOneAtATime } from '@/lib/one-at-a-time.ts';

export interface CreateFormPageProps {
  /** The feature's i18n prefix: `create`, `customer`, `selectCustomer`, `save`, `cancel` and `created` under it. */
  i18n: string;
  /** Test ids: `<testId>-create` on the card, `-customer` on the customer select, `-submit` on save. */
  testId: string;
  /** Where save and cancel go: the record's list. */
  listPath: string;
  /** Sends the form's values; `customerId` is undefined for a customer (the server takes theirs). */
  save: (values: Record<string, any>, customerId: number | undefined) => Promise<unknown>;
  /** Refreshes the list the record joins, before the page goes there. */
  refresh: () => Promise<unknown>;
  /** Scroll to the first field the server refused (a long form whose refused field may be out of view). */
  scrollToError?: boolean;
  /** The record's own fields. */
  children: ReactNode;
}

/**
 * A create form that belongs to a customer (issue 40, item 4: the nomination and JD pages were
 * one page written twice): agents and operators choose the customer first; the tab is marked
 * dirty from the first change until the record is created (issue 36 #18) and kept as a draft if
 * the session ends meanwhile (#19), one save runs at a
 * time (issue 36 #22), and a refusal shows on its fields.
 */
export function CreateFormPage({
  i18n,
  testId,
  listPath,
  save,
  refresh,
  scrollToError,
  children,
}: CreateFormPageProps) {
  const { message } = App.useApp();
  const navigate = useNavigate();
  const { user } = useSession();
  const isCustomer = !!user?.customer;
  const [form] = Form.useForm();
  const draft = useCreateFormDirty();
  // Kept if the session ends while it is dirty, offered back after login (issue 36 #19).
  useFormDraft(form, draft);
  const l = (k: string) => t(`${i18n}.${k}`);
  const [submit, submitting] = useOneAtATime(async (v: Record<string, any>) => {
    try {
      await save(v, isCustomer ? undefined : v.customerId);
      draft.created();
      void message.success(l('created'));
      await refresh();
      form.resetFields();
      navigate(listPath);
    } catch (e) {
      showSaveError(form, e, { scroll: !!scrollToError });
    }
  });
  return (
    <Card title={l('create')} data-testid={`${testId}-create`}>
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
            label={l('customer')}
            rules={[{ required: true, message: l('selectCustomer') }]}
            style={{ maxWidth: 360 }}
          >
            <CustomerSelect placeholder={l('selectCustomer')} data-testid={`${testId}-customer`} />
          </Form.Item>
        )}
        {children}
        <Space>
          <Button type="primary" htmlType="submit" loading={submitting} data-testid={`${testId}-submit`}>
            {l('save')}
          </Button>
          <Button onClick={() => navigate(listPath)}>{l('cancel')}</Button>
        </Space>
      </Form>
    </Card>
  );
}

import { items } from '@console/contract';
import { Alert, App, Button, Card, Empty } from 'antd';
import { Form, showSaveError } from '@/components/form.tsx';
import { useNavigate, useSearchParams } from 'react-router';
import { useTabDirty } from '@/components/useTabDirty.ts';
import { useTabRecord } from '@/components/useTabRecord.ts';
import { invalidateCall, t, useI18n, useRecordForm } from '@/lib';
import { updateItem } from './api/updateItem.ts';
import { useItem } from './api/useItem.ts';
import { fromItem, ItemFields, toItemInput } from './components/ItemForm.tsx';
import { StatusTag } from './components/shared.tsx';
import { useRole } from './components/useRole.ts';
import './i18n.ts';
import { useStaleSave } from '@/components/stale-save';
import { ITEM_FORM_FIELDS, itemAsShown, itemFieldLabel, itemFormLabel } from './components/item-changes.ts';
import { useOneAtATime } from '@/lib/one-at-a-time.ts';

/**
 * Edit Item. A failed item shows its reason and saving resubmits it for review; changing an
 * approved item's clearance data sends it back to pending (the server decides, the answer says).
 */
export default function ItemUpdatePage() {
  useI18n();
  const { message } = App.useApp();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const id = Number(params.get('id') ?? 0);
  const q = useItem(id);
  const role = useRole();
  useTabRecord(q.data?.jan);
  const [form] = Form.useForm();
  const stale = useStaleSave(q.data, {
    project: itemAsShown,
    label: itemFieldLabel,
    form: { fields: ITEM_FORM_FIELDS, label: itemFormLabel },
  });
  const edit = useRecordForm(form, id, q.data, fromItem);
  useTabDirty(edit.dirty);
  const failed = q.data?.status === 'failed';
  const [save, submitting] = useOneAtATime(async (v: Record<string, any>) => {
    // The version the form's values were loaded from (set with them), not the latest read.
    const version: number | undefined = form.getFieldValue('version');
    try {
      await updateItem({ ...toItemInput(v), id, version });
      edit.saved();
      message.success(failed ? t('items.resubmitted') : t('items.saved'));
      await invalidateCall(items.items);
      await invalidateCall(items.item);
      navigate(`/item/info?id=${id}`);
    } catch (e) {
      const handled = await stale.resolve(e, version, {
        mine: form.getFieldsValue(true),
        values: fromItem,
        reload: async (current) => {
          // Clean again: the next answer of the record's query fills the form (useRecordForm).
          edit.saved();
          form.resetFields();
          form.setFieldsValue(fromItem(current));
          await invalidateCall(items.item);
        },
        // Mine where I changed, theirs elsewhere, from the version now.
        keep: (current, merged) => form.setFieldsValue({ ...merged, version: current.version }),
      });
      if (handled) return;
      showSaveError(form, e, { scroll: true });
    }
  });

  if (!id) return <Empty />;
  if (q.isError) return <Empty description={q.error.message} />;
  return (
    <Card
      loading={!q.data}
      title={q.data ? `${t('items.edit')} ${q.data.jan}` : ''}
      extra={q.data && <StatusTag status={q.data.status} />}
      data-testid="item-update"
    >
      {failed && q.data?.reason && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 12 }}
          message={t('items.failReason')}
          description={q.data.reason}
          data-testid="update-reason"
        />
      )}
      <Form form={form} layout="vertical" onFinish={save} onValuesChange={edit.touched} scrollToFirstError>
        <ItemFields customerId={role.isCustomer ? undefined : q.data?.customerId} />
        <Button type="primary" htmlType="submit" loading={submitting} data-testid="item-submit">
          {failed ? t('items.resubmit') : t('items.save')}
        </Button>
      </Form>
    </Card>
  );
}

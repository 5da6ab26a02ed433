import { App, Button, Card, Col, Empty, Input, Row } from 'antd';
import { Form, formErrors } from '@/components/form.tsx';
import { useNavigate, useSearchParams } from 'react-router';
import { errorText, invalidateCall, t, useI18n, useRecordForm } from '@/lib';
import { orders } from '@console/contract';
import { updateOrder, useOrderDetail } from './api/orders.ts';
import { withConfirmations } from './components/confirm.ts';
import { cleanOrder, ItemsFields, RecipientFields, SenderFields } from './components/OrderForm.tsx';
import { useTabDirty } from '@/components/useTabDirty.ts';
import { useFormDraft } from '@/components/useFormDraft.tsx';
import { useTabRecord } from '@/components/useTabRecord.ts';
import './i18n.ts';
import { showOrderWarnings } from '@/components/tax-estimate.tsx';
import { useStaleSave } from '@/components/stale-save';
import { ORDER_FORM_FIELDS, orderFieldLabel } from './components/field-labels.ts';
import { useOneAtATime } from '@/lib/one-at-a-time.ts';

/** The order as the form's values (what the form is filled with). */
const asValues = <D extends object>(d: D) => ({ ...d });

/** Edit an order with the import's validation; locked orders cannot be edited. */
export default function OrderUpdatePage() {
  useI18n();
  const { message, modal } = App.useApp();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const id = Number(params.get('id') ?? 0);
  const q = useOrderDetail(id);
  useTabRecord(q.data?.orderNo);
  const [form] = Form.useForm();
  const stale = useStaleSave(q.data, { fields: ORDER_FORM_FIELDS, label: orderFieldLabel });
  const edit = useRecordForm(form, id, q.data, asValues);
  useTabDirty(edit.dirty);
  useFormDraft(form, edit, { ready: !!q.data && !q.data.locked });
  const [save, submitting] = useOneAtATime(async (v: Record<string, any>) => {
    const body = cleanOrder(v);
    // The version the form's values were loaded from (set with them), not the latest read.
    const version: number | undefined = form.getFieldValue('version');
    try {
      const r = await withConfirmations(modal, (confirm) =>
        updateOrder({
          id,
          userRefNo: body.userRefNo || null,
          remark: body.remark || null,
          insuredAmount: String(body.insuredAmount ?? '0'),
          recipient: body.recipient as never,
          sender: body.sender,
          items: body.items as never,
          confirm,
          version,
        }),
      );
      if (!r) return;
      edit.saved();
      message.success(t('orders.saved'));
      showOrderWarnings(modal, r);
      await invalidateCall(orders.order);
      await invalidateCall(orders.orderList);
      navigate(`/order/info?id=${id}`);
    } catch (e) {
      const handled = await stale.resolve(e, version, {
        mine: form.getFieldsValue(true),
        values: asValues,
        reload: async (current) => {
          // Clean again: the next answer of the record's query fills the form (useRecordForm).
          edit.saved();
          form.resetFields();
          form.setFieldsValue(current);
          await invalidateCall(orders.order);
        },
        // Mine where I changed, theirs elsewhere (lists replace whole), from the version now.
        keep: (current, merged) => form.setFieldsValue({ ...merged, version: current.version }),
      });
      if (handled) return;
      const fields = formErrors(e);
      if (fields) form.setFields(fields);
      message.error(fields ? t('feedback.formInvalid') : errorText(e));
    }
  });

  if (!id) return <Empty />;
  if (q.isError) return <Empty description={q.error.message} />;
  return (
    <Card loading={!q.data} title={q.data ? `${t('orders.edit')} ${q.data.orderNo}` : ''}>
      <Form form={form} layout="vertical" onFinish={save} onValuesChange={edit.touched} disabled={!!q.data?.locked}>
        <RecipientFields />
        <SenderFields />
        <Row gutter={12}>
          <Col span={8}>
            <Form.Item name="userRefNo" label={t('orders.userRefNo')}>
              <Input />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="insuredAmount" label={t('orders.insuredAmount')}>
              <Input />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="remark" label={t('orders.remark')}>
              <Input data-testid="edit-remark" />
            </Form.Item>
          </Col>
        </Row>
        <ItemsFields customerId={q.data?.customerId} />
        <Button type="primary" htmlType="submit" loading={submitting} style={{ marginTop: 12 }} data-testid="edit-save">
          {t('orders.save')}
        </Button>
      </Form>
    </Card>
  );
}

import { orders, reference } from '@console/contract';
import { App, Button, Card, Col, Input, Row, Select, Space } from 'antd';
import { Form, formErrors } from '@/components/form.tsx';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { CustomerSelect } from '@/components/CustomerSelect.tsx';
import { call, errorText, invalidateCall, localized, t, useCall, useI18n, useSession } from '@/lib';
import { createOrder, getOrderNumber, getSendAddress } from './api/orders.ts';
import { withConfirmations } from './components/confirm.ts';
import { AddressPaste, cleanOrder, ItemsFields, RecipientFields, SenderFields } from './components/OrderForm.tsx';
import { RecipientPick } from './components/RecipientPick.tsx';
import './i18n.ts';
import { showOrderWarnings } from '@/components/tax-estimate.tsx';
import { useOneAtATime } from '@/lib/one-at-a-time.ts';
import { useCreateFormDirty } from '@/components/useTabDirty.ts';
import { useFormDraft } from '@/components/useFormDraft.tsx';

/** Create importer order alone: customer (agents and operators choose), channel, recipient from a pasted address, items. */
export default function OrderCreatePage() {
  useI18n();
  const { message, modal, notification } = App.useApp();
  const navigate = useNavigate();
  const { user } = useSession();
  const isCustomer = !!user?.customer;
  const [form] = Form.useForm();
  const draft = useCreateFormDirty();
  useFormDraft(form, draft);
  const chosen = Form.useWatch('customerId', form) as number | undefined;
  const customerId = isCustomer ? user?.customer?.id : chosen;
  const channels = useCall(reference.channels, {});
  const types = useCall(reference.orderTypes, {});
  const companies = useCall(reference.customsClearanceCompanies, {});
  const nominations = useCall(
    reference.exportsOptions,
    { customerId: isCustomer ? undefined : customerId },
    { enabled: isCustomer || !!customerId },
  );
  const channel = (Form.useWatch('channel', form) ?? 'JP') as reference.ChannelCode;
  const segments = useCall(orders.numberSegments, { channel, customerId }, { enabled: isCustomer || !!customerId });
  // The number segment the user last chose for the channel is proposed again (order/getDefaultNumber;
  // issue 28 #17), when the customer may use it; choosing one remembers it (order/setDefaultNumber).
  const remembered = useCall(orders.getDefaultNumber, { channel });
  useEffect(() => {
    const id = remembered.data?.numberSegmentId;
    if (id && !form.getFieldValue('numberSegmentId') && segments.data?.some((x) => x.id === id))
      form.setFieldValue('numberSegmentId', id);
  }, [remembered.data, segments.data, form]);
  const chooseSegment = (id: number | undefined) =>
    void call(orders.setDefaultNumber, { channel, numberSegmentId: id ?? null }).then(() =>
      invalidateCall(orders.getDefaultNumber),
    );

  // A customer limited to some channels gets only those (reference.channels): start on one of them.
  const firstChannel = channels.data?.[0]?.code;
  useEffect(() => {
    const list = channels.data;
    if (list?.length && !list.some((c) => c.code === form.getFieldValue('channel')))
      form.setFieldValue('channel', firstChannel);
  }, [channels.data, firstChannel, form]);

  const fillDefaults = async (cid?: number) => {
    const [sender, no] = await Promise.all([getSendAddress(cid), getOrderNumber(cid)]);
    form.setFieldsValue({ sender, orderNo: form.getFieldValue('orderNo') || no.orderNo });
  };
  // A customer's sender and a fresh order number are there from the start (others get them on choosing).
  useEffect(() => {
    if (isCustomer) void fillDefaults();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [isCustomer]);
  const chooseCustomer = (id: number) => {
    // Another customer's nomination, segment and order number do not apply.
    form.setFieldsValue({ exportNominationId: undefined, numberSegmentId: undefined, orderNo: undefined });
    void fillDefaults(id);
  };
  const [submit, submitting] = useOneAtATime(async (v: Record<string, any>) => {
    const body = cleanOrder(v);
    try {
      const r = await withConfirmations(modal, (confirm) =>
        createOrder({
          ...(body as Record<string, any>),
          customerId: isCustomer ? undefined : customerId,
          insuredAmount: String(body.insuredAmount ?? '0'),
          confirm,
        } as never),
      );
      if (!r) return;
      draft.created();
      // Said until read (issue 36 #23): which order, its waybill, what the form kept, and a way to it.
      const key = `order-created-${r.id}`;
      notification.success({
        key,
        title: t('orders.created', { orderNo: r.orderNo }),
        description: (
          <Space direction="vertical" size={2}>
            <span data-testid="created-waybill">
              {r.waybillNo ? t('orders.createdWaybill', { waybillNo: r.waybillNo }) : t('orders.createdNoWaybill')}
            </span>
            <span>{t('orders.createdNext')}</span>
          </Space>
        ),
        duration: 10,
        actions: (
          <Button
            size="small"
            type="primary"
            data-testid="created-open"
            onClick={() => {
              notification.destroy(key);
              navigate(`/order/info?id=${r.id}`);
            }}
          >
            {t('orders.openCreated')}
          </Button>
        ),
      });
      showOrderWarnings(modal, r);
      await invalidateCall(orders.orderList);
      form.resetFields(['orderNo', 'userRefNo', 'remark', 'recipient', 'items']);
      form.setFieldValue('items', [{ quantity: 1 }]);
      form.setFieldValue('orderNo', (await getOrderNumber(isCustomer ? undefined : customerId)).orderNo);
    } catch (e) {
      // Spec §8: 'Failed to create order', then why — the fields the server refused are marked too.
      const fields = formErrors(e);
      if (fields) form.setFields(fields);
      message.error(t('orders.createFailed', { reason: fields ? t('feedback.formInvalid') : errorText(e) }));
    }
  });
  return (
    <Card title={t('orders.create')}>
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        onValuesChange={draft.touched}
        initialValues={{ channel: 'JP', orderType: 'normal', items: [{ quantity: 1 }] }}
      >
        <Row gutter={12}>
          {/* Agents and operators pick one of the customers they may act for; a customer acts for itself. */}
          {!isCustomer && (
            <Col span={6}>
              <Form.Item name="customerId" label={t('orders.customer')} rules={[{ required: true }]}>
                <CustomerSelect
                  enabled={!!user && !isCustomer}
                  data-testid="create-customer"
                  placeholder={t('orders.selectCustomer')}
                  onChange={chooseCustomer}
                />
              </Form.Item>
            </Col>
          )}
          <Col span={4}>
            <Form.Item name="channel" label={t('orders.channel')} rules={[{ required: true }]}>
              <Select
                options={(channels.data ?? []).map((c) => ({ value: c.code, label: `${c.code} ${localized(c.name)}` }))}
              />
            </Form.Item>
          </Col>
          <Col span={4}>
            <Form.Item name="orderType" label={t('orders.orderType')}>
              <Select options={(types.data ?? []).map((c) => ({ value: c.code, label: localized(c.name) }))} />
            </Form.Item>
          </Col>
          <Col span={5}>
            <Form.Item name="clearanceCompany" label={t('orders.clearanceCompany')}>
              <Select
                allowClear
                options={(companies.data ?? []).map((c) => ({ value: c.code, label: localized(c.name) }))}
              />
            </Form.Item>
          </Col>
          <Col span={5}>
            <Form.Item name="exportNominationId" label={t('orders.exportNomination')}>
              <Select
                allowClear
                disabled={!isCustomer && !customerId}
                options={(nominations.data ?? []).map((n) => ({ value: n.id, label: n.nameJa }))}
              />
            </Form.Item>
          </Col>
          <Col span={5}>
            <Form.Item name="numberSegmentId" label={t('orders.numberSegment')}>
              <Select
                allowClear
                onChange={chooseSegment}
                data-testid="create-segment"
                disabled={!isCustomer && !customerId}
                options={(segments.data ?? []).map((s) => ({
                  value: s.id,
                  label: `${s.name} (${t('orders.remaining', { n: s.remaining })})`,
                }))}
              />
            </Form.Item>
          </Col>
          <Col span={7}>
            <Form.Item label={t('orders.orderNo')} required>
              <Space.Compact style={{ width: '100%' }}>
                {/* A noStyle item has no label of its own: name it, or the message reads 请输入orderNo (issue 28 #10). */}
                <Form.Item
                  name="orderNo"
                  noStyle
                  rules={[{ required: true }]}
                  messageVariables={{ label: t('orders.orderNo') }}
                >
                  <Input aria-label={t('orders.orderNo')} data-testid="create-orderNo" />
                </Form.Item>
                <Button
                  disabled={!isCustomer && !customerId}
                  onClick={async () =>
                    form.setFieldValue('orderNo', (await getOrderNumber(isCustomer ? undefined : customerId)).orderNo)
                  }
                >
                  {t('orders.generate')}
                </Button>
              </Space.Compact>
            </Form.Item>
          </Col>
          <Col span={5}>
            <Form.Item name="userRefNo" label={t('orders.userRefNo')}>
              <Input />
            </Form.Item>
          </Col>
          <Col span={4}>
            <Form.Item name="insuredAmount" label={t('orders.insuredAmount')}>
              <Input />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="remark" label={t('orders.remark')}>
              <Input />
            </Form.Item>
          </Col>
        </Row>
        <RecipientPick customerId={isCustomer ? undefined : customerId} disabled={!isCustomer && !customerId} />
        <AddressPaste />
        <RecipientFields />
        <Space style={{ marginBottom: 8 }}>
          <Button
            size="small"
            disabled={!isCustomer && !customerId}
            onClick={() => fillDefaults(isCustomer ? undefined : customerId)}
          >
            {t('orders.senderDefaults')}
          </Button>
        </Space>
        <SenderFields />
        <ItemsFields customerId={isCustomer ? undefined : customerId} />
        <Button
          type="primary"
          htmlType="submit"
          loading={submitting}
          style={{ marginTop: 12 }}
          data-testid="create-submit"
        >
          {t('orders.create')}
        </Button>
      </Form>
    </Card>
  );
}

import { reference } from '@console/contract';
import { App, Button, Card, Col, Form, Input, Row, Select, Space } from 'antd';
import { useState } from 'react';
import { invalidateCall, t, useCall, useI18n, useSession } from '@/lib';
import { orders } from '@console/contract';
import { createOrder, getOrderNumber, getSendAddress } from './api/orders.ts';
import { formErrors, withConfirmations } from './components/confirm.ts';
import { AddressPaste, cleanOrder, ItemsFields, RecipientFields, SenderFields } from './components/OrderForm.tsx';
import './i18n.ts';

/** Create importer order alone: customer (agents and operators choose), channel, recipient from a pasted address, items. */
export default function OrderCreatePage() {
  useI18n();
  const { message, modal } = App.useApp();
  const { user } = useSession();
  const isCustomer = !!user?.customer;
  const [form] = Form.useForm();
  const [customerId, setCustomerId] = useState<number | undefined>(user?.customer?.id);
  const channels = useCall(reference.channels, {});
  const types = useCall(reference.orderTypes, {});
  const companies = useCall(reference.customsClearanceCompanies, {});
  // Agents and operators pick among the customers they may act for (seen through their export nominations).
  const nominations = useCall(reference.exportsOptions, {});
  const customers = [...new Map((nominations.data ?? []).map((n) => [n.customerId, n.nameEn])).entries()];
  const segments = useCall(
    orders.numberSegments,
    { channel: Form.useWatch('channel', form) ?? 'JP', customerId },
    { enabled: isCustomer || !!customerId },
  );

  const fillDefaults = async (cid?: number) => {
    const [sender, no] = await Promise.all([getSendAddress(cid), getOrderNumber(cid)]);
    form.setFieldsValue({ sender, orderNo: form.getFieldValue('orderNo') || no.orderNo });
  };
  const submit = async (v: Record<string, any>) => {
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
      message.success(t('orders.created', { orderNo: r.orderNo }));
      await invalidateCall(orders.orderList);
      form.resetFields(['orderNo', 'recipient', 'items']);
      form.setFieldValue('items', [{ quantity: 1 }]);
    } catch (e) {
      const fields = formErrors(e);
      if (fields) form.setFields(fields);
      else message.error((e as Error).message);
    }
  };
  return (
    <Card title={t('orders.create')}>
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{ channel: 'JP', orderType: 'normal', items: [{ quantity: 1 }] }}
      >
        <Row gutter={12}>
          {!isCustomer && (
            <Col span={6}>
              <Form.Item label={t('orders.customer')} required>
                <Select
                  data-testid="create-customer"
                  placeholder={t('orders.selectCustomer')}
                  value={customerId}
                  onChange={(v) => (setCustomerId(v), void fillDefaults(v))}
                  options={customers.map(([id, name]) => ({ value: id, label: name }))}
                />
              </Form.Item>
            </Col>
          )}
          <Col span={4}>
            <Form.Item name="channel" label={t('orders.channel')} rules={[{ required: true }]}>
              <Select options={(channels.data ?? []).map((c) => ({ value: c.code, label: c.code }))} />
            </Form.Item>
          </Col>
          <Col span={4}>
            <Form.Item name="orderType" label={t('orders.orderType')}>
              <Select options={(types.data ?? []).map((c) => ({ value: c.code, label: c.code }))} />
            </Form.Item>
          </Col>
          <Col span={5}>
            <Form.Item name="clearanceCompany" label={t('orders.clearanceCompany')}>
              <Select allowClear options={(companies.data ?? []).map((c) => ({ value: c.code, label: c.code }))} />
            </Form.Item>
          </Col>
          <Col span={5}>
            <Form.Item name="exportNominationId" label={t('orders.exportNomination')}>
              <Select
                allowClear
                options={(nominations.data ?? [])
                  .filter((n) => !customerId || n.customerId === customerId)
                  .map((n) => ({ value: n.id, label: n.nameJa }))}
              />
            </Form.Item>
          </Col>
          <Col span={5}>
            <Form.Item name="numberSegmentId" label={t('orders.numberSegment')}>
              <Select
                allowClear
                options={(segments.data ?? []).map((s) => ({ value: s.id, label: `${s.name} (${s.remaining})` }))}
              />
            </Form.Item>
          </Col>
          <Col span={7}>
            <Form.Item label={t('orders.orderNo')} required>
              <Space.Compact style={{ width: '100%' }}>
                <Form.Item name="orderNo" noStyle rules={[{ required: true }]}>
                  <Input data-testid="create-orderNo" />
                </Form.Item>
                <Button
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
        <AddressPaste />
        <RecipientFields />
        <Space style={{ marginBottom: 8 }}>
          <Button size="small" onClick={() => fillDefaults(isCustomer ? undefined : customerId)}>
            {t('orders.sender')} ↺
          </Button>
        </Space>
        <SenderFields />
        <ItemsFields customerId={isCustomer ? undefined : customerId} />
        <Button type="primary" htmlType="submit" style={{ marginTop: 12 }} data-testid="create-submit">
          {t('orders.create')}
        </Button>
      </Form>
    </Card>
  );
}

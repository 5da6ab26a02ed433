import { reference } from '@console/contract';
import { Alert, App, Button, Card, Cascader, Col, Input, InputNumber, Row, Space } from 'antd';
import { Form } from '@/components/form.tsx';
import { useState } from 'react';
import { t, useCall } from '@/lib';
import { getItemByJan, resolveAddress } from '../api/orders.ts';

/** Recipient, sender and items: shared by the create and edit pages. */
export function RecipientFields({ prefix = ['recipient'] }: { prefix?: string[] }) {
  const f = (k: string) => [...prefix, k];
  return (
    <Row gutter={12}>
      <Col span={6}>
        <Form.Item name={f('name')} label={t('orders.recipient')} rules={[{ required: true }]}>
          <Input data-testid="r-name" />
        </Form.Item>
      </Col>
      <Col span={6}>
        <Form.Item name={f('phone')} label={t('orders.phone')} rules={[{ required: true }]}>
          <Input data-testid="r-phone" />
        </Form.Item>
      </Col>
      <Col span={6}>
        <Form.Item name={f('idCard')} label={t('orders.idCard')} rules={[{ required: true }]}>
          <Input data-testid="r-idCard" />
        </Form.Item>
      </Col>
      <Col span={6}>
        <Form.Item name={f('email')} label={t('orders.email')}>
          <Input />
        </Form.Item>
      </Col>
      <Col span={12}>
        <DivisionField prefix={prefix} />
      </Col>
      <Col span={6}>
        <Form.Item name={f('postcode')} label={t('orders.postcode')}>
          <Input />
        </Form.Item>
      </Col>
      <Col span={24}>
        <Form.Item name={f('address')} label={t('orders.address')} rules={[{ required: true }]}>
          <Input data-testid="r-address" />
        </Form.Item>
      </Col>
    </Row>
  );
}

/**
 * Province, city and district as one searchable cascader over the server's division data
 * (issue 11 #9: they were free text). The form keeps the three names the contract sends;
 * the cascader shows and sets them, so the address resolver and a loaded order fill it.
 * Typing filters every district at once ("西湖" → 浙江省 / 杭州市 / 西湖区); arrows and Enter pick.
 */
export function DivisionField({ prefix = ['recipient'] }: { prefix?: string[] }) {
  const form = Form.useFormInstance();
  const names = (['province', 'city', 'district'] as const).map((k) => [...prefix, k]);
  const province = Form.useWatch(names[0], form) as string | undefined;
  const city = Form.useWatch(names[1], form) as string | undefined;
  const district = Form.useWatch(names[2], form) as string | undefined;
  // The same answer for every form and page: fetched once per session.
  const tree = useCall(reference.divisionTree, {}, { staleTime: Infinity, gcTime: Infinity });
  const value = [province, city, district].filter((x): x is string => !!x);
  // One rule for the three (the cascader sets them together): one message under the cascader.
  const complete = {
    validator: () =>
      names.every((n) => form.getFieldValue(n))
        ? Promise.resolve()
        : Promise.reject(new Error(t('orders.divisionRequired'))),
  };
  return (
    <Form.Item label={t('orders.division')} required>
      {names.map((name, i) => (
        <Form.Item key={name.join('.')} name={name} rules={i === 2 ? [complete] : []} noStyle hidden>
          <Input />
        </Form.Item>
      ))}
      <Cascader
        aria-label={t('orders.division')}
        data-testid="r-division"
        options={tree.data}
        loading={tree.isLoading}
        fieldNames={{ label: 'name', value: 'name', children: 'children' }}
        value={value.length ? value : undefined}
        placeholder={t('orders.divisionHint')}
        showSearch={{ limit: 50 }}
        onChange={(v) => {
          names.forEach((name, i) => form.setFieldValue(name, (v as string[] | undefined)?.[i]));
          void form.validateFields(names).catch(() => undefined);
        }}
      />
    </Form.Item>
  );
}

/** A pasted address resolved into the recipient fields; a doubtful parse is shown for the user to confirm. */
export function AddressPaste() {
  const form = Form.useFormInstance();
  const { message } = App.useApp();
  const [text, setText] = useState('');
  const [doubts, setDoubts] = useState<string[]>([]);
  const run = async () => {
    const r = await resolveAddress(text);
    form.setFieldsValue({
      recipient: {
        name: r.name,
        phone: r.phone,
        province: r.province,
        city: r.city,
        district: r.district,
        address: r.address,
        postcode: r.postcode || undefined,
      },
    });
    setDoubts(r.sure ? [] : r.problems);
    if (r.sure) message.success(t('orders.resolved'));
  };
  return (
    <Space direction="vertical" style={{ width: '100%', marginBottom: 12 }}>
      <Space.Compact style={{ width: '100%' }}>
        <Input
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={t('orders.pasteAddress')}
          data-testid="paste-address"
        />
        <Button onClick={run} disabled={text.trim().length < 2} data-testid="resolve-address">
          {t('orders.resolve')}
        </Button>
      </Space.Compact>
      {doubts.length > 0 && (
        <Alert
          type="warning"
          showIcon
          data-testid="address-doubt"
          message={t('orders.doubtful')}
          description={doubts.join(' ')}
        />
      )}
    </Space>
  );
}

export function SenderFields() {
  return (
    <Row gutter={12}>
      <Col span={8}>
        <Form.Item name={['sender', 'name']} label={t('orders.sender')}>
          <Input data-testid="s-name" />
        </Form.Item>
      </Col>
      <Col span={8}>
        <Form.Item name={['sender', 'phone']} label={t('orders.senderPhone')}>
          <Input />
        </Form.Item>
      </Col>
      <Col span={8}>
        <Form.Item name={['sender', 'address']} label={t('orders.senderAddress')}>
          <Input />
        </Form.Item>
      </Col>
    </Row>
  );
}

/** Item rows; a JAN fills the rest from the customer's earlier orders. */
export function ItemsFields({ customerId }: { customerId?: number }) {
  const form = Form.useFormInstance();
  const fill = async (i: number) => {
    const jan = form.getFieldValue(['items', i, 'jan']);
    if (!jan || String(jan).length < 8) return;
    const r = await getItemByJan(String(jan), customerId).catch(() => null);
    if (r?.item) {
      const cur = form.getFieldValue(['items', i]) ?? {};
      form.setFieldValue(['items', i], {
        ...r.item,
        quantity: cur.quantity ?? 1,
        unitPrice: cur.unitPrice || r.item.unitPrice,
      });
    }
  };
  return (
    <Form.List name="items">
      {(fields, { add, remove }) => (
        <Card
          size="small"
          title={t('orders.items')}
          extra={
            <Button size="small" onClick={() => add({ quantity: 1 })} data-testid="add-item">
              {t('orders.addItem')}
            </Button>
          }
        >
          {fields.map((field) => (
            <Row gutter={8} key={field.key}>
              <Col span={4}>
                <Form.Item name={[field.name, 'jan']} label={t('orders.jan')}>
                  <Input onBlur={() => fill(field.name)} data-testid={`item-jan-${field.name}`} />
                </Form.Item>
              </Col>
              <Col span={6}>
                <Form.Item name={[field.name, 'name']} label={t('orders.name')} rules={[{ required: true }]}>
                  <Input data-testid={`item-name-${field.name}`} />
                </Form.Item>
              </Col>
              <Col span={3}>
                <Form.Item name={[field.name, 'brand']} label={t('orders.brand')}>
                  <Input data-testid={`item-brand-${field.name}`} />
                </Form.Item>
              </Col>
              <Col span={3}>
                <Form.Item name={[field.name, 'spec']} label={t('orders.spec')}>
                  <Input data-testid={`item-spec-${field.name}`} />
                </Form.Item>
              </Col>
              <Col span={2}>
                <Form.Item name={[field.name, 'quantity']} label={t('orders.quantity')} rules={[{ required: true }]}>
                  <InputNumber min={1} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
              <Col span={3}>
                <Form.Item name={[field.name, 'unitPrice']} label={t('orders.unitPrice')} rules={[{ required: true }]}>
                  <Input data-testid={`item-price-${field.name}`} />
                </Form.Item>
              </Col>
              <Col span={2}>
                <Form.Item name={[field.name, 'origin']} label={t('orders.origin')}>
                  <Input />
                </Form.Item>
              </Col>
              <Col span={1} style={{ paddingTop: 30 }}>
                <Button size="small" danger onClick={() => remove(field.name)} disabled={fields.length <= 1}>
                  ×
                </Button>
              </Col>
            </Row>
          ))}
        </Card>
      )}
    </Form.List>
  );
}

/** Empty strings from inputs are sent as absent; prices as decimal strings. */
export function cleanOrder<T extends Record<string, any>>(v: T): T {
  const strip = (o: Record<string, any> | undefined) =>
    Object.fromEntries(Object.entries(o ?? {}).filter(([, x]) => x !== '' && x !== undefined));
  return {
    ...v,
    recipient: strip(v.recipient),
    sender: strip(v.sender),
    items: v.items?.map((it: Record<string, any>) => ({ ...strip(it), unitPrice: String(it.unitPrice ?? '') })),
  };
}

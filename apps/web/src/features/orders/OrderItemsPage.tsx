import { orders } from '@console/contract';
import { Alert, App, Button, Card, Col, Empty, Input, InputNumber, Modal, Popconfirm, Row, Space, Table } from 'antd';
import { Form, formErrors, validateForSubmit } from '@/components/form.tsx';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { attempt } from '@/components/mutation.ts';
import { invalidateCall, t, useCall, useI18n } from '@/lib';
import { useTabRecord } from '@/components/useTabRecord.ts';
import { createItem, deleteItem, updateItem } from './api/changes.ts';
import { useStaleSave } from '@/components/stale-save';
import { ORDER_FORM_FIELDS, orderFieldLabel } from './components/field-labels.ts';
import { withConfirmations } from './components/confirm.ts';
import './i18n.ts';
import './pages-i18n.ts';

type OrderItem = orders.OrderItem;
type Editing = { mode: 'add' } | { mode: 'edit'; item: OrderItem } | null;
const FIELDS = ['jan', 'name', 'brand', 'spec', 'quantity', 'unitPrice', 'origin', 'hazardCode'] as const;

/**
 * The items of one order as a page (spec "item list/add/update"): list, add, change and remove
 * through `order/item/*`. The server checks the order's lock and re-validates the whole order on
 * every change (a changed price may need the CNY 5,000 confirmation); the page only follows it.
 */
export default function OrderItemsPage() {
  useI18n();
  const { message, modal } = App.useApp();
  const [params] = useSearchParams();
  const id = Number(params.get('id') ?? 0);
  const detail = useCall(orders.order, { id }, { enabled: id > 0 });
  const list = useCall(orders.items, { orderId: id }, { enabled: id > 0 });
  useTabRecord(detail.data?.orderNo);
  const [editing, setEditing] = useState<Editing>(null);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm();
  const stale = useStaleSave(detail.data, {
    fields: ORDER_FORM_FIELDS,
    label: orderFieldLabel,
    // The form is one line: merged against that line of the order as loaded and as it is now.
    form: { fields: FIELDS, label: (f) => t(`orders.${f}`) },
  });

  if (!id) return <Empty description={t('orderPages.noOrder')} />;
  if (detail.isError) return <Empty description={detail.error.message} />;
  const o = detail.data;
  if (!o) return <Card loading />;
  const locked = !!o.locked;
  const items = list.data ?? [];
  const refresh = async () => {
    await Promise.all([invalidateCall(orders.items), invalidateCall(orders.order), invalidateCall(orders.orderList)]);
  };

  const open = (next: Editing) => {
    form.resetFields();
    if (next?.mode === 'edit') form.setFieldsValue({ ...next.item, unitPrice: next.item.unitPrice });
    else form.setFieldsValue({ quantity: 1 });
    // The order's version this line was opened from, sent back on save (issue 28 #3).
    form.setFieldValue('orderVersion', o.version);
    setEditing(next);
  };
  const save = async () => {
    const v = (await validateForSubmit(form)) as Record<string, unknown>;
    const item = {
      jan: (v.jan as string) || null,
      name: v.name as string,
      brand: (v.brand as string) || null,
      spec: (v.spec as string) || null,
      quantity: Number(v.quantity),
      unitPrice: String(v.unitPrice ?? ''),
      origin: (v.origin as string) || null,
      hazardCode: (v.hazardCode as string) || null,
    };
    const orderVersion: number | undefined = form.getFieldValue('orderVersion');
    setSaving(true);
    try {
      const r = await withConfirmations(modal, (confirm) =>
        editing?.mode === 'edit'
          ? updateItem({ ...item, id: editing.item.id, confirm, orderVersion })
          : createItem({ ...item, orderId: id, confirm, orderVersion }),
      );
      if (!r) return;
      message.success(t('orderPages.itemSaved'));
      setEditing(null);
      await refresh();
    } catch (e) {
      const editedId = editing?.mode === 'edit' ? editing.item.id : undefined;
      const handled = await stale.resolve(e, orderVersion, {
        mine: form.getFieldsValue(true),
        // A new line has none: all its values are mine.
        values: (order) => order.items.find((i) => editedId !== undefined && i.id === editedId),
        // The lines as they are now; the line being edited is opened again from them.
        reload: async () => {
          setEditing(null);
          await refresh();
        },
        // Mine where I changed, theirs elsewhere, from the order's version now.
        keep: (current, merged) => form.setFieldsValue({ ...merged, orderVersion: current.version }),
      });
      if (handled) return;
      const fields = formErrors(e);
      if (fields) form.setFields(fields.map((f) => ({ name: f.name.slice(-1), errors: f.errors })));
      else message.error((e as Error).message);
    } finally {
      setSaving(false);
    }
  };
  const remove = async (item: OrderItem) => {
    const r = await attempt(message, () => deleteItem(item.id));
    if (r === undefined) return;
    message.success(t('orderPages.itemDeleted'));
    await refresh();
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="order-items">
      {o.locked && <Alert type="info" showIcon message={o.locked} />}
      <Card
        size="small"
        title={t('orderPages.itemsTitle', { orderNo: o.orderNo })}
        extra={
          <Space>
            <Link to={`/order/info?id=${o.id}`}>{t('orderPages.backToOrder')}</Link>
            <Button type="primary" disabled={locked} onClick={() => open({ mode: 'add' })} data-testid="item-add">
              {t('orderPages.addItem')}
            </Button>
          </Space>
        }
      >
        <Table<OrderItem>
          rowKey="id"
          size="small"
          loading={list.isFetching}
          pagination={false}
          dataSource={items}
          scroll={{ x: 'max-content' }}
          columns={[
            { key: 'lineNo', dataIndex: 'lineNo', title: '#' },
            ...['jan', 'name', 'brand', 'spec', 'quantity', 'unitPrice', 'currency', 'origin', 'hazardCode'].map(
              (k) => ({
                key: k,
                dataIndex: k,
                title: t(`orders.${k}`),
              }),
            ),
            {
              key: 'actions',
              title: t('orders.actions'),
              render: (_: unknown, item: OrderItem) => (
                <Space>
                  <Button
                    size="small"
                    disabled={locked}
                    onClick={() => open({ mode: 'edit', item })}
                    data-testid={`item-edit-${item.lineNo}`}
                  >
                    {t('orders.edit')}
                  </Button>
                  <Popconfirm
                    title={items.length <= 1 ? t('orderPages.lastItem') : t('orderPages.deleteItem')}
                    okButtonProps={{ disabled: items.length <= 1 }}
                    onConfirm={() => remove(item)}
                  >
                    <Button size="small" danger disabled={locked} data-testid={`item-delete-${item.lineNo}`}>
                      {t('orders.delete')}
                    </Button>
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <Modal
        open={editing !== null}
        title={editing?.mode === 'edit' ? t('orderPages.editItem') : t('orderPages.addItem')}
        okText={t('orders.save')}
        cancelText={t('orders.cancel')}
        confirmLoading={saving}
        onOk={save}
        onCancel={() => setEditing(null)}
        destroyOnHidden
        forceRender
      >
        <Form form={form} layout="vertical" data-testid="item-form">
          <Row gutter={12}>
            {FIELDS.map((k) => (
              <Col span={12} key={k}>
                <Form.Item
                  name={k}
                  label={k === 'unitPrice' ? `${t('orders.unitPrice')} (${o.currency})` : t(`orders.${k}`)}
                  rules={k === 'name' || k === 'quantity' || k === 'unitPrice' ? [{ required: true }] : undefined}
                >
                  {k === 'quantity' ? (
                    <InputNumber min={1} precision={0} style={{ width: '100%' }} data-testid={`item-${k}`} />
                  ) : (
                    <Input data-testid={`item-${k}`} />
                  )}
                </Form.Item>
              </Col>
            ))}
          </Row>
        </Form>
      </Modal>
    </Space>
  );
}

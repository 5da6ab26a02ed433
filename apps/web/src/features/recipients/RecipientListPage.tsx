import { recipients as R } from '@console/contract';
import { App, Button, Col, Input, Modal, Popconfirm, Row, Space, type TableColumnsType } from 'antd';
import { Form, validateForSubmit } from '@/components/form.tsx';
import { useState } from 'react';
import { CustomerSelect } from '@/components/CustomerSelect.tsx';
import { FilterBar, PagedTable, usePagedQuery } from '@/components/paged-table';
import { ApiError, call, errorText, formatTime, invalidateCall, t, useI18n, useSession } from '@/lib';
import './i18n.ts';

type Row = R.RecipientRow;
type Filters = Omit<R.RecipientListRequest, 'offset' | 'limit' | 'order' | 'sort'>;
const FIELDS = [
  'name',
  'idCard',
  'phone',
  'province',
  'city',
  'district',
  'address',
  'street',
  'postcode',
  'email',
] as const;
const REQUIRED = new Set(['name', 'idCard', 'phone', 'province', 'city', 'district', 'address']);

/**
 * The recipient address book (spec §7 recipient/list, recipient/create): the ID number and phone
 * masked in the list; added and changed in a dialog checked like an order's recipient (the
 * server's 422s land on the fields). The single order page picks its recipient from here.
 */
export default function RecipientListPage() {
  useI18n();
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const { user } = useSession();
  const isCustomer = !!user?.customer;
  const paged = usePagedQuery<typeof R.recipientList, Filters>(R.recipientList, { sort: 'createdAt' });
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const [busy, setBusy] = useState(false);
  const l = (k: string, p?: Record<string, string | number>) => t(`recipients.${k}`, p);

  const open = async (id: number | 'new') => {
    form.resetFields();
    if (id !== 'new') form.setFieldsValue(await call(R.recipientInfo, { id }));
    setEditing(id);
  };
  const save = async () => {
    const v = await validateForSubmit(form);
    const body = Object.fromEntries(
      Object.entries(v).map(([k, x]) => [k, typeof x === 'string' ? x.trim() || null : x]),
    ) as Record<string, any>;
    setBusy(true);
    try {
      const r =
        editing === 'new'
          ? await call(R.createRecipient, { ...body, customerId: isCustomer ? undefined : body.customerId } as never, {
              silent: true,
            })
          : await call(R.updateRecipient, { ...body, id: editing as number, customerId: undefined } as never, {
              silent: true,
            });
      void message.success(l('saved', { name: r.name }));
      setEditing(null);
      void invalidateCall(R.recipientList);
    } catch (e) {
      if (e instanceof ApiError && e.code === 422)
        form.setFields(Object.entries(e.fieldErrors).map(([name, errors]) => ({ name, errors })));
      else void message.error(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  const remove = async (r: Row) => {
    await call(R.deleteRecipient, { id: r.id });
    void invalidateCall(R.recipientList);
  };
  const onSearch = (v: Record<string, any>) => {
    void invalidateCall(R.recipientList);
    paged.setFilters({ keyword: v.keyword?.trim() || undefined, customerId: v.customerId });
  };
  const columns: TableColumnsType<Row> = [
    ...(isCustomer ? [] : [{ key: 'customerCode', title: l('customer'), dataIndex: 'customerCode' }]),
    { key: 'name', title: l('name'), dataIndex: 'name', sorter: true },
    { key: 'idCard', title: l('idCard'), dataIndex: 'idCard' },
    { key: 'phone', title: l('phone'), dataIndex: 'phone' },
    {
      key: 'address',
      title: l('address'),
      render: (_: unknown, r: Row) => `${r.province} ${r.city} ${r.district} ${r.street ?? ''}${r.address}`,
    },
    { key: 'createdAt', title: l('createdAt'), sorter: true, render: (_: unknown, r: Row) => formatTime(r.createdAt) },
    {
      key: 'actions',
      title: l('actions'),
      render: (_: unknown, r: Row) => (
        <Space size="small">
          <Button size="small" type="link" onClick={() => void open(r.id)}>
            {l('edit')}
          </Button>
          <Popconfirm title={l('deleteConfirm', { name: r.name })} onConfirm={() => remove(r)}>
            <Button size="small" type="link" danger>
              {l('delete')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="recipient-list-page">
      <FilterBar
        filters={paged.filters}
        i18n="recipients"
        onSearch={onSearch}
        extra={
          <Button onClick={() => void open('new')} data-testid="recipient-create">
            {l('create')}
          </Button>
        }
      >
        <FilterBar.Text name="keyword" width={220} maxLength={64} placeholder={l('keywordHint')} />
        <FilterBar.Customer />
      </FilterBar>
      <PagedTable<Row> rowKey="id" size="small" paged={paged} columns={columns} data-testid="recipient-table" />
      <Modal
        open={editing !== null}
        title={editing === 'new' ? l('create') : l('edit')}
        onCancel={() => setEditing(null)}
        onOk={() => void save()}
        confirmLoading={busy}
        width={720}
        okButtonProps={{ 'data-testid': 'recipient-save' } as never}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" data-testid="recipient-form">
          <Row gutter={12}>
            {!isCustomer && editing === 'new' && (
              <Col span={12}>
                <Form.Item name="customerId" label={l('customer')} rules={[{ required: true }]}>
                  <CustomerSelect />
                </Form.Item>
              </Col>
            )}
            {FIELDS.map((k) => (
              <Col span={k === 'address' ? 24 : 12} key={k}>
                <Form.Item name={k} label={l(k)} rules={REQUIRED.has(k) ? [{ required: true }] : []}>
                  <Input data-testid={`recipient-${k}`} />
                </Form.Item>
              </Col>
            ))}
          </Row>
        </Form>
      </Modal>
    </Space>
  );
}

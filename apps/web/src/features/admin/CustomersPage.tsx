import { admin, type CallResponse, reference } from '@console/contract';
import { App, Button, Divider, Input, Modal, Select, Space, Tag, Typography, type TableColumnsType } from 'antd';
import { Form, validateForSubmit } from '@/components/form.tsx';
import { useState } from 'react';
import { PagedTable, useFilterForm, usePagedQuery } from '@/components/paged-table';
import { ApiError, errorText, formatTime, localized, t, useCall, useI18n } from '@/lib';
import { createCustomer, customersCall, updateCustomer } from './api/admin.ts';
import { CustomerSegments } from './CustomerSegments.tsx';
import { formatBytes, quotaTone } from './bytes.ts';
import './i18n.ts';
import { useStaleSave } from '@/components/stale-save';

type Row = CallResponse<typeof admin.customerList>['list'][number];
type Filters = { keyword?: string };
/** A customer as its edit form shows it, for the stale-save dialog. */
const asShown = (r: Row) => ({
  name: r.name,
  contactName: r.contactName,
  contactPhone: r.contactPhone,
  contactEmail: r.contactEmail,
  agent: r.agentName,
  channels: r.channels.join(', '),
});
/** The edit form's own fields (the agent by id, the channels as a list), for the merge. */
const FORM_FIELDS = ['name', 'contactName', 'contactPhone', 'contactEmail', 'agentUserId', 'channels'];
type Values = {
  code?: string;
  name: string;
  contactName?: string;
  contactPhone?: string;
  contactEmail?: string;
  agentUserId?: number | null;
  channels?: string[];
  /** Not a field: the version the values were loaded from, sent back on save (issue 28 #3). */
  version?: number;
};

/**
 * System → Customers (issue 17): operators create customers, give them an agent, limit the
 * channels they may use and manage their own waybill number segments.
 */
export default function CustomersPage() {
  useI18n();
  const { message } = App.useApp();
  const [filters] = Form.useForm();
  const [form] = Form.useForm<Values>();
  const paged = usePagedQuery<typeof customersCall, Filters>(customersCall, { sort: 'createdAt' });
  useFilterForm(filters, paged.filters);
  const agents = useCall(admin.userList, { role: 'agent', limit: 500, order: 'asc', sort: 'name' });
  const channels = useCall(reference.channels, {});
  const [editing, setEditing] = useState<Row | 'new' | null>(null);
  const [saving, setSaving] = useState(false);
  const stale = useStaleSave(editing === 'new' || editing === null ? undefined : editing, {
    project: asShown,
    label: (f) => t(`admin.${f}`),
    form: { fields: FORM_FIELDS, label: (f) => t(f === 'agentUserId' ? 'admin.agent' : `admin.${f}`) },
  });

  const open = (r: Row | 'new') => {
    form.resetFields();
    if (r !== 'new') form.setFieldsValue({ ...r });
    setEditing(r);
  };
  const save = async () => {
    const v = await validateForSubmit(form);
    // The version the form's values were loaded from (set with them from the row).
    const version: number | undefined = form.getFieldValue('version');
    setSaving(true);
    try {
      const body = {
        name: v.name,
        contactName: v.contactName ?? '',
        contactPhone: v.contactPhone ?? '',
        contactEmail: v.contactEmail ?? '',
        agentUserId: v.agentUserId ?? null,
        channels: v.channels ?? [],
      };
      if (editing === 'new') await createCustomer({ ...body, code: v.code ?? '' });
      else if (editing) await updateCustomer({ ...body, id: editing.id, version });
      void message.success(t('admin.saved'));
      setEditing(null);
    } catch (e) {
      const handled = await stale.resolve(e, version, {
        mine: form.getFieldsValue(true),
        values: (r) => ({ ...r }),
        reload: (current) => {
          form.resetFields();
          form.setFieldsValue({ ...current });
          setEditing(current);
        },
        // Mine where I changed, theirs elsewhere, from the version now.
        keep: (current, merged) => form.setFieldsValue({ ...merged, version: current.version }),
      });
      if (handled) return;
      if (e instanceof ApiError && e.code === 422)
        form.setFields(Object.entries(e.fieldErrors).map(([name, errors]) => ({ name: name as never, errors })));
      else void message.error(errorText(e));
    } finally {
      setSaving(false);
    }
  };

  const columns: TableColumnsType<Row> = [
    { title: t('admin.code'), dataIndex: 'code', sorter: true, key: 'code' },
    { title: t('admin.name'), dataIndex: 'name', sorter: true, key: 'name' },
    { title: t('admin.contactName'), dataIndex: 'contactName' },
    { title: t('admin.contactPhone'), dataIndex: 'contactPhone' },
    { title: t('admin.agent'), dataIndex: 'agentName', render: (v: string | null) => v ?? '-' },
    {
      title: t('admin.channels'),
      dataIndex: 'channels',
      render: (v: string[]) =>
        v.length ? v.map((c) => <Tag key={c}>{c}</Tag>) : <Tag color="default">{t('admin.allChannels')}</Tag>,
    },
    { title: t('admin.users'), dataIndex: 'users' },
    {
      title: t('admin.storedFiles'),
      dataIndex: 'storedBytes',
      render: (_, r) => <StoredFiles row={r} />,
    },
    {
      title: t('admin.createdAt'),
      dataIndex: 'createdAt',
      key: 'createdAt',
      sorter: true,
      render: (v: string) => formatTime(v),
    },
    {
      title: t('admin.actions'),
      key: 'actions',
      render: (_, r) => (
        <Button size="small" onClick={() => open(r)} data-testid={`customer-edit-${r.code}`}>
          {t('admin.edit')}
        </Button>
      ),
    },
  ];

  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="admin-customers">
      <Form
        form={filters}
        layout="inline"
        onFinish={(v: Filters) => paged.setFilters({ keyword: v.keyword?.trim() || undefined })}
      >
        <Form.Item name="keyword" label={t('admin.keyword')}>
          <Input allowClear />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit">
            {t('admin.search')}
          </Button>
          <Button type="primary" ghost onClick={() => open('new')} data-testid="customer-new">
            {t('admin.newCustomer')}
          </Button>
        </Space>
      </Form>
      <PagedTable<Row> rowKey="id" size="small" paged={paged} columns={columns} />
      <Modal
        open={editing !== null}
        title={t(editing === 'new' ? 'admin.newCustomer' : 'admin.editCustomer')}
        onCancel={() => setEditing(null)}
        onOk={() => void save().catch(() => undefined)}
        confirmLoading={saving}
        okText={t('admin.save')}
        cancelText={t('admin.cancel')}
        destroyOnHidden
        width={editing === 'new' ? 560 : 1000}
        data-testid="customer-form"
      >
        <Form form={form} layout="vertical" autoComplete="off" onFinish={() => void save().catch(() => undefined)}>
          {editing === 'new' && (
            <Form.Item name="code" label={t('admin.code')} rules={[{ required: true }]}>
              <Input data-testid="customer-code" />
            </Form.Item>
          )}
          <Form.Item name="name" label={t('admin.name')} rules={[{ required: true }]}>
            <Input data-testid="customer-name" />
          </Form.Item>
          <Form.Item name="contactName" label={t('admin.contactName')}>
            <Input />
          </Form.Item>
          <Form.Item name="contactPhone" label={t('admin.contactPhone')}>
            <Input />
          </Form.Item>
          <Form.Item name="contactEmail" label={t('admin.contactEmail')}>
            <Input />
          </Form.Item>
          <Form.Item name="agentUserId" label={t('admin.agent')}>
            <Select
              allowClear
              options={(agents.data?.list ?? []).map((a) => ({ value: a.id, label: `${a.name} ${a.displayName}` }))}
            />
          </Form.Item>
          <Form.Item name="channels" label={t('admin.channels')} extra={t('admin.channelsHelp')}>
            <Select
              mode="multiple"
              allowClear
              placeholder={t('admin.allChannels')}
              optionFilterProp="label"
              data-testid="customer-channels"
              options={(channels.data ?? []).map((c) => ({ value: c.code, label: `${c.code} ${localized(c.name)}` }))}
            />
          </Form.Item>
          {/* Enter in a field saves. */}
          <button type="submit" hidden />
        </Form>
        {editing && editing !== 'new' && (
          <Typography.Paragraph>
            {t('admin.storedFiles')}: <StoredFiles row={editing} />
          </Typography.Paragraph>
        )}
        <Divider />
        {editing && editing !== 'new' ? (
          <CustomerSegments customerId={editing.id} />
        ) : (
          <Typography.Text type="secondary">{t('admin.segmentsAfterSave')}</Typography.Text>
        )}
      </Modal>
    </Space>
  );
}

/**
 * What a customer keeps in the file store against its quota (issue 36, item 5): `1.2 MB / 10 GB`,
 * in the warning colour from 90 % and the danger colour once reached, when uploads are refused.
 */
function StoredFiles({ row }: { row: Row }) {
  const quota = row.storedBytesQuota ? formatBytes(row.storedBytesQuota) : t('admin.noQuota');
  return (
    <Typography.Text
      type={quotaTone(row.storedBytes, row.storedBytesQuota)}
      data-testid={`customer-stored-${row.code}`}
    >
      {formatBytes(row.storedBytes)} / {quota}
    </Typography.Text>
  );
}

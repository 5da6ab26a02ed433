import { admin, type CallResponse, roles } from '@console/contract';
import { App, Button, Input, Modal, Popconfirm, Select, Space, Tag, Typography, type TableColumnsType } from 'antd';
import { Form, validateForSubmit } from '@/components/form.tsx';
import { useState } from 'react';
import { PagedTable, useFilterForm, usePagedQuery } from '@/components/paged-table';
import { ApiError, errorText, formatTime, t, useCall, useI18n, useSession } from '@/lib';
import { createUser, disableUser, endSessions, resetPassword, usersCall } from './api/admin.ts';
import './i18n.ts';

type Row = CallResponse<typeof admin.userList>['list'][number];
type Filters = { keyword?: string; role?: Row['role'] };
type Values = { name: string; displayName: string; role: Row['role']; customerId?: number };

/**
 * System → Users & Agents (issue 17): accounts are made with a one-time password shown once;
 * the user must change it at the first login. Disable, reset password and end sessions.
 */
export default function UsersPage() {
  useI18n();
  const { message, modal } = App.useApp();
  const { user } = useSession();
  const [filters] = Form.useForm();
  const [form] = Form.useForm<Values>();
  const role = Form.useWatch('role', form);
  const paged = usePagedQuery<typeof usersCall, Filters>(usersCall, { sort: 'createdAt' });
  useFilterForm(filters, paged.filters);
  const customers = useCall(admin.customerList, { limit: 500, order: 'asc', sort: 'code' });
  const [creating, setCreating] = useState(false);
  const [saving, setSaving] = useState(false);
  const isAdmin = user?.roles.includes('admin-none');
  // The server refuses acting on one's own account or a higher role's (roles are listed lowest
  // first); the page offers those actions only where they can succeed.
  const myRank = Math.max(-1, ...(user?.roles ?? []).map((r) => roles.indexOf(r as Row['role'])));
  const roleLabel = (r: string) => t(`admin.roleNames.${r}`);

  const showPassword = (name: string, password: string) =>
    modal.info({
      title: t('admin.oneTimeTitle'),
      content: (
        <>
          <p>{t('admin.oneTimeText', { name })}</p>
          <Typography.Text code copyable data-testid="one-time-password">
            {password}
          </Typography.Text>
        </>
      ),
    });

  const save = async () => {
    const v = await validateForSubmit(form);
    setSaving(true);
    try {
      const r = await createUser({ ...v, customerId: v.role === 'customer' ? (v.customerId ?? null) : null });
      setCreating(false);
      showPassword(r.user.name, r.password);
    } catch (e) {
      if (e instanceof ApiError && e.code === 422)
        form.setFields(Object.entries(e.fieldErrors).map(([name, errors]) => ({ name: name as never, errors })));
      else void message.error(errorText(e));
    } finally {
      setSaving(false);
    }
  };
  const act = async (fn: () => Promise<unknown>, done?: (r: any) => void) => {
    try {
      const r = await fn();
      if (done) done(r);
      else void message.success(t('admin.saved'));
    } catch {
      /* the call's own message is shown */
    }
  };

  const columns: TableColumnsType<Row> = [
    { title: t('admin.userName'), dataIndex: 'name', key: 'name', sorter: true },
    { title: t('admin.displayName'), dataIndex: 'displayName' },
    { title: t('admin.role'), dataIndex: 'role', render: roleLabel },
    { title: t('admin.customer'), dataIndex: 'customerCode', render: (v: string | null) => v ?? '-' },
    {
      title: t('admin.status'),
      key: 'status',
      render: (_, r) => (
        <Space size={4}>
          {r.disabled ? <Tag color="red">{t('admin.disabled')}</Tag> : <Tag color="green">{t('admin.enabled')}</Tag>}
          {r.mustChangePassword && <Tag color="orange">{t('admin.mustChange')}</Tag>}
        </Space>
      ),
    },
    { title: t('admin.sessions'), dataIndex: 'sessions' },
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
      render: (_, r) =>
        r.name === user?.name || roles.indexOf(r.role) > myRank ? null : (
          <Space size={4}>
            {/* A staff member's password is reset only by an admin (the server refuses an operator). */}
            {(isAdmin || roles.indexOf(r.role) < roles.indexOf('operator')) && (
              <Popconfirm
                title={t('admin.confirmResetPassword', { name: r.name })}
                onConfirm={() =>
                  act(
                    () => resetPassword(r.id),
                    (x) => showPassword(r.name, x.password),
                  )
                }
              >
                <Button size="small" data-testid="user-reset-password">
                  {t('admin.resetPassword')}
                </Button>
              </Popconfirm>
            )}
            {r.disabled ? (
              <Button size="small" onClick={() => void act(() => disableUser(r.id, false))}>
                {t('admin.enable')}
              </Button>
            ) : (
              <Popconfirm title={t('admin.confirmDisable')} onConfirm={() => act(() => disableUser(r.id, true))}>
                <Button size="small" danger>
                  {t('admin.disable')}
                </Button>
              </Popconfirm>
            )}
            <Popconfirm
              title={t('admin.confirmEndSessions', { name: r.name })}
              onConfirm={() =>
                act(
                  () => endSessions(r.id),
                  (x) => void message.success(t('admin.sessionsEnded', { n: x.ended })),
                )
              }
            >
              <Button size="small" data-testid="user-end-sessions">
                {t('admin.endSessions')}
              </Button>
            </Popconfirm>
          </Space>
        ),
    },
  ];

  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="admin-users">
      <Form
        form={filters}
        layout="inline"
        onFinish={(v: Filters) => paged.setFilters({ keyword: v.keyword?.trim() || undefined, role: v.role })}
      >
        <Form.Item name="keyword" label={t('admin.keyword')}>
          <Input allowClear />
        </Form.Item>
        <Form.Item name="role" label={t('admin.role')}>
          <Select allowClear style={{ width: 140 }} options={roles.map((r) => ({ value: r, label: roleLabel(r) }))} />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit">
            {t('admin.search')}
          </Button>
          <Button type="primary" ghost onClick={() => (form.resetFields(), setCreating(true))} data-testid="user-new">
            {t('admin.newUser')}
          </Button>
        </Space>
      </Form>
      <PagedTable<Row> rowKey="id" size="small" paged={paged} columns={columns} />
      <Modal
        open={creating}
        title={t('admin.newUser')}
        onCancel={() => setCreating(false)}
        onOk={() => void save().catch(() => undefined)}
        confirmLoading={saving}
        okText={t('admin.save')}
        cancelText={t('admin.cancel')}
        destroyOnHidden
        data-testid="user-form"
      >
        <Form form={form} layout="vertical" autoComplete="off" initialValues={{ role: 'customer' }}>
          <Form.Item name="name" label={t('admin.userName')} rules={[{ required: true }]}>
            <Input data-testid="user-name" />
          </Form.Item>
          <Form.Item name="displayName" label={t('admin.displayName')} rules={[{ required: true }]}>
            <Input data-testid="user-display-name" />
          </Form.Item>
          <Form.Item name="role" label={t('admin.role')} rules={[{ required: true }]}>
            <Select
              data-testid="user-role"
              options={roles
                .filter((r) => isAdmin || r !== 'admin-none')
                .map((r) => ({ value: r, label: roleLabel(r) }))}
            />
          </Form.Item>
          {role === 'customer' && (
            <Form.Item name="customerId" label={t('admin.customer')} rules={[{ required: true }]}>
              <Select
                showSearch
                optionFilterProp="label"
                data-testid="user-customer"
                options={(customers.data?.list ?? []).map((c) => ({ value: c.id, label: `${c.code} ${c.name}` }))}
              />
            </Form.Item>
          )}
        </Form>
      </Modal>
    </Space>
  );
}

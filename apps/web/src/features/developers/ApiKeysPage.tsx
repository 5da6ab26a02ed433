import { apiKeys, type CallResponse } from '@console/contract';
import {
  Alert,
  App,
  Button,
  DatePicker,
  Input,
  Modal,
  Popconfirm,
  Select,
  Space,
  Switch,
  Tag,
  Tooltip,
  Typography,
  type TableColumnsType,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { CustomerSelect } from '@/components/CustomerSelect.tsx';
import { FilterBar, PagedTable, usePagedQuery } from '@/components/paged-table';
import { Form, validateForSubmit } from '@/components/form.tsx';
import { ApiError, errorText, formatTime, t, useI18n, useSession } from '@/lib';
import { apiKeysCall, createApiKey, revokeApiKey } from './api/developers.ts';
import { SecretOnce } from './SecretOnce.tsx';
import './i18n.ts';

type Row = CallResponse<typeof apiKeys.apiKeyList>['list'][number];
type Values = { name: string; scopes: Row['scopes']; expiresAt?: Dayjs | null; customerIds?: number[] };
type Filters = { keyword?: string; includeRevoked?: boolean };

/**
 * Developers → API keys (issue 39 item 5): a customer's or an agent's keys for the v1 API. A key
 * is made with its scopes and optional expiry (an agent may limit it to some of its customers),
 * shown once, and revoked after a confirmation; the server audits both. Filtered, sorted and paged
 * on the server like every list (the admin sees every tenant's keys), its state in the tab's URL.
 */
export default function ApiKeysPage() {
  useI18n();
  const { message } = App.useApp();
  const { user } = useSession();
  const role = user?.roles[0];
  const canMake = role === 'customer' || role === 'agent';
  const paged = usePagedQuery<typeof apiKeysCall, Filters>(apiKeysCall, { sort: 'createdAt' });
  const includeRevoked = paged.state.filters.includeRevoked === true;
  const [form] = Form.useForm<Values>();
  const [creating, setCreating] = useState(false);
  const [saving, setSaving] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const now = new Date().toISOString();

  const save = async () => {
    const v = await validateForSubmit(form);
    setSaving(true);
    try {
      const r = await createApiKey({
        name: v.name.trim(),
        scopes: v.scopes,
        expiresAt: v.expiresAt ? v.expiresAt.toISOString() : null,
        customerIds: v.customerIds ?? [],
      });
      setCreating(false);
      setSecret(r.key);
    } catch (e) {
      if (e instanceof ApiError && e.code === 422)
        form.setFields(Object.entries(e.fieldErrors).map(([name, errors]) => ({ name: name as never, errors })));
      else void message.error(errorText(e));
    } finally {
      setSaving(false);
    }
  };

  const revoke = async (r: Row) => {
    try {
      await revokeApiKey(r.id);
      void message.success(t('dev.revokedDone'));
    } catch {
      /* the call's own message is shown (404: revoked or gone meanwhile) */
    }
  };

  const status = (r: Row) =>
    r.revokedAt ? (
      <Tag color="red">{t('dev.revoked')}</Tag>
    ) : r.expiresAt && r.expiresAt <= now ? (
      <Tag color="orange">{t('dev.expired')}</Tag>
    ) : (
      <Tag color="green">{t('dev.active')}</Tag>
    );

  const columns: TableColumnsType<Row> = [
    { title: t('dev.name'), dataIndex: 'name', key: 'name', sorter: true },
    {
      title: t('dev.prefix'),
      dataIndex: 'prefix',
      render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
    },
    {
      title: t('dev.scopes'),
      dataIndex: 'scopes',
      render: (v: Row['scopes']) => (
        <Space size={[4, 4]} wrap>
          {v.map((s) => (
            <Tag key={s}>{t(`dev.scopeNames.${s}`)}</Tag>
          ))}
        </Space>
      ),
    },
    {
      title: t('dev.customer'),
      key: 'customer',
      // A customer's key: its code; an agent's: the customers it is limited to, by code (name on hover), or all.
      render: (_, r) =>
        r.customerCode ??
        (r.customers.length ? (
          <Space size={[4, 4]} wrap>
            {r.customers.map((c) => (
              <Tooltip key={c.id} title={c.name}>
                <Tag data-testid="key-customer">{c.code}</Tag>
              </Tooltip>
            ))}
          </Space>
        ) : (
          t('dev.allCustomers')
        )),
    },
    { title: t('dev.status'), key: 'status', render: (_, r) => status(r) },
    { title: t('dev.createdBy'), dataIndex: 'createdBy' },
    {
      title: t('dev.createdAt'),
      dataIndex: 'createdAt',
      key: 'createdAt',
      sorter: true,
      render: (v: string) => formatTime(v),
    },
    {
      title: t('dev.expiresAt'),
      dataIndex: 'expiresAt',
      key: 'expiresAt',
      sorter: true,
      render: (v: string | null) => (v ? formatTime(v) : t('dev.noExpiry')),
    },
    {
      title: t('dev.lastUsedAt'),
      dataIndex: 'lastUsedAt',
      key: 'lastUsedAt',
      sorter: true,
      render: (v: string | null) => (v ? formatTime(v) : t('dev.never')),
    },
    {
      title: t('dev.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, r) =>
        r.revokedAt ? null : (
          <Popconfirm
            title={t('dev.confirmRevoke', { name: r.name })}
            okButtonProps={{ danger: true, 'data-testid': 'key-revoke-ok' } as never}
            onConfirm={() => revoke(r)}
          >
            <Button size="small" danger data-testid="key-revoke">
              {t('dev.revoke')}
            </Button>
          </Popconfirm>
        ),
    },
  ];

  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="developer-api-keys">
      <Alert type="info" showIcon message={canMake ? t('dev.keysHint') : t('dev.staffNoKey')} />
      <Space>
        {canMake && (
          <Button type="primary" onClick={() => (form.resetFields(), setCreating(true))} data-testid="key-new">
            {t('dev.newKey')}
          </Button>
        )}
        <Switch
          checked={includeRevoked}
          onChange={(v) => paged.setFilters({ ...paged.state.filters, includeRevoked: v || undefined })}
          aria-label={t('dev.includeRevoked')}
          data-testid="key-include-revoked"
        />
        <span>{t('dev.includeRevoked')}</span>
      </Space>
      <FilterBar
        filters={paged.filters}
        i18n="dev"
        onSearch={(v) =>
          paged.setFilters({
            ...paged.state.filters,
            keyword: (v.keyword as string | undefined)?.trim() || undefined,
          })
        }
        searchTestId="key-search"
      >
        <FilterBar.Text
          name="keyword"
          width={280}
          maxLength={64}
          placeholder={t('dev.keyKeywordHint')}
          data-testid="key-keyword"
        />
      </FilterBar>
      <PagedTable<Row>
        rowKey="id"
        size="small"
        paged={paged}
        columns={columns}
        data-testid="key-table"
        onRow={(r) => ({ 'data-key-prefix': r.prefix }) as never}
      />
      <Modal
        open={creating}
        title={t('dev.newKey')}
        onCancel={() => setCreating(false)}
        onOk={() => void save().catch(() => undefined)}
        confirmLoading={saving}
        okText={t('dev.create')}
        cancelText={t('dev.cancel')}
        destroyOnHidden
        data-testid="key-form"
      >
        <Form form={form} layout="vertical" autoComplete="off" initialValues={{ scopes: ['orders:read'] }}>
          <Form.Item name="name" label={t('dev.name')} rules={[{ required: true, whitespace: true, max: 64 }]}>
            <Input maxLength={64} data-testid="key-name" />
          </Form.Item>
          <Form.Item name="scopes" label={t('dev.scopes')} rules={[{ required: true }]}>
            <Select
              mode="multiple"
              data-testid="key-scopes"
              options={apiKeys.apiScope.options.map((s) => ({ value: s, label: `${t(`dev.scopeNames.${s}`)} (${s})` }))}
            />
          </Form.Item>
          <Form.Item name="expiresAt" label={t('dev.expiresAt')} extra={t('dev.expiryHint')}>
            <DatePicker showTime style={{ width: '100%' }} data-testid="key-expires" />
          </Form.Item>
          {role === 'agent' && (
            <Form.Item name="customerIds" label={t('dev.limitedTo')} extra={t('dev.limitHint')}>
              <CustomerSelect mode="multiple" allowClear enabled={creating} data-testid="key-customers" />
            </Form.Item>
          )}
        </Form>
      </Modal>
      <SecretOnce
        title={t('dev.keyMadeTitle')}
        warning={t('dev.keyOnce')}
        secret={secret}
        onClose={() => setSecret(null)}
      />
    </Space>
  );
}

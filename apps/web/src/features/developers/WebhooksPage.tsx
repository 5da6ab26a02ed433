import { reference } from '@console/contract';
import { Alert, App, Button, Popconfirm, Space, Table, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { formatTime, t, useCall, useI18n, useSession } from '@/lib';
import { deleteEndpoint, endpointsCall, rotateSecret, sendTest, updateEndpoint } from './api/developers.ts';
import { DeliveriesDrawer } from './DeliveriesDrawer.tsx';
import { type Endpoint, EndpointForm } from './EndpointForm.tsx';
import { reasonText } from './reason.ts';
import { SecretOnce } from './SecretOnce.tsx';
import './i18n.ts';

/**
 * Developers → Webhooks (issue 39 item 5): the caller's endpoints (an agent: its customers'),
 * made and changed here as on v1 through the same service; the signing secret is shown once
 * (made or rotated), a test event goes out on demand, and the delivery log (with each attempt,
 * and a resend) opens in a drawer. An endpoint list is a tenant's handful, so it is one call.
 * The admin reads every customer's endpoints (its customer shown) and may only disable one or
 * resend a delivery, both audited (docs/decisions/2026-12-07-admin-webhooks.md).
 */
export default function WebhooksPage() {
  useI18n();
  const { message } = App.useApp();
  const { user } = useSession();
  const role = user?.roles[0];
  const isAgent = role === 'agent';
  // The endpoints' owners make and change them; the admin reads, disables and resends.
  const owns = role === 'customer' || isAgent;
  const list = useCall(endpointsCall, {});
  const customers = useCall(reference.customers, {}, { enabled: !owns || isAgent });
  const codeOf = (id: number) => customers.data?.find((c) => c.id === id)?.code ?? String(id);
  const [form, setForm] = useState<{ editing: Endpoint | null } | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [log, setLog] = useState<{ endpointId?: number } | null>(null);

  const act = async <T,>(fn: () => Promise<T>, done: (r: T) => void) => {
    try {
      done(await fn());
    } catch {
      /* the call's own message is shown (404: deleted meanwhile) */
    }
  };

  const status = (r: Endpoint) =>
    r.active ? (
      r.failingSince ? (
        <Tag color="orange">{t('dev.failingSince', { time: formatTime(r.failingSince) })}</Tag>
      ) : (
        <Tag color="green">{t('dev.enabled')}</Tag>
      )
    ) : r.disabledAt ? (
      <Tag color="red">{t('dev.disabledAuto')}</Tag>
    ) : (
      <Tag>{t('dev.inactive')}</Tag>
    );

  const columns: TableColumnsType<Endpoint> = [
    {
      title: t('dev.url'),
      dataIndex: 'url',
      sorter: (a, b) => a.url.localeCompare(b.url),
      render: (v: string, r) => (
        <Space size={4} wrap>
          <Typography.Text style={{ wordBreak: 'break-all' }}>{v}</Typography.Text>
          {/* Saved before today's rules (plain http): nothing is sent until it is edited. */}
          {r.urlProblem && (
            <Tooltip title={reasonText(r.urlProblem)}>
              <Tag color="red" data-testid="endpoint-url-fix">
                {t('dev.urlNeedsFix')}
              </Tag>
            </Tooltip>
          )}
        </Space>
      ),
    },
    { title: t('dev.description'), dataIndex: 'description' },
    ...(isAgent || !owns ? [{ title: t('dev.customer'), dataIndex: 'customerId', render: codeOf }] : []),
    {
      title: t('dev.events'),
      dataIndex: 'eventTypes',
      render: (v: string[]) => (
        <Space size={[4, 4]} wrap>
          {v.map((e) => (
            <Tag key={e}>{e}</Tag>
          ))}
        </Space>
      ),
    },
    { title: t('dev.status'), key: 'status', render: (_, r) => status(r) },
    {
      title: t('dev.createdAt'),
      dataIndex: 'createdAt',
      sorter: (a, b) => a.createdAt.localeCompare(b.createdAt),
      defaultSortOrder: 'descend',
      render: (v: string) => formatTime(v),
    },
    {
      title: t('dev.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, r) =>
        owns ? (
          ownerActions(r)
        ) : (
          <Space size={4} wrap>
            <Button size="small" onClick={() => setLog({ endpointId: r.id })} data-testid="endpoint-deliveries">
              {t('dev.deliveries')}
            </Button>
            {r.active && (
              <Popconfirm
                title={t('dev.confirmDisable', { url: r.url })}
                okButtonProps={{ danger: true, 'data-testid': 'endpoint-disable-ok' } as never}
                onConfirm={() =>
                  act(
                    () => updateEndpoint({ id: r.id, active: false }),
                    () => void message.success(t('dev.disabledDone')),
                  )
                }
              >
                <Button size="small" danger data-testid="endpoint-disable">
                  {t('dev.disable')}
                </Button>
              </Popconfirm>
            )}
          </Space>
        ),
    },
  ];

  function ownerActions(r: Endpoint) {
    return (
      <Space size={4} wrap>
        <Button size="small" onClick={() => setForm({ editing: r })} data-testid="endpoint-edit">
          {t('dev.editEndpoint')}
        </Button>
        <Tooltip title={r.active ? undefined : t('dev.inactive')}>
          <Button
            size="small"
            disabled={!r.active}
            onClick={() =>
              void act(
                () => sendTest(r.id),
                () => void message.success(t('dev.testSent')),
              )
            }
            data-testid="endpoint-test"
          >
            {t('dev.sendTest')}
          </Button>
        </Tooltip>
        <Button size="small" onClick={() => setLog({ endpointId: r.id })} data-testid="endpoint-deliveries">
          {t('dev.deliveries')}
        </Button>
        <Popconfirm
          title={t('dev.confirmRotate')}
          okButtonProps={{ 'data-testid': 'endpoint-rotate-ok' } as never}
          onConfirm={() =>
            act(
              () => rotateSecret(r.id),
              (x) => setSecret(x.secret),
            )
          }
        >
          <Button size="small" data-testid="endpoint-rotate">
            {t('dev.rotate')}
          </Button>
        </Popconfirm>
        <Popconfirm
          title={t('dev.confirmDelete', { url: r.url })}
          okButtonProps={{ danger: true, 'data-testid': 'endpoint-delete-ok' } as never}
          onConfirm={() =>
            act(
              () => deleteEndpoint(r.id),
              () => void message.success(t('dev.deleted')),
            )
          }
        >
          <Button size="small" danger data-testid="endpoint-delete">
            {t('dev.delete')}
          </Button>
        </Popconfirm>
      </Space>
    );
  }

  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="developer-webhooks">
      <Alert type="info" showIcon message={owns ? t('dev.webhooksHint') : t('dev.adminWebhooksHint')} />
      <Space>
        {owns && (
          <Button type="primary" onClick={() => setForm({ editing: null })} data-testid="endpoint-new">
            {t('dev.newEndpoint')}
          </Button>
        )}
        <Button onClick={() => setLog({})} data-testid="deliveries-open">
          {t('dev.deliveries')}
        </Button>
      </Space>
      <Table<Endpoint>
        rowKey="id"
        size="small"
        loading={list.isLoading}
        dataSource={list.data?.list ?? []}
        columns={columns}
        scroll={{ x: 'max-content' }}
        pagination={{ defaultPageSize: 20, showSizeChanger: true, hideOnSinglePage: true }}
        data-testid="endpoint-table"
        onRow={(r) => ({ 'data-endpoint-url': r.url }) as never}
      />
      <EndpointForm
        open={form !== null}
        editing={form?.editing ?? null}
        isAgent={isAgent}
        onClose={() => setForm(null)}
        onMade={setSecret}
      />
      <SecretOnce
        title={t('dev.secretMadeTitle')}
        warning={t('dev.secretOnce')}
        secret={secret}
        onClose={() => setSecret(null)}
      />
      <DeliveriesDrawer
        open={log !== null}
        endpointId={log?.endpointId}
        endpoints={list.data?.list ?? []}
        // The admin's and an agent's logs hold several customers' deliveries, as their endpoint lists.
        customerOf={isAgent || !owns ? codeOf : undefined}
        onClose={() => setLog(null)}
      />
    </Space>
  );
}

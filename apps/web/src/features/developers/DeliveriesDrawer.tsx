import { type CallResponse, v1, webhooks } from '@console/contract';
import { App, Button, Drawer, Input, Select, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useEffect, useState } from 'react';
import { formatTime, t, useCall } from '@/lib';
import { deliveriesCall, resendDelivery } from './api/developers.ts';
import type { Endpoint } from './EndpointForm.tsx';
import { reasonText } from './reason.ts';
import './i18n.ts';

type Row = CallResponse<typeof webhooks.webhookDeliveryList>['list'][number];
type Filters = { endpointId?: number; status?: Row['status']; eventId?: string };
const PAGE = 20;
const statusColor = { pending: 'blue', succeeded: 'green', failed: 'red', cancelled: 'default' } as const;

/** One delivery's attempts, asked for when its row is opened. */
function Attempts({ id }: { id: number }) {
  const one = useCall(webhooks.webhookDeliveryGet, { id });
  return (
    <Table
      rowKey="attempt"
      size="small"
      loading={one.isLoading}
      pagination={false}
      dataSource={one.data?.attemptLog ?? []}
      columns={[
        { title: '#', dataIndex: 'attempt' },
        { title: t('dev.lastAttemptAt'), dataIndex: 'at', render: (v: string) => formatTime(v) },
        { title: t('dev.lastStatus'), dataIndex: 'statusCode', render: (v: number | null) => v ?? '-' },
        { title: t('dev.latency'), dataIndex: 'latencyMs' },
        {
          title: t('dev.response'),
          key: 'response',
          render: (_, a) => (
            <Typography.Text type={a.error ? 'danger' : undefined}>
              {a.error ? reasonText(a.error) : a.response}
            </Typography.Text>
          ),
        },
      ]}
    />
  );
}

/**
 * The delivery log, newest first, paged on the server by its cursor (the rows before the last
 * id seen): Older moves on, Newer goes back. Filtered by endpoint, status and event id; a
 * delivery opens to its attempts and may be sent again.
 */
export function DeliveriesDrawer({
  open,
  endpointId,
  endpoints,
  customerOf,
  onClose,
}: {
  open: boolean;
  endpointId?: number;
  endpoints: readonly Endpoint[];
  /**
   * Where the log holds several customers' deliveries (the admin's, an agent's): each row's
   * customer, by code. A customer's own log has no such column.
   */
  customerOf?: (customerId: number) => string;
  onClose: () => void;
}) {
  const { message } = App.useApp();
  const [filters, setFilters] = useState<Filters>({});
  const [eventId, setEventId] = useState('');
  const [cursors, setCursors] = useState<(number | undefined)[]>([undefined]);
  useEffect(() => {
    if (!open) return;
    setFilters({ endpointId });
    setEventId('');
    setCursors([undefined]);
  }, [open, endpointId]);
  const before = cursors.at(-1);
  const page = useCall(deliveriesCall, { ...filters, before, limit: PAGE }, { enabled: open });
  const rows = page.data?.list ?? [];
  const filter = (f: Filters) => (setFilters(f), setCursors([undefined]));
  const urlOf = (id: number) => endpoints.find((e) => e.id === id)?.url ?? `#${id}`;

  const columns: TableColumnsType<Row> = [
    { title: t('dev.createdAt'), dataIndex: 'createdAt', render: (v: string) => formatTime(v) },
    { title: t('dev.event'), dataIndex: 'eventType' },
    {
      title: t('dev.status'),
      dataIndex: 'status',
      render: (v: Row['status']) => <Tag color={statusColor[v]}>{t(`dev.deliveryStatus.${v}`)}</Tag>,
    },
    ...(customerOf ? [{ title: t('dev.customer'), dataIndex: 'customerId', key: 'customer', render: customerOf }] : []),
    { title: t('dev.endpoint'), dataIndex: 'endpointId', render: urlOf },
    { title: t('dev.attempts'), dataIndex: 'attempts' },
    { title: t('dev.lastStatus'), dataIndex: 'lastStatusCode', render: (v: number | null) => v ?? '-' },
    {
      title: t('dev.eventId'),
      dataIndex: 'eventId',
      render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
    },
    {
      title: t('dev.actions'),
      key: 'actions',
      render: (_, r) => (
        <Button
          size="small"
          data-testid="delivery-resend"
          onClick={() =>
            void resendDelivery(r.id).then(
              () => void message.success(t('dev.resent')),
              () => undefined, // the call's own message is shown
            )
          }
        >
          {t('dev.resend')}
        </Button>
      ),
    },
  ];

  return (
    <Drawer
      open={open}
      onClose={onClose}
      // The customer column needs the room: at 1100 px the row's 操作 fell past the drawer's edge.
      width={customerOf ? 'min(1200px, 100vw)' : 'min(1100px, 100vw)'}
      title={t('dev.deliveries')}
      destroyOnHidden
    >
      <Space direction="vertical" style={{ width: '100%' }} data-testid="webhook-deliveries">
        <Space wrap>
          <Select
            allowClear
            style={{ width: 280 }}
            value={filters.endpointId}
            placeholder={t('dev.endpoint')}
            aria-label={t('dev.endpoint')}
            onChange={(v?: number) => filter({ ...filters, endpointId: v })}
            options={endpoints.map((e) => ({ value: e.id, label: e.url }))}
            data-testid="delivery-endpoint"
          />
          <Select
            allowClear
            style={{ width: 140 }}
            value={filters.status}
            placeholder={t('dev.status')}
            aria-label={t('dev.status')}
            onChange={(v?: Row['status']) => filter({ ...filters, status: v })}
            options={v1.webhookDeliveryStatus.options.map((s) => ({ value: s, label: t(`dev.deliveryStatus.${s}`) }))}
            data-testid="delivery-status"
          />
          <Input.Search
            allowClear
            style={{ width: 300 }}
            maxLength={64}
            value={eventId}
            placeholder={t('dev.eventId')}
            aria-label={t('dev.eventId')}
            enterButton={t('dev.search')}
            onChange={(e) => setEventId(e.target.value)}
            onSearch={(v) => filter({ ...filters, eventId: v.trim() || undefined })}
            data-testid="delivery-event"
          />
          <Button onClick={() => void page.refetch()} data-testid="delivery-refresh">
            {t('dev.refresh')}
          </Button>
        </Space>
        <Table<Row>
          rowKey="id"
          size="small"
          loading={page.isFetching}
          dataSource={rows}
          columns={columns}
          pagination={false}
          scroll={{ x: 'max-content' }}
          expandable={{ expandedRowRender: (r) => <Attempts id={r.id} /> }}
          data-testid="delivery-table"
          onRow={(r) =>
            ({
              'data-delivery-status': r.status,
              'data-event-type': r.eventType,
              ...(customerOf && { 'data-delivery-customer': customerOf(r.customerId) }),
            }) as never
          }
        />
        <Space>
          <Button disabled={cursors.length < 2} onClick={() => setCursors(cursors.slice(0, -1))}>
            {t('dev.newer')}
          </Button>
          <Button disabled={rows.length < PAGE} onClick={() => setCursors([...cursors, rows.at(-1)!.id])}>
            {t('dev.older')}
          </Button>
        </Space>
      </Space>
    </Drawer>
  );
}

import { type pickups as P } from '@console/contract';
import { App, Button, Input, Modal, Tabs, Tag, type TableColumnsType } from 'antd';
import { Form, validateForSubmit } from '@/components/form.tsx';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import {
  FilterBar,
  ListPage,
  listActions,
  listColumn,
  PagedTable,
  rangeToDates,
  usePagedQuery,
} from '@/components/paged-table';
import { formatTime, invalidateCall, t, useI18n, useSession } from '@/lib';
import { cancelPickup, downloadSlip, messagesCall, pickupListCall, refreshPickups } from './api/pickups.ts';
import { PickupDetailDrawer } from './components/PickupDetailDrawer.tsx';
import './i18n.ts';

type Row = P.PickupRow;
type Filters = Omit<P.PickupListRequest, 'offset' | 'limit' | 'order' | 'sort'>;
const SORTABLE = new Set(['createdAt', 'pickupDate']);
const STATUS_COLOR = { booked: 'blue', cancelled: 'default', pickedUp: 'green' } as const;

/**
 * Pickup list (spec §2 subscribeTake.list): filtered, sorted and paged on the server; each row
 * downloads its slip, and a booked one is cancelled with a reason until its cutoff. A second tab
 * lists the customer's pickup messages (booked, changed, cancelled, picked up).
 */
export default function PickupListPage() {
  useI18n();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [reasonForm] = Form.useForm();
  const { user } = useSession();
  const isCustomer = !!user?.customer;
  const paged = usePagedQuery<typeof pickupListCall, Filters>(pickupListCall, { sort: 'createdAt' });
  const messages = usePagedQuery<typeof messagesCall, Record<string, never>>(messagesCall, { url: { prefix: 'msg' } });
  const [cancelling, setCancelling] = useState<Row | null>(null);
  const [viewing, setViewing] = useState<number | null>(null);

  const onSearch = (v: Record<string, any>) => {
    void invalidateCall(pickupListCall);
    paged.setFilters({
      pickupNo: v.pickupNo?.trim() || undefined,
      boxNo: v.boxNo?.trim() || undefined,
      region: v.region,
      status: v.status,
      customerId: v.customerId,
      ...rangeToDates(v.range),
    });
  };
  const confirmCancel = async () => {
    // A missing reason is shown on the field; nothing to send.
    const v = await validateForSubmit(reasonForm).catch(() => null);
    if (!v) return;
    const { reason } = v as { reason: string };
    await cancelPickup(cancelling!.id, reason);
    void message.success(t('pickups.cancelled'));
    setCancelling(null);
    reasonForm.resetFields();
    await refreshPickups();
  };

  const label = (k: string) => t(`pickups.${k}`);
  const col = listColumn<Row>('pickups', SORTABLE, { customerCode: 'customer', pickupDate: 'date' });
  const columns: TableColumnsType<Row> = [
    col('pickupNo', (r) => (
      <Button type="link" size="small" onClick={() => setViewing(r.id)} data-testid="pickup-open">
        {r.pickupNo}
      </Button>
    )),
    ...(isCustomer ? [] : [col('customerCode')]),
    col('region', (r) => t(`pickups.regions.${r.region}`)),
    col('pickupDate'),
    col('slot'),
    col('boxNo'),
    col('shopAbbr'),
    col('counts', (r) => `${r.bigCartons} / ${r.smallParcels}`),
    col('markerPrefix'),
    col('status', (r) => (
      <Tag color={STATUS_COLOR[r.status]} title={r.cancelReason ?? undefined}>
        {t(`pickups.statuses.${r.status}`)}
      </Tag>
    )),
    col('storageNo', (r) => r.storageNo ?? ''),
    col('createdAt', (r) => formatTime(r.createdAt)),
    listActions<Row>('pickups', (r) => (
      <>
        <Button size="small" type="link" onClick={() => void downloadSlip(r.id)} data-testid="pickup-slip">
          {label('downloadSlip')}
        </Button>
        {r.cancellable && (
          <Button
            size="small"
            type="link"
            onClick={() => navigate(`/subscribeTake/update?id=${r.id}`)}
            data-testid="pickup-edit"
          >
            {label('edit')}
          </Button>
        )}
        {r.cancellable && (
          <Button size="small" type="link" danger onClick={() => setCancelling(r)} data-testid="pickup-cancel">
            {label('cancel')}
          </Button>
        )}
      </>
    )),
  ];
  const messageColumns: TableColumnsType<P.PickupMessageRow> = [
    { key: 'at', title: label('at'), render: (_, m) => formatTime(m.createdAt) },
    { key: 'pickupNo', title: label('pickupNo'), dataIndex: 'pickupNo' },
    ...(isCustomer ? [] : [{ key: 'customer', title: label('customer'), dataIndex: 'customerCode' }]),
    { key: 'kind', title: label('status'), render: (_, m) => m.kind },
    { key: 'text', title: label('message'), dataIndex: 'text' },
  ];

  const list = (
    <ListPage<Row>
      paged={paged}
      i18n="pickups"
      onSearch={onSearch}
      testId="pickup"
      createPath="/subscribeTake/create"
      columns={columns}
      onRow={(r) => ({ 'data-pickup-no': r.pickupNo }) as never}
      filters={
        <>
          <FilterBar.Text name="pickupNo" width={200} maxLength={32} data-testid="pickup-filter-no" />
          <FilterBar.Text name="boxNo" width={160} maxLength={32} data-testid="pickup-filter-box" />
          <FilterBar.Enum name="region" width={110} values={['tokyo', 'osaka']} i18n="pickups.regions" />
          <FilterBar.Enum
            name="status"
            width={120}
            values={['booked', 'cancelled', 'pickedUp']}
            i18n="pickups.statuses"
          />
          <FilterBar.Customer />
          <FilterBar.DateRange />
        </>
      }
    />
  );

  return (
    <>
      <Tabs
        items={[
          { key: 'list', label: label('list'), children: list },
          {
            key: 'messages',
            label: label('messages'),
            children: (
              <PagedTable<P.PickupMessageRow>
                rowKey="id"
                size="small"
                paged={messages}
                columns={messageColumns}
                data-testid="pickup-messages"
              />
            ),
          },
        ]}
      />
      <PickupDetailDrawer id={viewing} onClose={() => setViewing(null)} />
      <Modal
        open={!!cancelling}
        title={cancelling ? t('pickups.cancelTitle', { no: cancelling.pickupNo }) : ''}
        onOk={() => void confirmCancel()}
        onCancel={() => setCancelling(null)}
        okButtonProps={{ danger: true, 'data-testid': 'pickup-cancel-ok' } as never}
        destroyOnHidden
      >
        <Form form={reasonForm} layout="vertical">
          <Form.Item
            name="reason"
            label={label('reason')}
            rules={[{ required: true, message: label('reasonRequired') }]}
          >
            <Input.TextArea maxLength={200} rows={3} data-testid="pickup-cancel-reason" />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}

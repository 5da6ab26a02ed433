import { Button, Descriptions, Drawer, Space, Table, Tag } from 'antd';
import { useNavigate } from 'react-router';
import { formatTime, t, useCall } from '@/lib';
import { downloadSlip, messagesCall, pickupInfoCall } from '../api/pickups.ts';

const STATUS_COLOR = { booked: 'blue', cancelled: 'default', pickedUp: 'green' } as const;

/**
 * A pickup's detail (call subscribe/take/piece/info; issue 28 #16): every field of the booking,
 * read afresh from the server, with its messages (booked, changed, cancelled, picked up) newest
 * first, its slip and, while it can still be changed, the way to its update page.
 */
export function PickupDetailDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const navigate = useNavigate();
  const info = useCall(pickupInfoCall, { id: id ?? 0 }, { enabled: id !== null });
  const history = useCall(messagesCall, { pickupId: id ?? undefined, limit: 50 }, { enabled: id !== null });
  const r = id !== null ? info.data : undefined;
  const label = (k: string) => t(`pickups.${k}`);
  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      width={640}
      title={r ? `${label('detail')} ${r.pickupNo}` : label('detail')}
      loading={info.isFetching && !r}
      data-testid="pickup-detail"
      extra={
        r && (
          <Space>
            <Button onClick={() => void downloadSlip(r.id)}>{label('downloadSlip')}</Button>
            {r.cancellable && (
              <Button
                type="primary"
                data-testid="pickup-detail-edit"
                onClick={() => {
                  onClose();
                  navigate(`/subscribeTake/update?id=${r.id}`);
                }}
              >
                {label('edit')}
              </Button>
            )}
          </Space>
        )
      }
    >
      {r && (
        <>
          <Descriptions size="small" column={2} bordered>
            <Descriptions.Item label={label('pickupNo')}>{r.pickupNo}</Descriptions.Item>
            <Descriptions.Item label={label('customer')}>{r.customerCode}</Descriptions.Item>
            <Descriptions.Item label={label('region')}>{t(`pickups.regions.${r.region}`)}</Descriptions.Item>
            <Descriptions.Item label={label('status')}>
              <Tag color={STATUS_COLOR[r.status]}>{t(`pickups.statuses.${r.status}`)}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label={label('date')}>{r.pickupDate}</Descriptions.Item>
            <Descriptions.Item label={label('slot')}>{r.slot}</Descriptions.Item>
            <Descriptions.Item label={label('boxNo')}>{r.boxNo}</Descriptions.Item>
            <Descriptions.Item label={label('shopAbbr')}>{r.shopAbbr}</Descriptions.Item>
            <Descriptions.Item label={label('bigCartons')}>{r.bigCartons}</Descriptions.Item>
            <Descriptions.Item label={label('smallParcels')}>{r.smallParcels}</Descriptions.Item>
            <Descriptions.Item label={label('markerPrefix')}>{r.markerPrefix}</Descriptions.Item>
            <Descriptions.Item label={label('storageNo')}>{r.storageNo ?? '-'}</Descriptions.Item>
            <Descriptions.Item label={label('cutoffAt')}>{formatTime(r.cutoffAt)}</Descriptions.Item>
            <Descriptions.Item label={label('updatedAt')}>{formatTime(r.updatedAt)}</Descriptions.Item>
            {r.cancelReason && (
              <Descriptions.Item label={label('reason')} span={2}>
                {r.cancelReason}
              </Descriptions.Item>
            )}
          </Descriptions>
          <h4 style={{ marginTop: 16 }}>{label('history')}</h4>
          <Table
            size="small"
            rowKey="id"
            pagination={false}
            dataSource={history.data?.list ?? []}
            data-testid="pickup-detail-history"
            columns={[
              { key: 'at', title: label('at'), render: (_, m) => formatTime(m.createdAt) },
              { key: 'text', title: label('message'), dataIndex: 'text' },
            ]}
          />
        </>
      )}
    </Drawer>
  );
}

import { Card, Descriptions, Empty, Space, Table, Tag } from 'antd';
import { useSearchParams } from 'react-router';
import { useTabRecord } from '@/components/useTabRecord.ts';
import { errorText, formatTime, t, useCall, useI18n } from '@/lib';
import { locationsCall, meituanInfoCall, meituanItemsCall } from './api/meituan.ts';
import './i18n.ts';

/** One Meituan reservation order (spec §2 meituanOrder info / items): its numbers, receiver and items. */
export default function MeituanInfoPage() {
  useI18n();
  const [params] = useSearchParams();
  const id = Number(params.get('id') ?? 0);
  if (!id) return <Empty />;
  return <Info id={id} />;
}

function Info({ id }: { id: number }) {
  const info = useCall(meituanInfoCall, { id });
  const items = useCall(meituanItemsCall, { id });
  const locations = useCall(locationsCall, {});
  const o = info.data;
  useTabRecord(o?.systemNo);
  const l = (k: string) => t(`meituan.${k}`);
  if (info.isError) return <Empty description={errorText(info.error)} />;
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Card title={o?.systemNo} data-testid="meituan-info">
        {o && (
          <Descriptions size="small" column={3}>
            <Descriptions.Item label={l('meituanNo')}>{o.meituanNo}</Descriptions.Item>
            <Descriptions.Item label={l('expressNo')}>{o.expressNo}</Descriptions.Item>
            <Descriptions.Item label={l('orderRef')}>{o.orderRef}</Descriptions.Item>
            <Descriptions.Item label={l('customer')}>{o.customerCode}</Descriptions.Item>
            <Descriptions.Item label={l('status')}>
              <Tag color={o.status === 1 ? 'green' : 'orange'}>{t(`meituan.statuses.${o.status}`)}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label={l('operationLocation')}>
              {locations.data?.find((x) => x.value === o.operationLocation)?.label ?? o.operationLocation}
            </Descriptions.Item>
            <Descriptions.Item label={l('batchNumber')}>{o.batchNumber}</Descriptions.Item>
            <Descriptions.Item label={l('receiverName')}>{o.receiverName}</Descriptions.Item>
            <Descriptions.Item label={l('receiverPhone')}>{o.receiverPhone}</Descriptions.Item>
            <Descriptions.Item label={l('receiverAddress')} span={3}>
              {o.receiverAddress}
            </Descriptions.Item>
            <Descriptions.Item label={l('totalPrice')}>{o.totalPrice}</Descriptions.Item>
            <Descriptions.Item label={l('createdAt')}>{formatTime(o.createdAt)}</Descriptions.Item>
            <Descriptions.Item label={l('completedAt')}>
              {o.completedAt ? `${formatTime(o.completedAt)} ${o.completedBy ?? ''}` : ''}
            </Descriptions.Item>
          </Descriptions>
        )}
      </Card>
      <Card title={l('items')} size="small">
        <Table
          rowKey="id"
          size="small"
          pagination={false}
          loading={items.isFetching}
          dataSource={items.data ?? []}
          data-testid="meituan-items"
          columns={(['barcode', 'name', 'specs', 'price', 'count'] as const).map((k) => ({
            key: k,
            dataIndex: k,
            title: l(k === 'name' ? 'itemName' : k),
          }))}
        />
      </Card>
    </Space>
  );
}

import { Button, Card, Descriptions, Empty, Space } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { useTabRecord } from '@/components/useTabRecord.ts';
import { errorText, formatTime, t, useCall, useI18n } from '@/lib';
import { originsCall } from './api/storageOrders.ts';
import { LinesTable, useLines } from './components/LinesTable.tsx';
import { StorageKindTag, StorageStatusTag } from './components/shared.tsx';
import './i18n.ts';

/** One storage order (spec §2 storageOrder.info): its header and counts, then its refused lines. */
export default function StorageInfoPage() {
  useI18n();
  const [params] = useSearchParams();
  const id = Number(params.get('id') ?? 0);
  if (!id) return <Empty />;
  return <Info id={id} />;
}

function Info({ id }: { id: number }) {
  const navigate = useNavigate();
  const paged = useLines({ id, result: 'refused' });
  const so = paged.data?.storageOrder;
  const origins = useCall(originsCall, {});
  useTabRecord(so?.storageNo);
  if (paged.query.isError && !paged.data) return <Empty description={errorText((paged.query as any).error)} />;
  const l = (k: string) => t(`storageOrders.${k}`);
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Card
        title={so?.storageNo}
        data-testid="storage-info"
        extra={
          <Button onClick={() => navigate(`/storageOrder/item?id=${id}`)} data-testid="storage-open-orders">
            {l('orders')}
          </Button>
        }
      >
        {so && (
          <Descriptions size="small" column={3}>
            <Descriptions.Item label={l('customer')}>{so.customerCode ?? l('anyCustomer')}</Descriptions.Item>
            <Descriptions.Item label={l('method')}>{t(`storageOrders.methods.${so.method}`)}</Descriptions.Item>
            <Descriptions.Item label={l('origin')}>
              {origins.data?.find((o) => o.value === so.origin)?.label ?? so.origin}
            </Descriptions.Item>
            <Descriptions.Item label={l('kind')}>
              <StorageKindTag preAlert={so.preAlert} />
            </Descriptions.Item>
            <Descriptions.Item label={l('status')}>
              <StorageStatusTag status={so.status} />
            </Descriptions.Item>
            <Descriptions.Item label={l('lineCount')}>{so.lineCount}</Descriptions.Item>
            <Descriptions.Item label={l('receivedCount')}>
              <span data-testid="storage-received">{so.receivedCount}</span>
            </Descriptions.Item>
            <Descriptions.Item label={l('refusedCount')}>{so.refusedCount}</Descriptions.Item>
            <Descriptions.Item label={l('createdBy')}>{so.createdBy}</Descriptions.Item>
            <Descriptions.Item label={l('createdAt')}>{formatTime(so.createdAt)}</Descriptions.Item>
            {so.fileName && <Descriptions.Item label={l('fileName')}>{so.fileName}</Descriptions.Item>}
          </Descriptions>
        )}
      </Card>
      <Card title={l('result_refused')} size="small">
        <LinesTable paged={paged} />
      </Card>
    </Space>
  );
}

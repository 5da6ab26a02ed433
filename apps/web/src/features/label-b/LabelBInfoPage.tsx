import { Button, Card, Descriptions, Empty, Space } from 'antd';
import { useSearchParams } from 'react-router';
import { useTabRecord } from '@/components/useTabRecord.ts';
import { errorText, formatTime, t, useCall, useI18n } from '@/lib';
import { exportBatch, labelBInfoCall } from './api/labelB.ts';
import { ConfirmBatch } from './components/ConfirmBatch.tsx';
import { RowsTable, StatusTag } from './components/shared.tsx';
import './i18n.ts';

/** One address batch (spec §7 updateLableB/info): its counts, its rows old and new, its export. */
export default function LabelBInfoPage() {
  useI18n();
  const [params] = useSearchParams();
  const id = Number(params.get('id') ?? 0);
  if (!id) return <Empty />;
  return <Info id={id} />;
}

function Info({ id }: { id: number }) {
  const q = useCall(labelBInfoCall, { id });
  const b = q.data?.batch;
  useTabRecord(b?.batchNo);
  if (q.isError && !q.data) return <Empty description={errorText(q.error)} />;
  const l = (k: string) => t(`labelB.${k}`);
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Card
        title={b?.batchNo}
        data-testid="labelb-info"
        extra={
          <Button onClick={() => void exportBatch(id)} data-testid="labelb-export">
            {l('export')}
          </Button>
        }
      >
        {b && (
          <Descriptions size="small" column={3}>
            <Descriptions.Item label={l('status')}>
              <StatusTag status={b.status} />
            </Descriptions.Item>
            <Descriptions.Item label={l('customer')}>{b.customerCode}</Descriptions.Item>
            <Descriptions.Item label={l('fileName')}>{b.fileName}</Descriptions.Item>
            <Descriptions.Item label={l('rowCount')}>{b.rowCount}</Descriptions.Item>
            <Descriptions.Item label={l('refusedCount')}>{b.refusedCount}</Descriptions.Item>
            <Descriptions.Item label={l('changedCount')}>{b.changedCount}</Descriptions.Item>
            <Descriptions.Item label={l('labelBCount')}>{b.labelBCount}</Descriptions.Item>
            <Descriptions.Item label={l('createdAt')}>{formatTime(b.createdAt)}</Descriptions.Item>
            {b.error && <Descriptions.Item label={l('error')}>{b.error}</Descriptions.Item>}
          </Descriptions>
        )}
        {b?.status === 'draft' && <ConfirmBatch key={b.id} batch={b} onEnd={() => void q.refetch()} />}
      </Card>
      {q.data && <RowsTable rows={q.data.rows} />}
    </Space>
  );
}

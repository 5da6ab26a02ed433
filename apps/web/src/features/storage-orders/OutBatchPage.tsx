import { splitPastedNumbers, type storageOrders as S } from '@console/contract';
import {
  Alert,
  App,
  Button,
  Card,
  Input,
  List,
  Popconfirm,
  Space,
  type TableColumnsType,
  Typography,
  Upload,
} from 'antd';
import { useState } from 'react';
import { PagedTable, useFilterText, usePagedQuery, useRowSelection } from '@/components/paged-table';
import { errorText, formatTime, invalidateCall, t, useI18n } from '@/lib';
import { downloadManifest, shipExcel, shipmentsCall, shipMany, shippableCall } from './api/storageOrders.ts';
import { OutcomeTag } from './components/shared.tsx';
import './i18n.ts';
import { CopyNumber } from '@/components/CopyNumber.tsx';

type Shippable = S.ShippableRow;
type Result = Awaited<ReturnType<typeof shipMany>>;

/**
 * Out batch (operators): select received orders, paste waybills or upload an xlsx; they ship
 * as one shipment (one transaction, refusals line by line) after a confirmation; every
 * shipment's manifest downloads again from the list below.
 */
export default function OutBatchPage() {
  useI18n();
  const { message } = App.useApp();
  const shippable = usePagedQuery<typeof shippableCall, { code?: string }>(shippableCall, { limit: 50 });
  const [find, setFind] = useFilterText(shippable.state.filters.code);
  const shipments = usePagedQuery<typeof shipmentsCall, Record<string, never>>(shipmentsCall, {
    limit: 10,
    url: { prefix: 'sent' },
  });
  const selection = useRowSelection<Shippable>(shippable);
  const selected = selection.keys as number[];
  const [pasted, setPasted] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The contract's one rule for pasted numbers (spec §5: a repeat is kept where it last comes).
  const waybills = splitPastedNumbers(pasted);
  const count = selected.length + waybills.length;

  const after = async (r: Result) => {
    setResult(r);
    selection.clear();
    setPasted('');
    const ok = r.lines.filter((l) => l.ok).length;
    if (r.shipment)
      void message.success(t('storageOrders.shipped', { no: r.shipment.shipmentNo, ok, bad: r.lines.length - ok }));
    else void message.warning(t('storageOrders.nothingShipped'));
    await Promise.all([invalidateCall(shippableCall), invalidateCall(shipmentsCall)]);
  };
  const run = async (f: () => Promise<Result>) => {
    setBusy(true);
    setError(null);
    try {
      await after(await f());
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const orderColumns: TableColumnsType<Shippable> = [
    { key: 'waybillNo', title: t('storageOrders.waybill'), render: (_, r) => <CopyNumber value={r.waybillNo} /> },
    { key: 'orderNo', title: t('storageOrders.order'), render: (_, r) => <CopyNumber value={r.orderNo} /> },
    { key: 'customer', title: t('storageOrders.customer'), render: (_, r) => r.customerCode },
    { key: 'city', title: t('storageOrders.recipientCity'), render: (_, r) => r.recipientCity },
    { key: 'items', title: t('storageOrders.itemCount'), render: (_, r) => r.itemCount },
    {
      key: 'receivedAt',
      title: t('storageOrders.receivedAt'),
      render: (_, r) => (r.receivedAt ? formatTime(r.receivedAt) : ''),
    },
  ];
  const shipmentColumns: TableColumnsType<S.ShipmentRow> = [
    { key: 'shipmentNo', title: t('storageOrders.shipmentNo'), render: (_, r) => r.shipmentNo },
    {
      key: 'method',
      title: t('storageOrders.shipmentMethod'),
      render: (_, r) => t(`storageOrders.shipmentMethods.${r.method}`),
    },
    { key: 'orderCount', title: t('storageOrders.orderCount'), render: (_, r) => r.orderCount },
    { key: 'createdBy', title: t('storageOrders.createdBy'), render: (_, r) => r.createdBy },
    { key: 'createdAt', title: t('storageOrders.at'), render: (_, r) => formatTime(r.createdAt) },
    {
      key: 'manifest',
      title: t('storageOrders.actions'),
      render: (_, r) => (
        <Button size="small" type="link" onClick={() => void downloadManifest(r.id)} data-testid="shipment-manifest">
          {t('storageOrders.manifest')}
        </Button>
      ),
    },
  ];

  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="out-batch-page">
      <Typography.Text type="secondary">{t('storageOrders.outBatchHint')}</Typography.Text>
      <Card size="small" title={t('storageOrders.shippable')}>
        <Space direction="vertical" style={{ width: '100%' }}>
          <Input.Search
            allowClear
            style={{ width: 280 }}
            placeholder={t('storageOrders.find')}
            value={find}
            onChange={(e) => setFind(e.target.value)}
            onSearch={(v) => shippable.setFilters({ code: v.trim() || undefined })}
            data-testid="out-batch-find"
          />
          {selection.bar}
          <PagedTable<Shippable>
            rowKey="id"
            size="small"
            paged={shippable}
            columns={orderColumns}
            rowSelection={selection.rowSelection}
            data-testid="out-batch-orders"
            onRow={(r) => ({ 'data-waybill': r.waybillNo }) as never}
          />
        </Space>
      </Card>
      <Input.TextArea
        rows={3}
        placeholder={t('storageOrders.paste')}
        value={pasted}
        onChange={(e) => setPasted(e.target.value)}
        data-testid="out-batch-paste"
      />
      <Space>
        <Popconfirm
          title={t('storageOrders.shipConfirm', { n: count })}
          disabled={!count}
          onConfirm={() => run(() => shipMany(selected, waybills))}
        >
          <Button type="primary" disabled={!count} loading={busy} data-testid="out-batch-ship">
            {t('storageOrders.shipSelected')}
          </Button>
        </Popconfirm>
        <Upload
          accept=".xlsx"
          showUploadList={false}
          disabled={busy}
          beforeUpload={(f) => {
            void run(() => shipExcel(f));
            return false;
          }}
        >
          <Button loading={busy}>{t('storageOrders.uploadShip')}</Button>
        </Upload>
      </Space>
      {error && <Alert type="error" showIcon message={error} />}
      {result && (
        <Card size="small" data-testid="out-batch-result">
          {result.shipment && (
            <Space style={{ marginBottom: 8 }}>
              <Typography.Text strong>{`${t('storageOrders.shipment')} ${result.shipment.shipmentNo}`}</Typography.Text>
              <Button
                size="small"
                onClick={() => void downloadManifest(result.shipment!.id)}
                data-testid="out-batch-manifest"
              >
                {t('storageOrders.manifest')}
              </Button>
            </Space>
          )}
          <List
            size="small"
            dataSource={result.lines}
            renderItem={(l) => (
              <List.Item data-code={l.code} data-outcome={l.outcome}>
                <Space>
                  <OutcomeTag outcome={l.outcome} direction="out" />
                  <Typography.Text code>{l.code}</Typography.Text>
                  {l.message}
                </Space>
              </List.Item>
            )}
          />
        </Card>
      )}
      <Card size="small" title={t('storageOrders.shipments')}>
        <PagedTable<S.ShipmentRow>
          rowKey="id"
          size="small"
          paged={shipments}
          columns={shipmentColumns}
          data-testid="shipments-table"
        />
      </Card>
    </Space>
  );
}

import type { storageOrders as S } from '@console/contract';
import { Alert, Button, Input, type InputRef, Space, Typography } from 'antd';
import { useRef, useState } from 'react';
import { errorText, invalidateCall, t, useI18n } from '@/lib';
import { downloadManifest, shipmentsCall, shipOne } from './api/storageOrders.ts';
import { beep, ScanLines } from './components/shared.tsx';
import './i18n.ts';

/**
 * Out single (operators): scan a waybill, Enter ships it; the scans of one sitting form one
 * shipment whose manifest downloads at any time. Refusals (not received, intercepted, an error
 * order) show the order's own reason.
 */
export default function OutSinglePage() {
  useI18n();
  const [code, setCode] = useState('');
  const [lines, setLines] = useState<S.ShipLine[]>([]);
  const [shipment, setShipment] = useState<S.ShipmentRow | null>(null);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<InputRef>(null);
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const current = useRef<number | undefined>(undefined);

  const send = (waybill: string) => async () => {
    try {
      const r = await shipOne(waybill, current.current);
      if (r.shipment) {
        current.current = r.shipment.id;
        setShipment(r.shipment);
        void invalidateCall(shipmentsCall);
      }
      setError(null);
      beep(r.line.ok);
      setLines((xs) => [r.line, ...xs].slice(0, 500));
    } catch (e) {
      beep(false);
      setError(errorText(e));
    }
  };
  const onEnter = () => {
    const c = code.trim();
    setCode('');
    if (!c) return;
    queue.current = queue.current.then(send(c));
    input.current?.focus();
  };
  const ok = lines.filter((l) => l.ok).length;
  const last = lines[0];
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="out-single-page">
      <Typography.Text type="secondary">{t('storageOrders.outSingleHint')}</Typography.Text>
      <Input
        ref={input}
        autoFocus
        size="large"
        value={code}
        maxLength={64}
        onChange={(e) => setCode(e.target.value)}
        onPressEnter={onEnter}
        placeholder={t('storageOrders.waybillPlaceholder')}
        aria-label={t('storageOrders.waybill')}
        data-testid="out-single-input"
      />
      {error && <Alert type="error" showIcon message={error} />}
      {last && (
        <Alert
          type={last.ok ? 'success' : 'error'}
          showIcon
          message={last.message}
          data-testid="out-single-last"
          data-outcome={last.outcome}
        />
      )}
      <Space>
        <Typography.Text strong data-testid="out-single-count">
          {t('storageOrders.shipCount', { ok, bad: lines.length - ok })}
        </Typography.Text>
        {shipment && (
          <>
            <Typography.Text>{`${t('storageOrders.shipment')} ${shipment.shipmentNo}`}</Typography.Text>
            <Button size="small" onClick={() => void downloadManifest(shipment.id)} data-testid="out-single-manifest">
              {t('storageOrders.manifest')}
            </Button>
          </>
        )}
        <Button
          size="small"
          disabled={!shipment}
          onClick={() => {
            current.current = undefined;
            setShipment(null);
            setLines([]);
          }}
        >
          {t('storageOrders.newShipment')}
        </Button>
      </Space>
      <ScanLines lines={lines} testId="out-single-results" direction="out" />
    </Space>
  );
}

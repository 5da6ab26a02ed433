import { Card, Input, type InputRef, List, Space, Tag, Typography } from 'antd';
import { useRef, useState } from 'react';
import { t, useI18n } from '@/lib';
import { scanOrder } from './api/orders.ts';
import './i18n.ts';

type Result = Awaited<ReturnType<typeof scanOrder>>;
const COLOR: Record<string, string> = {
  received: '#52c41a',
  already: '#faad14',
  intercepted: '#f5222d',
  cancelled: '#f5222d',
  notFound: '#f5222d',
};

/** Two short tones for success, one low long tone for anything else (no audio files to ship). */
function beep(ok: boolean) {
  try {
    const ctx = new AudioContext();
    const tones = ok ? [880, 1320] : [220];
    tones.forEach((f, i) => {
      const o = ctx.createOscillator();
      const g = ctx.createGain();
      o.frequency.value = f;
      o.connect(g).connect(ctx.destination);
      g.gain.value = 0.15;
      const at = ctx.currentTime + i * 0.15;
      o.start(at);
      o.stop(at + (ok ? 0.12 : 0.5));
    });
  } catch {
    /* no audio device */
  }
}

/** Scan receiving, built for a barcode scanner: the scanner types the code and Enter. */
export default function ScanPage() {
  useI18n();
  const [code, setCode] = useState('');
  const [results, setResults] = useState<Result[]>([]);
  const input = useRef<InputRef>(null);
  const last = results[0];
  const onEnter = async () => {
    const c = code.trim();
    setCode('');
    if (!c) return;
    const r = await scanOrder(c).catch(
      (e: Error) =>
        ({
          outcome: 'notFound',
          ok: false,
          message: e.message,
          code: c,
          order: null,
          batchReceiveStatus: null,
        }) as Result,
    );
    beep(r.ok);
    setResults((xs) => [r, ...xs].slice(0, 200));
    input.current?.focus();
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Input
        ref={input}
        autoFocus
        size="large"
        value={code}
        onChange={(e) => setCode(e.target.value)}
        onPressEnter={onEnter}
        placeholder={t('orders.scanHint')}
        data-testid="scan-input"
      />
      {last && (
        <Card
          style={{ background: COLOR[last.outcome], color: '#fff', textAlign: 'center' }}
          data-testid="scan-result"
          data-outcome={last.outcome}
        >
          <Typography.Title level={2} style={{ color: '#fff', margin: 0 }}>
            {last.message}
          </Typography.Title>
          {last.batchReceiveStatus && (
            <div>{`${last.order?.batchNo ?? ''} ${t(`orders.receive.${last.batchReceiveStatus}`)}`}</div>
          )}
        </Card>
      )}
      <Typography.Text data-testid="scan-count">
        {t('orders.scanCount', { n: results.filter((r) => r.ok).length })}
      </Typography.Text>
      <List
        size="small"
        bordered
        data-testid="scan-history"
        locale={{ emptyText: t('orders.scanEmpty') }}
        dataSource={results}
        renderItem={(r) => (
          <List.Item data-outcome={r.outcome}>
            <Tag color={COLOR[r.outcome]}>{r.code}</Tag> {r.message}
          </List.Item>
        )}
      />
    </Space>
  );
}

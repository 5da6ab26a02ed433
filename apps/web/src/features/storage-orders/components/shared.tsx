import type { storageOrders as S } from '@console/contract';
import { List, Space, Tag, Typography } from 'antd';
import { t } from '@/lib';

const OUTCOME_COLOR: Record<string, string> = {
  received: 'green',
  shipped: 'green',
  preAlerted: 'blue',
  duplicate: 'gold',
  alreadyReceived: 'gold',
};

/** Which way a scan moves the parcel: a refusal reads "cannot store" inbound, "cannot ship" outbound. */
export type ScanDirection = 'in' | 'out';

/** A line's result: green stored/shipped, gold nothing to do, red refused. */
export function OutcomeTag({ outcome, direction = 'in' }: { outcome: string; direction?: ScanDirection }) {
  const label =
    direction === 'out' && outcome === 'refused'
      ? t('storageOrders.outRefused')
      : t(`storageOrders.outcomes.${outcome}`);
  return (
    <Tag color={OUTCOME_COLOR[outcome] ?? 'red'} data-testid="line-outcome" data-outcome={outcome}>
      {label}
    </Tag>
  );
}

/** The lines a scanner entered, newest first, each with its result and the weight entered (storage entry, out single). */
export function ScanLines({
  lines,
  testId,
  direction = 'in',
}: {
  lines: { code: string; outcome: string; message: string; grossWeightG?: number | null }[];
  testId: string;
  direction?: ScanDirection;
}) {
  return (
    <List
      size="small"
      bordered
      data-testid={testId}
      dataSource={lines}
      renderItem={(l) => (
        <List.Item data-code={l.code} data-outcome={l.outcome}>
          <Space>
            <OutcomeTag outcome={l.outcome} direction={direction} />
            <Typography.Text code>{l.code}</Typography.Text>
            {l.grossWeightG != null && (
              <Typography.Text strong data-testid="line-weight">
                {t('storageOrders.lineWeight', { n: l.grossWeightG })}
              </Typography.Text>
            )}
            {l.message}
          </Space>
        </List.Item>
      )}
    />
  );
}

/** A customer's or agent's pre-alert, or the warehouse's receipt. */
export function StorageKindTag({ preAlert }: { preAlert: boolean }) {
  return (
    <Tag color={preAlert ? 'blue' : 'default'} data-testid="storage-kind" data-pre-alert={String(preAlert)}>
      {t(`storageOrders.kinds.${preAlert ? 'preAlert' : 'receipt'}`)}
    </Tag>
  );
}

export function StorageStatusTag({ status }: { status: S.StorageStatus }) {
  const color = status === 'received' ? 'green' : status === 'partial' ? 'gold' : 'red';
  return (
    <Tag color={color} data-testid="storage-status">
      {t(`storageOrders.statuses.${status}`)}
    </Tag>
  );
}

let audio: AudioContext | null = null;
/**
 * Two short high tones for an accepted line, one low longer tone for a refused one (WebAudio:
 * no sound files to ship). One context for the page: a scanner fires many lines a minute.
 */
export function beep(ok: boolean) {
  try {
    audio ??= new AudioContext();
    const ctx = audio;
    (ok ? [880, 1320] : [220]).forEach((f, i) => {
      const o = ctx.createOscillator();
      const g = ctx.createGain();
      o.frequency.value = f;
      g.gain.value = 0.15;
      o.connect(g).connect(ctx.destination);
      const at = ctx.currentTime + i * 0.12;
      o.start(at);
      o.stop(at + (ok ? 0.09 : 0.35));
    });
  } catch {
    /* no audio device */
  }
}

import type { labelB as L } from '@console/contract';
import { Alert, Button, Progress, Space, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { errorText, invalidateCall, t } from '@/lib';
import { batchProgress, confirmBatch, labelBInfoCall, labelBListCall } from '../api/labelB.ts';

/**
 * Confirm a draft batch and follow its job (updateLableB/create then /progress) until it is
 * done or failed; `onEnd` gets the batch as it ended.
 */
export function ConfirmBatch({ batch, onEnd }: { batch: L.LabelBBatchRow; onEnd?: (b: L.LabelBBatchRow) => void }) {
  const [state, setState] = useState<L.LabelBBatchRow>(batch);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const toApply = batch.rowCount - batch.refusedCount;

  const follow = (id: number) => {
    timer.current = setTimeout(async () => {
      try {
        const b = await batchProgress(id);
        setState(b);
        if (b.status === 'applying') return follow(id);
        setBusy(false);
        void invalidateCall(labelBListCall);
        void invalidateCall(labelBInfoCall);
        onEnd?.(b);
      } catch (e) {
        setError(errorText(e));
        setBusy(false);
      }
    }, 400);
  };
  const start = async () => {
    setError(null);
    setBusy(true);
    try {
      const b = await confirmBatch(batch.id);
      setState(b);
      follow(b.id);
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  };

  if (state.status === 'draft')
    return (
      <Space direction="vertical">
        {toApply > 0 ? (
          <Typography.Text>{t('labelB.confirmHint', { count: toApply })}</Typography.Text>
        ) : (
          <Alert type="warning" showIcon message={t('labelB.nothingToApply')} />
        )}
        {error && <Alert type="error" showIcon message={error} />}
        <Button type="primary" disabled={toApply === 0} loading={busy} onClick={start} data-testid="labelb-confirm">
          {t('labelB.confirm')}
        </Button>
      </Space>
    );
  return (
    <Space direction="vertical" style={{ width: '100%', maxWidth: 600 }} data-testid="labelb-progress">
      <Progress
        percent={state.status === 'applying' ? Math.max(5, state.progress) : 100}
        status={state.status === 'failed' ? 'exception' : state.status === 'done' ? 'success' : 'active'}
      />
      {state.status === 'applying' && <Typography.Text>{t('labelB.applying')}</Typography.Text>}
      {state.status === 'done' && (
        <Alert
          type="success"
          showIcon
          data-testid="labelb-done"
          message={t('labelB.done', { changed: state.changedCount, labelB: state.labelBCount })}
        />
      )}
      {state.status === 'failed' && <Alert type="error" showIcon data-testid="labelb-failed" message={state.error} />}
      {error && <Alert type="error" showIcon message={error} />}
    </Space>
  );
}

/**
 * A progress bar for workbook downloads (Order List export, Batch List downloads), the way
 * the batch import shows its progress: the download is named with a random progressId, and
 * `export/progress` is asked about it every few hundred milliseconds until the file comes.
 */
import { exportJobs } from '@console/contract';
import { Progress, Typography } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { call, registerMessages, useI18n } from '@/lib';

registerMessages('download', {
  'zh-chs': {
    preparing: '正在准备 Excel…',
    waiting: '排队中，稍后开始生成 Excel…',
    writing: '正在生成 Excel：已写入 {rows} / {total} 行',
    writingUncounted: '正在生成 Excel：已写入 {rows} 行',
    done: 'Excel 已生成（{total} 行），正在下载',
    failed: 'Excel 生成失败',
  },
  en: {
    preparing: 'Preparing the workbook…',
    waiting: 'Waiting for a free worker to build the workbook…',
    writing: 'Building the workbook: {rows} of {total} rows written',
    writingUncounted: 'Building the workbook: {rows} rows written',
    done: 'Workbook built ({total} rows), downloading',
    failed: 'The workbook could not be built',
  },
});

type State = exportJobs.ExportProgress & { label?: string };

const POLL_MS = 400;
/** How long the finished bar stays, so the user sees it reach the end. */
const DONE_MS = 4000;

/** A download name: random, and made without `crypto.randomUUID` (missing outside HTTPS and localhost). */
export function newProgressId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `dl-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * `run(label, start)` starts a download with a fresh progressId and shows its progress in
 * `panel` until it ends. One download at a time per hook; `busy` says one is running.
 */
export function useDownloadProgress() {
  const { t } = useI18n();
  const [state, setState] = useState<State | null>(null);
  const [busy, setBusy] = useState(false);
  const hide = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(hide.current), []);

  const run = useCallback(async (start: (progressId: string) => Promise<void>) => {
    clearTimeout(hide.current);
    const id = newProgressId();
    let finished = false;
    setBusy(true);
    setState({ phase: 'unknown', rows: 0, total: null });
    const poll = async () => {
      while (!finished) {
        await new Promise((r) => setTimeout(r, POLL_MS));
        if (finished) return;
        try {
          const p = await call(exportJobs.exportProgress, { id }, { silent: true });
          // The last word is the download's own (below), not a late answer.
          if (!finished) setState(p);
        } catch {
          // A missed poll only leaves the bar where it was.
        }
      }
    };
    void poll();
    try {
      await start(id);
      finished = true;
      setState((s) => ({ phase: 'done', rows: s?.total ?? s?.rows ?? 0, total: s?.total ?? s?.rows ?? 0 }));
    } catch (e) {
      finished = true;
      setState((s) => ({ ...(s ?? { rows: 0, total: null }), phase: 'failed' }));
      throw e;
    } finally {
      setBusy(false);
      hide.current = setTimeout(() => setState(null), DONE_MS);
    }
  }, []);

  let panel: React.ReactNode = null;
  if (state) {
    const { phase, rows, total } = state;
    const percent =
      phase === 'done' ? 100 : total ? Math.min(99, Math.floor((rows / total) * 100)) : phase === 'writing' ? 1 : 0;
    const n = (v: number) => v.toLocaleString();
    const text =
      phase === 'done'
        ? t('download.done', { total: n(total ?? rows) })
        : phase === 'failed'
          ? t('download.failed')
          : phase === 'waiting'
            ? t('download.waiting')
            : phase === 'writing'
              ? total !== null
                ? t('download.writing', { rows: n(rows), total: n(total) })
                : t('download.writingUncounted', { rows: n(rows) })
              : t('download.preparing');
    panel = (
      <div data-testid="download-progress" data-phase={phase} style={{ maxWidth: 480, margin: '8px 0' }}>
        <Typography.Text type={phase === 'failed' ? 'danger' : 'secondary'}>{text}</Typography.Text>
        <Progress
          percent={percent}
          status={phase === 'failed' ? 'exception' : phase === 'done' ? 'success' : 'active'}
          size="small"
        />
      </div>
    );
  }
  return { run, panel, busy };
}

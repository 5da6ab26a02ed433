/**
 * Printing from the console: the user's print settings (saved on the server), the agent's
 * state and printers, and `printOrders` — the flow every print button uses: find the agent and
 * the printer first (nothing is counted when it is not there), ask before printing again
 * (repeat-print interception), download the waybill labels (the server counts the print and
 * names the printer), send them to the agent, then the picking list when that setting is on.
 */
import { files, labels } from '@console/contract';
import { App } from 'antd';
import { useCallback, useMemo } from 'react';
import { ApiError, call, callBlob, saveServerSetting, t, useServerSettings } from '@/lib';
import { listPrinters, printPdf } from './client.ts';
import { HowToStart, printErrorText } from './agent-diagnosis.tsx';
import { type PrintableOrder, type PrintSettings, readPrintSettings, repeatPrintCheck } from './settings.ts';
import './i18n.ts';

export function usePrintSettings() {
  const q = useServerSettings();
  const settings = useMemo(() => readPrintSettings(q.data?.print), [q.data?.print]);
  const save = useCallback((next: PrintSettings) => saveServerSetting('print', next), []);
  return { settings, save, ready: !q.isPending };
}

/** The printer to use: the one chosen in the settings if the agent has it, else the agent's default. */
export async function resolvePrinter(s: PrintSettings): Promise<string | null> {
  const { printers, defaultPrinter } = await listPrinters(s);
  if (s.printer && printers.includes(s.printer)) return s.printer;
  return defaultPrinter && printers.includes(defaultPrinter) ? defaultPrinter : null;
}

export type PrintOutcome =
  /** `refused`: orders a print job (more than one download holds) left out, and why. */
  | { kind: 'printed'; ids: number[]; printer: string; refused: { orderNo: string | null; reason: string }[] }
  | { kind: 'cancelled' }
  /** The server refused the whole download: these orders cannot print (nothing counted). */
  | { kind: 'refused'; refused: { orderNo: string | null; reason: string }[] }
  | { kind: 'failed'; message: string };

/** Starts the server's print job and waits for it (polled each second). */
async function runPrintJob(ids: number[], printer: string) {
  const { jobId } = await call(labels.printLabelA, { ids, printer });
  for (;;) {
    await new Promise((r) => setTimeout(r, 1000));
    const job = await call(labels.printLabelAResult, { jobId });
    if (job.status !== 'running') return job;
  }
}

export function usePrintOrders() {
  const { modal, message } = App.useApp();
  const { settings } = usePrintSettings();

  const askRepeat = useCallback(
    (printed: { orderNo: string; printCount: number }[]) =>
      new Promise<boolean>((resolve) =>
        modal.confirm({
          title: t('printing.repeatTitle'),
          content: (
            <div data-testid="repeat-print">
              <p>{t('printing.repeatBody')}</p>
              <ul>
                {printed.map((p) => (
                  <li key={p.orderNo}>{t('printing.repeatLine', { orderNo: p.orderNo, count: p.printCount })}</li>
                ))}
              </ul>
            </div>
          ),
          okText: t('printing.continue'),
          cancelText: t('printing.cancel'),
          okButtonProps: { 'data-testid': 'repeat-continue' },
          cancelButtonProps: { 'data-testid': 'repeat-cancel' },
          onOk: () => resolve(true),
          onCancel: () => resolve(false),
        }),
      ),
    [modal],
  );

  /** Prints these orders' waybill labels (and picking list); tells the user the outcome too. */
  const printOrders = useCallback(
    async (
      orders: readonly PrintableOrder[],
      /** quiet: the caller shows refusals itself; repeatAsked: the user already agreed to print these again. */
      opts: { quiet?: boolean; repeatAsked?: boolean } = {},
    ): Promise<PrintOutcome> => {
      const fail = (text: string): PrintOutcome => {
        message.error(text);
        return { kind: 'failed', message: text };
      };
      if (!orders.length) return fail(t('printing.nothingToPrint'));
      let printer: string | null;
      try {
        printer = await resolvePrinter(settings);
      } catch (e) {
        if (opts.quiet) return fail(printErrorText(e));
        // The print page's diagnosis (not running, refusing this address: what to do), in a dialog
        // the user closes: a 3-second toast said only "failed" (issue 36 #22).
        modal.warning({
          title: t('printing.printFailed'),
          width: 640,
          content: <HowToStart error={e} address={`${settings.agentHost}:${settings.agentPort}`} />,
          okText: t('common.close'),
        });
        return { kind: 'failed', message: printErrorText(e) };
      }
      if (!printer) return fail(t('printing.selectPrinter'));
      const repeat = repeatPrintCheck(orders, settings);
      if (repeat.ask && !opts.repeatAsked && !(await askRepeat(repeat.printed))) return { kind: 'cancelled' };
      let ids = orders.map((o) => o.id);
      const name = orders.length === 1 ? orders[0]!.orderNo : String(orders.length);
      let pdf: Blob;
      let skipped: { orderNo: string | null; reason: string }[] = [];
      try {
        if (ids.length > labels.LABEL_DOWNLOAD_MAX) {
          // More than one download holds: the server's print job prints what it can and lists the rest.
          const job = await runPrintJob(ids, printer);
          if (job.status === 'failed' || job.fileId === null)
            return fail(`${t('printing.printFailed')}: ${job.error ?? ''}`);
          skipped = job.refused;
          const refusedNos = new Set(job.refused.map((r) => r.orderNo));
          ids = orders.filter((o) => !refusedNos.has(o.orderNo)).map((o) => o.id);
          pdf = (await callBlob(files.downloadFile, { id: job.fileId }, { silent: true })).blob;
        } else {
          pdf = (await callBlob(labels.downloadLabelA, { ids, printer }, { silent: true })).blob;
        }
      } catch (e) {
        const refused =
          e instanceof ApiError && e.key === 'labelsRefused'
            ? (e.data as { refused?: { orderNo: string | null; reason: string }[] } | null)?.refused
            : undefined;
        if (refused?.length) {
          if (!opts.quiet) message.error(`${t('printing.printFailed')}: ${refused.map((r) => r.reason).join('; ')}`);
          return { kind: 'refused', refused };
        }
        return fail(`${t('printing.printFailed')}: ${e instanceof Error ? e.message : String(e)}`);
      }
      try {
        await printPdf(settings, printer, pdf, `labelA-${name}`);
        if (settings.pickingList) {
          // The picking list is drawn per download (at most labels.LABEL_DOWNLOAD_MAX orders each).
          for (let i = 0; i < ids.length; i += labels.LABEL_DOWNLOAD_MAX) {
            const part = ids.slice(i, i + labels.LABEL_DOWNLOAD_MAX);
            const list = (await callBlob(labels.downloadLabelProduct, { ids: part }, { silent: true })).blob;
            await printPdf(
              settings,
              printer,
              list,
              `picking-${name}${i ? `-${i / labels.LABEL_DOWNLOAD_MAX + 1}` : ''}`,
            );
          }
        }
      } catch (e) {
        return fail(printErrorText(e));
      }
      if (skipped.length) message.warning(`${t('printing.refused')}: ${skipped.map((r) => r.reason).join('; ')}`);
      message.success(t('printing.printSuccess'));
      return { kind: 'printed', ids, printer, refused: skipped };
    },
    [settings, askRepeat, message, modal],
  );
  return { printOrders, settings };
}

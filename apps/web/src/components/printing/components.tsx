/**
 * The print UI pieces: the agent's state with its printers (and how to start it when it is
 * not found), the print settings dialog, and the print button of the order list and detail.
 */
import { FilePdfOutlined, PrinterOutlined, SettingOutlined } from '@ant-design/icons';
import { Alert, App, Button, InputNumber, Input, Modal, Select, Space, Switch, Tag, Upload } from 'antd';
import { Form } from '../form.tsx';
import { useCallback, useEffect, useState } from 'react';
import { t, useI18n } from '@/lib';
import { listPrinters, type NoPrinter, printPdf } from './client.ts';
import { checkPrintSettings, LIMITS, type PrintableOrder, type PrintSettings } from './settings.ts';
import { resolvePrinter, usePrintOrders, usePrintSettings, type PrintOutcome } from './usePrinting.tsx';
import { HowToStart, printErrorText } from './agent-diagnosis.tsx';
import './i18n.ts';

type AgentState =
  | { kind: 'checking' }
  | { kind: 'ready'; printers: string[]; defaultPrinter: string | null; noPrinter: NoPrinter | null }
  | { kind: 'missing'; error: unknown };

/** Asks the agent for its printers; again when the address changes or on "Reconnect". */
export function useAgent(s: PrintSettings, enabled = true) {
  const [state, setState] = useState<AgentState>({ kind: 'checking' });
  const check = useCallback(async () => {
    setState({ kind: 'checking' });
    try {
      setState({ kind: 'ready', ...(await listPrinters(s)) });
    } catch (e) {
      setState({ kind: 'missing', error: e });
    }
  }, [s.agentHost, s.agentPort]); // eslint-disable-line react-hooks/exhaustive-deps -- only the address matters
  useEffect(() => {
    if (enabled) void check();
  }, [check, enabled]);
  return { state, check };
}

/** Connected, but no printer other than "Save to PDF folder": CUPS is down, absent, or has no queue. */
function NoPrinterAlert({ why, onRetry }: { why: NoPrinter; onRetry: () => void }) {
  return (
    <Alert
      type="info"
      showIcon
      data-testid="agent-no-printer"
      message={t('printing.noPrinterTitle')}
      description={t(`printing.${why === 'none' ? 'noPrinter' : why}`)}
      action={
        <Button onClick={onRetry} data-testid="agent-retry">
          {t('printing.reconnect')}
        </Button>
      }
    />
  );
}

/** The agent's state, the printer chosen (saved at once) and the settings button. */
export function AgentBar() {
  useI18n();
  const { settings, save, ready } = usePrintSettings();
  const { state, check } = useAgent(settings, ready);
  const printers = state.kind === 'ready' ? state.printers : [];
  const chosen =
    settings.printer && printers.includes(settings.printer)
      ? settings.printer
      : state.kind === 'ready'
        ? state.defaultPrinter
        : settings.printer;
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space wrap>
        {state.kind === 'ready' && (
          <Tag color="green" data-testid="agent-ready">
            {t('printing.connected')}
          </Tag>
        )}
        <span>{t('printing.printer')}</span>
        <Select
          style={{ minWidth: 240 }}
          value={chosen ?? undefined}
          placeholder={t('printing.selectPrinter')}
          loading={state.kind === 'checking'}
          options={printers.map((p) => ({
            value: p,
            label:
              p === (state.kind === 'ready' && state.defaultPrinter) ? `${p} (${t('printing.defaultPrinter')})` : p,
          }))}
          onChange={(printer: string) => void save({ ...settings, printer })}
          aria-label={t('printing.printer')}
          data-testid="print-printer"
        />
        <PrintSettingsButton />
        <PrintFileButton />
      </Space>
      {state.kind === 'missing' && (
        <HowToStart
          error={state.error}
          address={`${settings.agentHost}:${settings.agentPort}`}
          onRetry={() => void check()}
        />
      )}
      {state.kind === 'ready' && state.noPrinter && (
        <NoPrinterAlert why={state.noPrinter} onRetry={() => void check()} />
      )}
    </Space>
  );
}

const NUMBERS = ['width', 'height', 'marginTop', 'marginRight', 'marginBottom', 'marginLeft'] as const;

/** The print settings dialog (spec §9), saved to the server for this user. */
export function PrintSettingsButton() {
  useI18n();
  const { message } = App.useApp();
  const { settings, save } = usePrintSettings();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<PrintSettings>();
  const submit = async (v: PrintSettings) => {
    const next: PrintSettings = { ...settings, ...v, agentHost: v.agentHost.trim() };
    const errors = checkPrintSettings(next);
    const fields = Object.entries(errors).map(([name, key]) => ({ name, errors: [t(`printing.${key}`)] }));
    if (fields.length) {
      form.setFields(fields as never);
      message.error(t('feedback.formInvalid'));
      return;
    }
    try {
      await save(next);
    } catch {
      return; // the client showed why
    }
    message.success(t('printing.saved'));
    setOpen(false);
  };
  return (
    <>
      <Button
        icon={<SettingOutlined />}
        data-testid="print-settings"
        onClick={() => {
          form.setFieldsValue(settings);
          setOpen(true);
        }}
      >
        {t('printing.settings')}
      </Button>
      <Modal
        open={open}
        title={t('printing.settings')}
        okText={t('printing.save')}
        cancelText={t('printing.cancel')}
        onOk={() => form.submit()}
        onCancel={() => setOpen(false)}
        okButtonProps={{ 'data-testid': 'print-settings-save' }}
        destroyOnHidden
        forceRender
      >
        <Form form={form} layout="horizontal" labelCol={{ span: 8 }} onFinish={submit} initialValues={settings}>
          {NUMBERS.map((k) => (
            <Form.Item key={k} name={k} label={t(`printing.${k}`)} rules={[{ required: true }]}>
              <InputNumber
                min={k.startsWith('margin') ? LIMITS.margin.min : LIMITS.width.min}
                max={k.startsWith('margin') ? LIMITS.margin.max : LIMITS.width.max}
                step={1}
                style={{ width: '100%' }}
                data-testid={`print-${k}`}
              />
            </Form.Item>
          ))}
          <Form.Item name="repeatIntercept" label={t('printing.repeatIntercept')} valuePropName="checked">
            <Switch data-testid="print-repeatIntercept" />
          </Form.Item>
          <Form.Item name="pickingList" label={t('printing.pickingList')} valuePropName="checked">
            <Switch data-testid="print-pickingList" />
          </Form.Item>
          <Form.Item name="agentHost" label={t('printing.agentHost')} rules={[{ required: true }]}>
            <Input data-testid="print-agentHost" />
          </Form.Item>
          <Form.Item name="agentPort" label={t('printing.agentPort')} rules={[{ required: true }]}>
            <InputNumber min={1} max={65535} precision={0} style={{ width: '100%' }} data-testid="print-agentPort" />
          </Form.Item>
          {/* Enter in a field saves. */}
          <button type="submit" hidden />
        </Form>
      </Modal>
    </>
  );
}

/** "Print labels" for orders chosen elsewhere (the order list's selected rows, the detail's order). */
export function PrintButton({
  orders,
  onDone,
  testId = 'print-labels',
}: {
  orders: readonly PrintableOrder[];
  onDone?: (o: PrintOutcome) => void;
  testId?: string;
}) {
  useI18n();
  const { printOrders } = usePrintOrders();
  const [busy, setBusy] = useState(false);
  return (
    <Button
      icon={<PrinterOutlined />}
      disabled={!orders.length}
      loading={busy}
      data-testid={testId}
      onClick={async () => {
        setBusy(true);
        try {
          onDone?.(await printOrders(orders));
        } finally {
          setBusy(false);
        }
      }}
    >
      {t('printing.printSelected')}
    </Button>
  );
}

/** Prints a PDF from this computer (a label file made elsewhere) with the print settings. */
export function PrintFileButton() {
  useI18n();
  const { message } = App.useApp();
  const { settings } = usePrintSettings();
  const [busy, setBusy] = useState(false);
  const print = async (file: File) => {
    const head = new Uint8Array(await file.slice(0, 5).arrayBuffer());
    if (String.fromCharCode(...head) !== '%PDF-') {
      message.error(t('printing.selectFile'));
      return;
    }
    setBusy(true);
    try {
      const printer = await resolvePrinter(settings);
      if (!printer) {
        message.error(t('printing.selectPrinter'));
        return;
      }
      await printPdf(settings, printer, file, file.name.replace(/\.pdf$/i, ''));
      message.success(t('printing.printSuccess'));
    } catch (e) {
      message.error(printErrorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Upload
      accept=".pdf,application/pdf"
      showUploadList={false}
      beforeUpload={(file) => {
        void print(file);
        return false;
      }}
    >
      <Button icon={<FilePdfOutlined />} loading={busy} title={t('printing.selectFile')} data-testid="print-file">
        {t('printing.printFile')}
      </Button>
    </Upload>
  );
}

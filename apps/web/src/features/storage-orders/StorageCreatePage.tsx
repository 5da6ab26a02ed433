import { type storageOrders as S } from '@console/contract';
import {
  Alert,
  Button,
  Card,
  Input,
  InputNumber,
  type InputRef,
  List,
  Progress,
  Segmented,
  Select,
  Space,
  Tabs,
  Typography,
} from 'antd';
import { Form } from '@/components/form.tsx';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { CustomerSelect } from '@/components/CustomerSelect.tsx';
import { XlsxPicker } from '@/components/XlsxPicker.tsx';
import { errorText, hasRoute, invalidateCall, t, useCall, useI18n, useSession } from '@/lib';
import { downloadStorageErrors, originsCall, storageListCall, storeExcel, storeWaybills } from './api/storageOrders.ts';
import { beep, OutcomeTag, ScanLines } from './components/shared.tsx';
import { parsePasted, validWeight } from './paste.ts';
import './i18n.ts';

/**
 * Inbound (spec §2 storageOrder.create, §3 storage method): an entry built for a barcode
 * scanner (the scanner types the waybill and Enter; each line is one call whose result shows
 * and sounds at once, lines of one sitting go into one storage order) and the batch Excel upload.
 */
export default function StorageCreatePage() {
  useI18n();
  const { user } = useSession();
  const isCustomer = !!user?.customer;
  const origins = useCall(originsCall, {});
  const [origin, setOrigin] = useState<S.StorageOrigin>('counter');
  const [customerId, setCustomerId] = useState<number | undefined>();
  const common = (
    <Space wrap>
      <Form.Item label={t('storageOrders.origin')} style={{ marginBottom: 0 }}>
        <Select
          style={{ width: 140 }}
          value={origin}
          onChange={setOrigin}
          options={origins.data ?? []}
          aria-label={t('storageOrders.origin')}
          data-testid="storage-origin"
        />
      </Form.Item>
      {!isCustomer && (
        <Form.Item label={t('storageOrders.customer')} style={{ marginBottom: 0 }}>
          <CustomerSelect
            allowClear
            style={{ width: 220 }}
            placeholder={
              user?.roles.includes('agent') ? t('storageOrders.customerRequired') : t('storageOrders.anyCustomer')
            }
            value={customerId}
            onChange={setCustomerId}
            data-testid="storage-customer"
          />
        </Form.Item>
      )}
    </Space>
  );
  // Without the warehouse's reweigh an entry is a customer's pre-alert, not a receipt.
  const preAlert = !hasRoute('storageOrder.reweigh');
  return (
    <Card data-testid="storage-create-page">
      <Space direction="vertical" style={{ width: '100%' }}>
        {common}
        {preAlert && (
          <Alert type="info" showIcon message={t('storageOrders.preAlertHint')} data-testid="storage-pre-alert-hint" />
        )}
        <Tabs
          items={[
            {
              key: 'entry',
              label: t('storageOrders.entryTab'),
              children: (
                <Entry key={`${origin}-${customerId}`} origin={origin} customerId={customerId} preAlert={preAlert} />
              ),
            },
            {
              key: 'excel',
              label: <span data-testid="storage-excel-tab">{t('storageOrders.excelTab')}</span>,
              children: <Excel origin={origin} customerId={customerId} />,
            },
          ]}
        />
      </Space>
    </Card>
  );
}

type Line = S.StorageLine;

/** Typed or scanned waybills, one call each, in order (the first one makes the storage order). */
function Entry({ origin, customerId, preAlert }: { origin: S.StorageOrigin; customerId?: number; preAlert: boolean }) {
  const navigate = useNavigate();
  const [mode, setMode] = useState<'scan' | 'paste'>('scan');
  const [code, setCode] = useState('');
  const [weight, setWeight] = useState<number | null>(null);
  const [pasted, setPasted] = useState('');
  const [lines, setLines] = useState<Line[]>([]);
  const [storage, setStorage] = useState<S.StorageOrderRow | null>(null);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<InputRef>(null);
  // A scanner sends Enter faster than the answers come: the lines queue, so every one joins the same storage order.
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const current = useRef<number | undefined>(undefined);

  const send = (waybillNos: string[], grossWeightsG?: (number | null)[]) => async () => {
    try {
      const r = await storeWaybills({ id: current.current, customerId, origin, waybillNos, grossWeightsG });
      current.current = r.storageOrder.id;
      setStorage(r.storageOrder);
      setError(null);
      for (const l of r.lines) beep(l.ok);
      setLines((xs) => [...[...r.lines].reverse(), ...xs].slice(0, 500));
      void invalidateCall(storageListCall);
      return true;
    } catch (e) {
      beep(false);
      setError(errorText(e));
      return false;
    }
  };
  // Enter in the waybill field sends it with the weight beside it, then both clear for the next parcel.
  const onEnter = () => {
    const c = code.trim();
    if (!c) return;
    if (weight !== null && validWeight(weight) === null) {
      beep(false);
      setError(t('storageOrders.weightInvalid'));
      return;
    }
    setCode('');
    setWeight(null);
    queue.current = queue.current.then(send([c], weight === null ? undefined : [weight]));
    input.current?.focus();
  };
  const onPaste = () => {
    const p = parsePasted(pasted);
    if ('bad' in p) return setError(t('storageOrders.pasteBadLine', { n: p.bad.n, line: p.bad.line }));
    if (!p.waybillNos.length) return;
    if (p.waybillNos.length > 2000) return setError(t('storageOrders.pasteTooMany', { n: 2000 }));
    queue.current = queue.current.then(async () => {
      if (await send(p.waybillNos, p.grossWeightsG)()) setPasted('');
    });
  };
  const reset = () => {
    current.current = undefined;
    setStorage(null);
    setLines([]);
    input.current?.focus();
  };
  const last = lines[0];
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Segmented
        value={mode}
        onChange={(v) => setMode(v as typeof mode)}
        options={[
          { value: 'scan', label: t('storageOrders.scanMode') },
          { value: 'paste', label: <span data-testid="storage-paste-mode">{t('storageOrders.pasteMode')}</span> },
        ]}
      />
      {mode === 'scan' ? (
        <>
          {/* Issue 36 #22: a customer's Enter pre-alerts the parcel; "stores it" promised a receipt. */}
          <Typography.Text type="secondary" data-testid="storage-entry-hint">
            {t(preAlert ? 'storageOrders.entryHintPreAlert' : 'storageOrders.entryHint')}
          </Typography.Text>
          <Space.Compact style={{ width: '100%' }}>
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
              data-testid="storage-input"
            />
            <InputNumber
              size="large"
              style={{ width: 180 }}
              value={weight}
              // No min/max here: antd would hold an out-of-range value back from onChange and the
              // parcel would be stored without its weight; onEnter refuses it with a message instead.
              controls={false}
              suffix="g"
              onChange={(v) => setWeight(typeof v === 'number' ? v : null)}
              // A scale that sends the weight and Enter hands over to the waybill field (or stores a typed waybill).
              onPressEnter={() => (code.trim() ? onEnter() : input.current?.focus())}
              placeholder={t('storageOrders.weightPlaceholder')}
              aria-label={t('storageOrders.weight')}
              data-testid="storage-weight"
            />
          </Space.Compact>
        </>
      ) : (
        <>
          <Typography.Text type="secondary">{t('storageOrders.pasteHint')}</Typography.Text>
          <Input.TextArea
            rows={8}
            value={pasted}
            onChange={(e) => setPasted(e.target.value)}
            placeholder={t('storageOrders.pastePlaceholder')}
            aria-label={t('storageOrders.pasteMode')}
            data-testid="storage-paste"
          />
          <Button type="primary" onClick={onPaste} disabled={!pasted.trim()} data-testid="storage-paste-submit">
            {t('storageOrders.pasteSubmit')}
          </Button>
        </>
      )}
      {error && <Alert type="error" showIcon message={error} data-testid="storage-error" />}
      {last && (
        <Alert
          type={last.ok ? 'success' : 'error'}
          showIcon
          message={last.message}
          data-testid="storage-last"
          data-outcome={last.outcome}
        />
      )}
      <Space>
        <Typography.Text strong data-testid="storage-count">
          {t(storage?.preAlert ? 'storageOrders.countPreAlert' : 'storageOrders.count', {
            ok: storage?.receivedCount ?? 0,
            bad: storage?.refusedCount ?? 0,
          })}
        </Typography.Text>
        {storage && (
          <a onClick={() => navigate(`/storageOrder/info?id=${storage.id}`)} data-testid="storage-created-no">
            {storage.storageNo}
          </a>
        )}
        <Button size="small" onClick={reset} disabled={!storage}>
          {t('storageOrders.newEntry')}
        </Button>
      </Space>
      <ScanLines lines={lines} testId="storage-results" />
    </Space>
  );
}

function Excel({ origin, customerId }: { origin: S.StorageOrigin; customerId?: number }) {
  const navigate = useNavigate();
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [percent, setPercent] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<Awaited<ReturnType<typeof storeExcel>> | null>(null);
  const timer = useRef<ReturnType<typeof setInterval>>(undefined);
  useEffect(() => () => clearInterval(timer.current), []);

  const submit = async () => {
    if (!file) return setError(t('storageOrders.chooseFile'));
    setError(null);
    setDone(null);
    setBusy(true);
    setPercent(1);
    // An estimate that slows near the end: the answer, not the bar, says it is done.
    const expectedMs = 1000 + (file.size / 1024 / 1024) * 2000;
    const started = Date.now();
    timer.current = setInterval(() => {
      const f = (Date.now() - started) / expectedMs;
      setPercent(Math.min(95, Math.round(95 * (1 - Math.exp(-2 * f)))));
    }, 200);
    try {
      const r = await storeExcel(file, { customerId, origin });
      setPercent(100);
      setDone(r);
      void invalidateCall(storageListCall);
    } catch (e) {
      setError(errorText(e));
      setPercent(0);
    } finally {
      clearInterval(timer.current);
      setBusy(false);
    }
  };
  return (
    <Space direction="vertical" style={{ width: '100%', maxWidth: 720 }}>
      <Typography.Text type="secondary">{t('storageOrders.excelHint')}</Typography.Text>
      <XlsxPicker
        testId="storage-file"
        file={file}
        disabled={busy}
        onWrongType={() => setError(t('storageOrders.onlyXlsx'))}
        onPick={(f) => (setError(null), setFile(f))}
        onRemove={() => setFile(null)}
      >
        {t('storageOrders.chooseFile')}
      </XlsxPicker>
      {(busy || percent === 100) && file && (
        <div data-testid="storage-progress">
          {busy && (
            <Typography.Text type="secondary">{t('storageOrders.uploading', { name: file.name })}</Typography.Text>
          )}
          <Progress percent={percent} status={busy ? 'active' : 'success'} />
        </div>
      )}
      {error && <Alert type="error" showIcon message={error} data-testid="storage-excel-error" />}
      <Button type="primary" loading={busy} onClick={() => void submit()} data-testid="storage-upload">
        {t('storageOrders.upload')}
      </Button>
      {done && (
        <Alert
          type={done.storageOrder.refusedCount ? 'warning' : 'success'}
          showIcon
          data-testid="storage-excel-done"
          message={
            <a onClick={() => navigate(`/storageOrder/info?id=${done.storageOrder.id}`)}>
              {t('storageOrders.excelDone', {
                no: done.storageOrder.storageNo,
                ok: done.storageOrder.receivedCount,
                bad: done.storageOrder.refusedCount,
              })}
            </a>
          }
          description={
            done.errorFileId !== null && (
              <Space direction="vertical">
                <Button onClick={() => void downloadStorageErrors(done.errorFileId!)} data-testid="storage-errors">
                  {t('storageOrders.downloadErrors')}
                </Button>
                <List
                  size="small"
                  dataSource={done.refused}
                  renderItem={(l) => (
                    <List.Item>
                      <Space>
                        <OutcomeTag outcome={l.outcome} />
                        {`#${l.row}`}
                        <Typography.Text code>{l.code}</Typography.Text>
                        {l.message}
                      </Space>
                    </List.Item>
                  )}
                />
              </Space>
            )
          }
        />
      )}
    </Space>
  );
}

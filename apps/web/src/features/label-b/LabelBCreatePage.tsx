import { type labelB as L } from '@console/contract';
import { Alert, Button, Card, Space, Typography } from 'antd';
import { Form } from '@/components/form.tsx';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { CustomerSelect } from '@/components/CustomerSelect.tsx';
import { useCreateFormDirty } from '@/components/useTabDirty.ts';
import { XlsxPicker } from '@/components/XlsxPicker.tsx';
import { errorText, invalidateCall, t, useI18n, useSession } from '@/lib';
import { downloadTemplate, labelBListCall, promptAddresses } from './api/labelB.ts';
import { ConfirmBatch } from './components/ConfirmBatch.tsx';
import { RowsTable } from './components/shared.tsx';
import './i18n.ts';

/**
 * Upload address changes (spec §7 updateLableB/prompt then create): the workbook is checked
 * first (every row with its old and new address, refusals and the label-B warning; nothing
 * changes), then confirmed and followed to its end.
 */
export default function LabelBCreatePage() {
  useI18n();
  const navigate = useNavigate();
  const { user } = useSession();
  const isCustomer = !!user?.customer;
  const [customerId, setCustomerId] = useState<number | undefined>();
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [draft, setDraft] = useState<L.LabelBDetail | null>(null);
  const l = (k: string) => t(`labelB.${k}`);
  // A chosen sheet or customer not checked yet is lost with the tab: it asks first (issue 36 #18,
  // #19). Checked, the batch is a draft on the server (its list reopens it): nothing to lose.
  const unsaved = useCreateFormDirty();

  const check = async () => {
    if (!file) return setError(l('chooseFile'));
    if (!isCustomer && !customerId) return setError(l('customerRequired'));
    setError(null);
    setBusy(true);
    try {
      setDraft(await promptAddresses(file, customerId));
      unsaved.created();
      void invalidateCall(labelBListCall);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card data-testid="labelb-create-page">
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{l('hint')}</Typography.Text>
        <Space wrap>
          {!isCustomer && (
            <Form.Item label={l('customer')} style={{ marginBottom: 0 }}>
              <CustomerSelect
                style={{ width: 220 }}
                value={customerId}
                onChange={(v) => (setCustomerId(v), unsaved.touched())}
                disabled={!!draft}
              />
            </Form.Item>
          )}
          <Button onClick={() => void downloadTemplate()} data-testid="labelb-template">
            {l('template')}
          </Button>
        </Space>
        {!draft && (
          <XlsxPicker
            testId="labelb-file"
            style={{ maxWidth: 720 }}
            file={file}
            disabled={busy}
            onWrongType={() => setError(l('onlyXlsx'))}
            onPick={(f) => (setError(null), setFile(f), unsaved.touched())}
            onRemove={() => setFile(null)}
          >
            {l('chooseFile')}
          </XlsxPicker>
        )}
        {error && <Alert type="error" showIcon message={error} data-testid="labelb-error" />}
        {!draft && (
          <Button type="primary" loading={busy} onClick={check} data-testid="labelb-check">
            {l('check')}
          </Button>
        )}
        {draft && (
          <>
            <Typography.Text strong data-testid="labelb-batch-no">
              {draft.batch.batchNo}
            </Typography.Text>
            <RowsTable rows={draft.rows} />
            <ConfirmBatch batch={draft.batch} />
            <Button onClick={() => navigate(`/order/updateLabelB/info?id=${draft.batch.id}`)}>{l('openBatch')}</Button>
          </>
        )}
      </Space>
    </Card>
  );
}

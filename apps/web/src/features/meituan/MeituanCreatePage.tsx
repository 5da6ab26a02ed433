import { type meituan as M } from '@console/contract';
import { Alert, Button, Card, Select, Space, Table, Typography } from 'antd';
import { Form } from '@/components/form.tsx';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { CustomerSelect } from '@/components/CustomerSelect.tsx';
import { XlsxPicker } from '@/components/XlsxPicker.tsx';
import { useCreateFormDirty } from '@/components/useTabDirty.ts';
import { errorText, invalidateCall, t, useCall, useI18n, useSession } from '@/lib';
import {
  batchNumbersCall,
  downloadMeituanErrors,
  downloadTemplate,
  locationsCall,
  meituanListCall,
  uploadMeituan,
} from './api/meituan.ts';
import './i18n.ts';

type Result = Awaited<ReturnType<typeof uploadMeituan>>;

/**
 * Upload Meituan reservation orders (spec §2 meituanOrder.create): the template, a check
 * (preview) and the upload. A wrong row anywhere and nothing is written: the rows' errors show
 * here and in the error workbook. The shell shows unread notices before this page (notice gate).
 */
export default function MeituanCreatePage() {
  useI18n();
  const navigate = useNavigate();
  const { user } = useSession();
  const isCustomer = !!user?.customer;
  const locations = useCall(locationsCall, {});
  const [location, setLocation] = useState<M.MeituanLocation>('tokyo');
  const [customerId, setCustomerId] = useState<number | undefined>();
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<Result | null>(null);
  const l = (k: string, p?: Record<string, string | number>) => t(`meituan.${k}`, p);
  // A chosen sheet not uploaded yet is lost with the tab: it asks first (issue 36 #18, #19); a
  // preview writes nothing, so only the upload that committed makes the page clean.
  const unsaved = useCreateFormDirty();

  const send = async (preview: boolean) => {
    if (!file) return setError(l('chooseFile'));
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      const r = await uploadMeituan(file, { operationLocation: location, customerId, preview });
      setResult(r);
      if (r.committed) {
        unsaved.created();
        void invalidateCall(meituanListCall);
        void invalidateCall(batchNumbersCall);
      }
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card data-testid="meituan-create-page">
      <Space direction="vertical" style={{ width: '100%', maxWidth: 900 }}>
        <Typography.Text type="secondary">{l('hint')}</Typography.Text>
        <Space wrap>
          <Button onClick={() => void downloadTemplate()} data-testid="meituan-template">
            {l('template')}
          </Button>
          <Form.Item label={l('operationLocation')} style={{ marginBottom: 0 }}>
            <Select
              style={{ width: 180 }}
              value={location}
              onChange={(v) => (setLocation(v), unsaved.touched())}
              options={locations.data ?? []}
              aria-label={l('operationLocation')}
              data-testid="meituan-location"
            />
          </Form.Item>
          {!isCustomer && (
            <Form.Item label={l('customer')} style={{ marginBottom: 0 }}>
              <CustomerSelect
                allowClear
                style={{ width: 220 }}
                value={customerId}
                onChange={(v) => (setCustomerId(v), unsaved.touched())}
                data-testid="meituan-customer"
              />
            </Form.Item>
          )}
        </Space>
        <XlsxPicker
          testId="meituan-file"
          file={file}
          disabled={busy}
          onWrongType={() => setError(l('onlyXlsx'))}
          onPick={(f) => (setError(null), setResult(null), setFile(f), unsaved.touched())}
          onRemove={() => (setFile(null), setResult(null))}
        >
          {l('chooseFile')}
        </XlsxPicker>
        <Space>
          <Button loading={busy} onClick={() => void send(true)} data-testid="meituan-preview">
            {l('preview')}
          </Button>
          <Button type="primary" loading={busy} onClick={() => void send(false)} data-testid="meituan-upload">
            {l('upload')}
          </Button>
        </Space>
        {error && <Alert type="error" showIcon message={error} data-testid="meituan-error" />}
        {result && result.errorCount > 0 && (
          <Alert
            type="error"
            showIcon
            data-testid="meituan-refused"
            message={l('refused', { count: result.errorCount })}
            description={
              <Space direction="vertical" style={{ width: '100%' }}>
                {result.errorFileId !== null && (
                  <Button onClick={() => void downloadMeituanErrors(result.errorFileId!)} data-testid="meituan-errors">
                    {l('downloadErrors')}
                  </Button>
                )}
                <Table
                  size="small"
                  rowKey={(e) => `${e.row}-${e.field}`}
                  pagination={false}
                  dataSource={result.errors}
                  columns={[
                    { key: 'row', dataIndex: 'row', title: l('row'), width: 60 },
                    { key: 'field', dataIndex: 'field', title: l('field'), render: (f: string) => l(f) },
                    { key: 'message', dataIndex: 'message', title: l('reason') },
                  ]}
                />
              </Space>
            }
          />
        )}
        {result && result.errorCount === 0 && (
          <Alert
            type="success"
            showIcon
            data-testid="meituan-done"
            message={
              result.committed ? (
                <a onClick={() => navigate('/meituanOrder/list')}>
                  {l('done', { orders: result.orderCount, batch: result.batchNumber ?? '' })}
                </a>
              ) : (
                l('previewOk', { orders: result.orderCount, items: result.itemCount })
              )
            }
          />
        )}
      </Space>
    </Card>
  );
}

import { type clearance, orders, reference } from '@console/contract';
import { Alert, App, Button, Card, Descriptions, Progress, Select, Space, Typography, Upload } from 'antd';
import { Form } from '@/components/form.tsx';
import { useEffect, useRef, useState } from 'react';
import { attempt } from '@/components/mutation.ts';
import { errorText, invalidateCall, localized, t, useCall, useI18n } from '@/lib';
import { downloadErrors, downloadTemplate, uploadResults } from './api/clearance.ts';
import './i18n.ts';

/**
 * Clearance results (issue 13): an operator uploads a clearance company's result sheet. The
 * call answers when every row is applied, or none (then the refused rows come back as a
 * workbook). The bar moves while the sheet uploads and is checked, like the order review's.
 */
export default function ClearanceResultsPage() {
  useI18n();
  const { message } = App.useApp();
  const companies = useCall(reference.customsClearanceCompanies, {});
  const [company, setCompany] = useState<string>();
  const [busy, setBusy] = useState<string | null>(null);
  const [percent, setPercent] = useState(0);
  const [result, setResult] = useState<clearance.ClearanceUploadResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setInterval>>(undefined);
  useEffect(() => () => clearInterval(timer.current), []);

  const send = async (file: File) => {
    if (!company) return setError(t('clearance.companyRequired'));
    setError(null);
    setResult(null);
    setBusy(file.name);
    setPercent(1);
    // An estimate that slows near the end: the answer, not the bar, says it is done.
    const expectedMs = 1000 + (file.size / 1024 / 1024) * 1000;
    const started = Date.now();
    timer.current = setInterval(() => {
      const f = (Date.now() - started) / expectedMs;
      setPercent(Math.min(95, Math.round(95 * (1 - Math.exp(-2 * f)))));
    }, 200);
    try {
      const r = await uploadResults(company, file);
      setResult(r);
      setPercent(100);
      // Refusals are error orders now: the list and its header badge change.
      if (r.applied) await Promise.all([invalidateCall(orders.errorOrders), invalidateCall(orders.orderList)]);
    } catch (e) {
      setError(errorText(e));
      setPercent(0);
    } finally {
      clearInterval(timer.current);
      setBusy(null);
    }
  };

  return (
    <Card title={t('clearance.title')} data-testid="clearance-page">
      <Space direction="vertical" style={{ width: '100%', maxWidth: 720 }}>
        <Form layout="inline">
          <Form.Item label={t('clearance.company')} required htmlFor="clearance-company">
            <Select
              id="clearance-company"
              style={{ width: 320 }}
              value={company}
              onChange={(v: string) => (setCompany(v), setError(null))}
              options={(companies.data ?? []).map((c) => ({ value: c.code, label: `${c.code} ${localized(c.name)}` }))}
              data-testid="clearance-company"
              showSearch
            />
          </Form.Item>
          <Form.Item>
            <Button
              disabled={!company}
              onClick={() => attempt(message, () => downloadTemplate(company!))}
              data-testid="clearance-template"
            >
              {t('clearance.template')}
            </Button>
          </Form.Item>
        </Form>
        <Upload
          accept=".xlsx"
          maxCount={1}
          showUploadList={false}
          disabled={!!busy}
          beforeUpload={(file) => {
            void send(file);
            return false;
          }}
        >
          <Button type="primary" loading={!!busy} disabled={!company} data-testid="clearance-upload">
            {t('clearance.upload')}
          </Button>
        </Upload>
        <Typography.Text type="secondary">{t('clearance.hint')}</Typography.Text>
        {(busy || result) && (
          <div data-testid="clearance-progress">
            {busy && <Typography.Text>{t('clearance.stageSending', { file: busy })}</Typography.Text>}
            <Progress
              percent={percent}
              status={busy ? 'active' : result?.applied ? 'success' : 'exception'}
              format={(p) => (busy ? `${p}%` : t(result?.applied ? 'clearance.stageDone' : 'clearance.stageRefused'))}
            />
          </div>
        )}
        {error && <Alert type="error" showIcon message={error} data-testid="clearance-error" />}
        {result &&
          (result.applied ? (
            <Alert
              type="success"
              showIcon
              data-testid="clearance-outcome"
              message={t('clearance.applied', { released: result.released, refused: result.refused })}
              description={result.refused ? t('clearance.appliedDetail') : undefined}
            />
          ) : (
            <Alert
              type="error"
              showIcon
              data-testid="clearance-outcome"
              message={t('clearance.refused', { count: result.errorRows })}
              description={t('clearance.refusedDetail')}
              action={
                result.errorFileId !== null && (
                  <Button
                    size="small"
                    onClick={() => attempt(message, () => downloadErrors(result.errorFileId!))}
                    data-testid="clearance-errors"
                  >
                    {t('clearance.downloadErrors')}
                  </Button>
                )
              }
            />
          ))}
        {result?.applied && (
          <Descriptions size="small" column={3} bordered data-testid="clearance-counts">
            <Descriptions.Item label={t('clearance.rows')}>{result.rows}</Descriptions.Item>
            <Descriptions.Item label={t('clearance.released')}>
              <span data-testid="clearance-released">{result.released}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('clearance.refusedCount')}>
              <span data-testid="clearance-refused">{result.refused}</span>
            </Descriptions.Item>
          </Descriptions>
        )}
      </Space>
    </Card>
  );
}

import { exportJobs, orderReviews } from '@console/contract';
import { Alert, App, Button, Card, Progress, Space, Typography } from 'antd';
import { Form } from '@/components/form.tsx';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { CustomerSelect } from '@/components/CustomerSelect.tsx';
import { XlsxPicker } from '@/components/XlsxPicker.tsx';
import { useCreateFormDirty } from '@/components/useTabDirty.ts';
import { newProgressId } from '@/components/download-progress.tsx';
import { call, errorText, invalidateCall, t, useI18n, useSession } from '@/lib';
import { downloadTemplate, submitReview } from './api/orderReviews.ts';
import { fileSize } from './components/shared.tsx';
import './i18n.ts';

/**
 * Submit orders for review (spec §2 orderReview.create): the order template, one xlsx at a
 * time. The call answers once the file is stored and the review queued; its check runs on the
 * server's job queue (issue 27), so the page reads the review from the list until the check has
 * ended. The bar shows the upload (estimated from the file's size, up to 10 %), then the check's
 * percent as the review reports it; then the review opens, or the check's failure is shown.
 */
export default function OrderReviewCreatePage() {
  useI18n();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const { user } = useSession();
  const isCustomer = !!user?.customer;
  const [file, setFile] = useState<File | null>(null);
  const [customerId, setCustomerId] = useState<number | undefined>();
  const [busy, setBusy] = useState(false);
  const [percent, setPercent] = useState(0);
  const [checking, setChecking] = useState(false);
  const [queued, setQueued] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A chosen sheet not submitted yet is lost with the tab: it asks first (issue 36 #18, #19).
  // Once queued the review is on the server (its list shows it, even if its check fails).
  const unsaved = useCreateFormDirty();
  const timer = useRef<ReturnType<typeof setInterval>>(undefined);
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
      clearInterval(timer.current);
    },
    [],
  );

  /** The review, read until its check ended (or the page was left: then null). */
  const checked = async (reviewNo: string) => {
    while (mounted.current) {
      const r = (await call(orderReviews.orderReviews, { reviewNo }, { silent: true })).list[0];
      if (r) {
        if (r.parseState === 'done' || r.parseState === 'failed') return r;
        if (r.parseState === 'parsing') setChecking(true);
        setPercent((v) => Math.max(v, 10 + Math.floor((r.parseProgress / 100) * 89)));
      }
      await new Promise((res) => setTimeout(res, 500));
    }
    return null;
  };

  const submit = async () => {
    if (!file) return setError(t('orderReviews.fileRequired'));
    if (!isCustomer && !customerId) return setError(t('orderReviews.customerRequired'));
    setError(null);
    setBusy(true);
    setChecking(false);
    setQueued(false);
    setPercent(1);
    const progressId = newProgressId();
    // The upload, estimated (about 10 MB/s) until the server says it checks; then its figure.
    const uploadMs = 300 + (file.size / 1024 / 1024) * 100;
    const started = Date.now();
    let polling = false;
    timer.current = setInterval(() => {
      if (polling) return;
      polling = true;
      call(exportJobs.exportProgress, { id: progressId }, { silent: true })
        .then((p) => {
          if (p.phase === 'unknown' || p.phase === 'waiting') {
            const f = (Date.now() - started) / uploadMs;
            setPercent((v) => Math.max(v, Math.min(10, Math.round(10 * (1 - Math.exp(-2 * f))))));
          }
        })
        .catch(() => undefined)
        .finally(() => (polling = false));
    }, 300);
    try {
      const queued = await submitReview(file, isCustomer ? undefined : customerId, progressId);
      clearInterval(timer.current);
      unsaved.created();
      setQueued(true);
      setPercent((v) => Math.max(v, 10));
      await invalidateCall(orderReviews.orderReviews);
      const review = await checked(queued.reviewNo);
      if (!review) return;
      await invalidateCall(orderReviews.orderReviews);
      if (review.parseState === 'failed') {
        setError(review.parseError);
        setPercent(0);
        return;
      }
      setPercent(100);
      void message.success(t('orderReviews.submitted', { no: review.reviewNo }));
      navigate(`/orderReview/info?id=${review.id}`);
    } catch (e) {
      setError(errorText(e));
      setPercent(0);
    } finally {
      clearInterval(timer.current);
      setBusy(false);
    }
  };

  return (
    <Card title={t('orderReviews.create')} data-testid="review-create-page">
      <Space direction="vertical" style={{ width: '100%', maxWidth: 640 }}>
        <Typography.Paragraph type="secondary">{t('orderReviews.templateHint')}</Typography.Paragraph>
        <Button onClick={() => void downloadTemplate()} data-testid="review-template">
          {t('orderReviews.template')}
        </Button>
        {!isCustomer && (
          <Form.Item label={t('orderReviews.customer')} required style={{ marginBottom: 0 }}>
            <CustomerSelect
              placeholder={t('orderReviews.selectCustomer')}
              style={{ width: 240 }}
              value={customerId}
              onChange={(v) => (setCustomerId(v), unsaved.touched())}
              data-testid="review-customer"
            />
          </Form.Item>
        )}
        <XlsxPicker
          testId="review-file"
          file={file}
          disabled={busy}
          onWrongType={() => setError(t('orderReviews.onlyXlsx'))}
          onPick={(f) => (setError(null), setFile(f), unsaved.touched())}
          onRemove={() => setFile(null)}
        >
          {t('orderReviews.chooseFile')}
        </XlsxPicker>
        {busy && file && (
          <div data-testid="review-progress">
            <Typography.Text type="secondary">
              {checking
                ? t('orderReviews.checking', { name: file.name, percent })
                : queued
                  ? t('orderReviews.queued', { name: file.name })
                  : t('orderReviews.uploading', { name: file.name, size: fileSize(file.size) })}
            </Typography.Text>
            <Progress percent={percent} status="active" data-testid="review-progress-bar" />
          </div>
        )}
        {error && <Alert type="error" showIcon message={error} data-testid="review-error" />}
        <Button type="primary" loading={busy} onClick={() => void submit()} data-testid="review-submit">
          {t('orderReviews.submit')}
        </Button>
      </Space>
    </Card>
  );
}

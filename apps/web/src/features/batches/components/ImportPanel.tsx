import { type batches, reference } from '@console/contract';
import { Alert, Button, Checkbox, Progress, Segmented, Select, Space, Table, Typography } from 'antd';
import { Form } from '@/components/form.tsx';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { CustomerSelect } from '@/components/CustomerSelect.tsx';
import { ImportDrop, ImportErrors, ImportProgress, useImportJob } from '@/components/import-wizard';
import { errorText, formatTime, getLocale, localized, t, useCall, useI18n, useSession } from '@/lib';
import {
  confirmBatch,
  downloadErrors,
  downloadTemplate,
  fetchProgress,
  ordersOfBatch,
  uploadBatch,
} from '../api/batches.ts';
import '../i18n.ts';
import { OrderNotes } from './OrderNotes.tsx';

type Kind = Exclude<batches.TemplateKind, 'waybillNumber'>;
type Progress = batches.BatchProgress;
const CHANNELS = ['JP', 'USA', 'EMS', 'SG', 'AU', 'UK', 'PH', 'TH', 'USD'];

/** Template choice, downloads, one-file upload, preview with errors and confirmations, progress. */
export function ImportPanel({ kinds }: { kinds: Kind[] }) {
  useI18n();
  const { user } = useSession();
  const isCustomer = (user?.roles ?? []).includes('customer');
  const companies = useCall(reference.customsClearanceCompanies, {});
  // A customer user is offered the channels it may use (the server answers only those).
  const channelList = useCall(reference.channels, {});
  const channelCodes = channelList.data?.map((c) => c.code as string) ?? CHANNELS;
  const [kind, setKind] = useState<Kind>(kinds[0]!);
  const [fields, setFields] = useState<{
    channel?: string;
    customerId?: number;
    clearanceCompany?: string;
    exportNominationId?: number;
  }>({
    channel: 'JP',
  });
  const orderChannel = fields.channel && channelCodes.includes(fields.channel) ? fields.channel : channelCodes[0];
  // Nominations belong to a customer: an agent or operator sees those of the customer chosen.
  const nominations = useCall(
    reference.exportsOptions,
    { customerId: isCustomer ? undefined : fields.customerId },
    { enabled: !!user && (isCustomer || !!fields.customerId) },
  );
  const {
    job: batch,
    setJob: setBatch,
    problem: uploadError,
    setProblem: setUploadError,
    upload,
    commit: confirm,
  } = useImportJob<Progress>({
    fetch: fetchProgress,
    running: (b) => b.status === 'parsing' || b.status === 'committing',
    pollMs: 700,
  });
  const [confirmed, setConfirmed] = useState<batches.ConfirmationKind[]>([]);

  // Batch List's "open preview" (?batch=<id>): the unexpired preview of an earlier upload, to
  // confirm without uploading again.
  const [params, setParams] = useSearchParams();
  const reopen = Number(params.get('batch')) || null;
  useEffect(() => {
    if (!reopen) return;
    setUploadError(null);
    setConfirmed([]);
    fetchProgress(reopen).then(
      (b) => {
        setBatch(b);
        if ((kinds as string[]).includes(b.templateKind)) setKind(b.templateKind as Kind);
      },
      (e: unknown) => setUploadError(errorText(e)),
    );
  }, [reopen]); // eslint-disable-line react-hooks/exhaustive-deps -- once per batch asked for

  const onFile = (file: File) => {
    setUploadError(null);
    setBatch(null);
    setConfirmed([]);
    const refusal = !isCustomer && !fields.customerId ? t('batches.customerRequired') : null;
    return upload(file, t('batches.onlyXlsx'), refusal, async (f) => {
      const b = await uploadBatch(kind, f, {
        channel: kind === 'order' ? orderChannel : fields.channel,
        customerId: fields.customerId ? String(fields.customerId) : undefined,
        clearanceCompany: fields.clearanceCompany,
        exportNominationId: fields.exportNominationId ? String(fields.exportNominationId) : undefined,
      });
      // The address names the batch: a reload (or a restored tab) reopens it rather than an
      // empty page with the upload only in Batch List (issue 36 #22).
      setParams(
        (p) => {
          const next = new URLSearchParams(p);
          next.set('batch', String(b.id));
          return next;
        },
        { replace: true },
      );
      return fetchProgress(b.id);
    });
  };

  const commit = (skipInvalid: boolean) =>
    confirm(async (b) => {
      await confirmBatch(b.id, confirmed, skipInvalid);
      return fetchProgress(b.id);
    });

  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle">
      <Segmented
        options={kinds.map((k) => ({ label: t(`batches.kinds.${k}`), value: k }))}
        value={kind}
        onChange={(v) => setKind(v as Kind)}
        data-testid="template-kind"
      />
      <Form layout="inline">
        <Form.Item>
          <Button onClick={() => downloadTemplate(kind)} data-testid="download-template">
            {t('batches.download')}
          </Button>
        </Form.Item>
        {kind === 'order' && (
          <Form.Item label={t('batches.channel')}>
            <Segmented
              options={channelCodes}
              value={orderChannel}
              onChange={(v) => setFields({ ...fields, channel: String(v) })}
            />
          </Form.Item>
        )}
        {/* Agents and operators pick one of the customers they may act for; a customer acts for itself. */}
        {!isCustomer && (
          <Form.Item label={t('batches.customer')} required>
            <CustomerSelect
              enabled={!!user && !isCustomer}
              style={{ width: 240 }}
              placeholder={t('batches.selectCustomer')}
              value={fields.customerId}
              // Another customer's nomination does not apply.
              onChange={(v: number) => setFields({ ...fields, customerId: v, exportNominationId: undefined })}
              aria-label={t('batches.customer')}
              data-testid="customer"
            />
          </Form.Item>
        )}
        <Form.Item label={t('batches.exportNomination')}>
          <Select
            allowClear
            style={{ width: 260 }}
            placeholder={t('batches.exportNominationNone')}
            disabled={!isCustomer && !fields.customerId}
            loading={nominations.isLoading}
            value={fields.exportNominationId}
            onChange={(v?: number) => setFields({ ...fields, exportNominationId: v || undefined })}
            options={(nominations.data ?? []).map((n) => ({
              value: n.id,
              label: `${getLocale() === 'en' ? n.nameEn : n.nameJa} (${n.corporateNumber})`,
            }))}
            aria-label={t('batches.exportNomination')}
            data-testid="export-nomination"
          />
        </Form.Item>
        <Form.Item label={t('batches.clearance')}>
          <Select
            allowClear
            style={{ width: 200 }}
            placeholder={t('batches.clearanceDefault')}
            value={fields.clearanceCompany}
            onChange={(v?: string) => setFields({ ...fields, clearanceCompany: v || undefined })}
            options={(companies.data ?? []).map((c) => ({ value: c.code, label: `${c.code} ${localized(c.name)}` }))}
            aria-label={t('batches.clearance')}
            data-testid="clearance"
          />
        </Form.Item>
      </Form>
      <ImportDrop onFile={onFile} testId="upload">
        {t('batches.drop')}
      </ImportDrop>
      {uploadError && <Alert type="error" showIcon message={uploadError} data-testid="upload-error" />}
      {batch && <BatchState batch={batch} confirmed={confirmed} setConfirmed={setConfirmed} onCommit={commit} />}
    </Space>
  );
}

function BatchState({
  batch,
  confirmed,
  setConfirmed,
  onCommit,
}: {
  batch: Progress;
  confirmed: batches.ConfirmationKind[];
  setConfirmed: (k: batches.ConfirmationKind[]) => void;
  onCommit: (skipInvalid: boolean) => void;
}) {
  if (batch.status === 'parsing' || batch.status === 'committing') {
    return (
      <ImportProgress testId="progress" percent={batch.progress}>
        {batch.status === 'committing'
          ? t('batches.committing')
          : batch.queuePosition
            ? t('batches.queued', { n: batch.queuePosition })
            : t('batches.parsing')}
      </ImportProgress>
    );
  }
  if (batch.status === 'failed') {
    return (
      <Space direction="vertical">
        <Alert
          type="error"
          showIcon
          message={t('batches.failed')}
          description={batch.errorMessage}
          data-testid="failed"
        />
        {batch.hasErrorWorkbook && (
          <Button onClick={() => downloadErrors(batch.id)}>{t('batches.errorWorkbook')}</Button>
        )}
      </Space>
    );
  }
  if (batch.status === 'done') {
    return (
      <div data-testid="done">
        <Progress percent={100} />
        <Alert
          type="success"
          showIcon
          message={t('batches.done', { count: batch.orderCount, batchNo: batch.batchNo })}
          description={
            <Space direction="vertical">
              {/* The batch's orders: Order List filtered by its batch number. */}
              <Link to={ordersOfBatch(batch.batchNo)} data-testid="done-orders">
                {t('batches.viewOrders', { count: batch.orderCount })}
              </Link>
              {batch.invalidRows > 0 && (
                <Typography.Text>
                  {t('batches.doneLeftOut', { rows: batch.invalidRows })}{' '}
                  {batch.hasErrorWorkbook && (
                    <Button size="small" onClick={() => downloadErrors(batch.id)} data-testid="done-errors">
                      {t('batches.errorWorkbook')}
                    </Button>
                  )}
                </Typography.Text>
              )}
            </Space>
          }
        />
      </div>
    );
  }
  const allConfirmed = batch.confirmations.every((c) => confirmed.includes(c.kind));
  const allOrders = batch.orderCount + batch.invalidOrders;
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="preview">
      <Alert
        type={batch.invalidRows ? 'error' : batch.confirmRows ? 'warning' : 'success'}
        showIcon
        data-testid="preview-summary"
        message={t('batches.preview', {
          rows: batch.totalRows,
          orders: batch.orderCount,
          confirmOrders: batch.confirmOrders.length,
          invalidOrders: batch.invalidOrders,
          invalid: batch.invalidRows,
        })}
        description={
          batch.previewUntil ? t('batches.previewUntil', { time: formatTime(batch.previewUntil) }) : undefined
        }
      />
      {batch.duplicates.length > 0 && (
        <Alert
          type="info"
          message={t('batches.duplicates', { list: batch.duplicates.map((d) => d.orderNo).join(', ') })}
        />
      )}
      <ImportErrors i18n="batches" job={batch} pageSize={10} columnWidth={180} testId="errors" />
      {batch.confirmations.length > 0 && (
        <Alert
          type="warning"
          message={t('batches.confirmTitle', { orders: batch.confirmOrders.length })}
          data-testid="confirmations"
          description={
            <Space direction="vertical" style={{ width: '100%' }}>
              <Table
                size="small"
                rowKey="row"
                dataSource={batch.confirmOrders}
                pagination={{ pageSize: 10 }}
                data-testid="confirm-table"
                columns={[
                  { title: t('batches.row'), dataIndex: 'row', width: 70 },
                  { title: t('batches.orderNo'), dataIndex: 'orderNo', width: 180 },
                  {
                    title: t('batches.reason'),
                    render: (_, o) => o.reasons.map((r) => r.message).join('; '),
                  },
                ]}
              />
              {/* One box per kind: the user accepts each reason for the orders it names. */}
              <Checkbox.Group
                value={confirmed}
                onChange={(v) => setConfirmed(v as batches.ConfirmationKind[])}
                options={batch.confirmations.map((c) => ({
                  value: c.kind,
                  label: t('batches.confirmKind', { message: c.message, count: c.count }),
                }))}
                data-testid="confirm-kinds"
              />
            </Space>
          }
        />
      )}
      <OrderNotes batch={batch} />
      {batch.invalidRows === 0 ? (
        <Button type="primary" disabled={!allConfirmed} onClick={() => onCommit(false)} data-testid="confirm">
          {t('batches.confirmCreate', { count: batch.orderCount })}
        </Button>
      ) : (
        // Two ways on: the valid orders now (one transaction; the rows with errors stay in the
        // error workbook), or every order after fixing the rows and uploading again.
        <Space direction="vertical" data-testid="choices">
          {batch.orderCount > 0 && (
            <Space wrap>
              <Button type="primary" disabled={!allConfirmed} onClick={() => onCommit(true)} data-testid="import-valid">
                {t('batches.importValid', { count: batch.orderCount })}
              </Button>
              <Typography.Text type="secondary">
                {t('batches.importValidNote', { invalidOrders: batch.invalidOrders, rows: batch.invalidRows })}
              </Typography.Text>
            </Space>
          )}
          <Space wrap>
            {batch.hasErrorWorkbook && (
              <Button onClick={() => downloadErrors(batch.id)} data-testid="download-errors">
                {t('batches.fixAndUpload')}
              </Button>
            )}
            <Typography.Text type="secondary" data-testid="fix-note">
              {t('batches.fixNote', { count: allOrders })}
            </Typography.Text>
          </Space>
        </Space>
      )}
      {batch.invalidRows === 0 && batch.hasErrorWorkbook && (
        <Button onClick={() => downloadErrors(batch.id)} data-testid="download-errors">
          {t('batches.errorWorkbook')}
        </Button>
      )}
    </Space>
  );
}

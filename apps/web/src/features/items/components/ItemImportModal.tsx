import { type items } from '@console/contract';
import { Alert, Button, Modal, Progress, Space, Table, Typography, Upload } from 'antd';
import { useEffect, useState } from 'react';
import { CustomerSelect } from '@/components/CustomerSelect.tsx';
import { errorText, formatTime, t, useI18n } from '@/lib';
import {
  confirmItemImport,
  downloadItemImportErrors,
  downloadItemTemplate,
  itemImportProgress,
  uploadItemImport,
} from '../api/itemImport.ts';
import { useRole } from './useRole.ts';

type Import = items.ItemImport;

/**
 * Import items from the template: download it, upload the filled workbook (an agent or operator
 * first names the customer), see how many rows are valid and why the others failed (the error
 * workbook has them all), then import the valid rows — all or none — with progress.
 */
export function ItemImportModal({
  open,
  onClose,
  onImported,
}: {
  open: boolean;
  onClose: () => void;
  onImported: () => void;
}) {
  useI18n();
  const role = useRole();
  const [customerId, setCustomerId] = useState<number>();
  const [job, setJob] = useState<Import | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const committing = job?.status === 'committing';
  useEffect(() => {
    if (!committing) return;
    const timer = setInterval(() => {
      itemImportProgress(job.id).then(
        (j) => {
          setJob(j);
          if (j.status === 'done') onImported();
        },
        () => undefined,
      );
    }, 500);
    return () => clearInterval(timer);
  }, [committing, job?.id]); // eslint-disable-line react-hooks/exhaustive-deps -- one poll per commit

  const reset = () => {
    setJob(null);
    setProblem(null);
  };
  const onFile = async (file: File) => {
    reset();
    if (!/\.xlsx$/i.test(file.name)) {
      setProblem(t('items.importing.onlyXlsx'));
      return false;
    }
    if (!role.isCustomer && !customerId) {
      setProblem(t('items.importing.customerRequired'));
      return false;
    }
    setBusy(true);
    try {
      setJob(await uploadItemImport(file, role.isCustomer ? undefined : customerId));
    } catch (e) {
      setProblem(errorText(e));
    } finally {
      setBusy(false);
    }
    return false;
  };
  const commit = async () => {
    if (!job) return;
    setProblem(null);
    try {
      setJob(await confirmItemImport(job.id));
    } catch (e) {
      setProblem(errorText(e));
    }
  };
  const close = () => {
    if (committing) return;
    reset();
    onClose();
  };

  return (
    <Modal
      open={open}
      title={t('items.importing.title')}
      onCancel={close}
      footer={null}
      width={860}
      destroyOnHidden
      maskClosable={!committing}
    >
      <Space direction="vertical" style={{ width: '100%' }} size="middle" data-testid="item-import">
        <Space wrap>
          <Button onClick={() => void downloadItemTemplate()} data-testid="import-template">
            {t('items.importing.template')}
          </Button>
          <Typography.Text type="secondary">{t('items.importing.templateNote')}</Typography.Text>
        </Space>
        {!role.isCustomer && (
          <Space>
            <Typography.Text>{t('items.customer')}</Typography.Text>
            <CustomerSelect
              enabled={open && !role.isCustomer}
              style={{ width: 260 }}
              placeholder={t('items.selectCustomer')}
              value={customerId}
              onChange={(v: number) => (setCustomerId(v), reset())}
              disabled={committing}
              data-testid="import-customer"
            />
          </Space>
        )}
        <Upload.Dragger
          accept=".xlsx"
          maxCount={1}
          multiple={false}
          showUploadList={false}
          beforeUpload={onFile}
          disabled={busy || committing}
          data-testid="import-upload"
        >
          <p>{busy ? t('items.importing.checking') : t('items.importing.drop')}</p>
        </Upload.Dragger>
        {problem && <Alert type="error" showIcon message={problem} data-testid="import-problem" />}
        {job && <ImportState job={job} onCommit={commit} />}
      </Space>
    </Modal>
  );
}

function ImportState({ job, onCommit }: { job: Import; onCommit: () => void }) {
  const errors = job.hasErrorWorkbook && (
    <Button onClick={() => void downloadItemImportErrors(job.id)} data-testid="import-errors">
      {t('items.importing.errorWorkbook', { rows: job.invalidRows })}
    </Button>
  );
  if (job.status === 'committing')
    return (
      <div data-testid="import-progress">
        <Typography.Text>{t('items.importing.committing', { count: job.validRows })}</Typography.Text>
        <Progress percent={job.progress} />
      </div>
    );
  if (job.status === 'done')
    return (
      <Space direction="vertical" style={{ width: '100%' }}>
        <Progress percent={100} />
        <Alert
          type="success"
          showIcon
          message={t('items.importing.done', { count: job.createdItems })}
          data-testid="import-done"
        />
        {errors}
      </Space>
    );
  if (job.status === 'failed' || job.status === 'expired')
    return (
      <Alert
        type="error"
        showIcon
        message={job.status === 'expired' ? t('items.importing.expired') : t('items.importing.failed')}
        description={job.errorMessage}
        data-testid="import-failed"
      />
    );
  const listedRows = new Set(job.errors.map((e) => e.row)).size;
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="import-preview">
      <Alert
        type={job.invalidRows ? 'warning' : 'success'}
        showIcon
        data-testid="import-summary"
        message={t('items.importing.summary', {
          rows: job.totalRows,
          valid: job.validRows,
          invalid: job.invalidRows,
        })}
        description={job.previewUntil ? t('items.importing.until', { time: formatTime(job.previewUntil) }) : undefined}
      />
      {job.errors.length > 0 && (
        <>
          <Typography.Text strong>
            {t('items.importing.errorsTitle', { rows: job.invalidRows })}
            {listedRows < job.invalidRows && ` ${t('items.importing.errorsFirst', { listed: listedRows })}`}
          </Typography.Text>
          <Table
            size="small"
            rowKey={(r) => `${r.row}-${r.column}-${r.message}`}
            dataSource={job.errors}
            pagination={{ pageSize: 8 }}
            data-testid="import-errors-table"
            columns={[
              { title: t('items.importing.row'), dataIndex: 'row', width: 70 },
              {
                title: t('items.importing.column'),
                render: (_, r) => (r.column ? `${r.column} ${r.columnTitle ?? ''}` : ''),
                width: 200,
              },
              { title: t('items.importing.message'), dataIndex: 'message' },
            ]}
          />
        </>
      )}
      <Space wrap>
        {job.validRows > 0 && (
          <Button type="primary" onClick={onCommit} data-testid="import-confirm">
            {t('items.importing.confirm', { count: job.validRows })}
          </Button>
        )}
        {errors}
      </Space>
      {job.invalidRows > 0 && (
        <Typography.Text type="secondary">{t('items.importing.fixNote', { rows: job.invalidRows })}</Typography.Text>
      )}
    </Space>
  );
}

import { type items } from '@console/contract';
import { Alert, Button, Modal, Progress, Space, Typography } from 'antd';
import { useState } from 'react';
import { CustomerSelect } from '@/components/CustomerSelect.tsx';
import { ImportDrop, ImportErrors, ImportProgress, useImportJob } from '@/components/import-wizard';
import { formatTime, t, useI18n } from '@/lib';
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
  const { job, setJob, problem, setProblem, busy, upload, commit } = useImportJob<Import>({
    fetch: itemImportProgress,
    running: (j) => j.status === 'committing',
    pollMs: 500,
    onPolled: (j) => j.status === 'done' && onImported(),
  });

  const committing = job?.status === 'committing';
  const reset = () => {
    setJob(null);
    setProblem(null);
  };
  const onFile = (file: File) => {
    reset();
    const refusal = !role.isCustomer && !customerId ? t('items.importing.customerRequired') : null;
    return upload(file, t('items.importing.onlyXlsx'), refusal, (f) =>
      uploadItemImport(f, role.isCustomer ? undefined : customerId),
    );
  };
  const confirm = () => {
    setProblem(null);
    return commit((j) => confirmItemImport(j.id));
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
        <ImportDrop onFile={onFile} disabled={busy || committing} testId="import-upload">
          {busy ? t('items.importing.checking') : t('items.importing.drop')}
        </ImportDrop>
        {problem && <Alert type="error" showIcon message={problem} data-testid="import-problem" />}
        {job && <ImportState job={job} onCommit={() => void confirm()} />}
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
      <ImportProgress testId="import-progress" percent={job.progress}>
        {t('items.importing.committing', { count: job.validRows })}
      </ImportProgress>
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
      <ImportErrors i18n="items.importing" job={job} pageSize={8} columnWidth={200} testId="import-errors" />
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

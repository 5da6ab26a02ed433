import { orders } from '@console/contract';
import { Alert, Button, Modal, Space, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { CustomerSelect } from '@/components/CustomerSelect.tsx';
import { ApiError, reportError, t, useSession } from '@/lib';
import { downloadIdCardImportErrors, idCardTemplate, importIdCards } from '../api/orders.ts';

type Result = { rows: number; created: number; updated: number; images: number };
type Problem = { key: string; row: number | null; column: string; messages: string[] };

/**
 * 422 field paths `rows.<row>.<column>` (or `file`, `customerId`) → table rows, in sheet order.
 * The error workbook's id travels in the same answer; it is not a problem to list.
 */
function problemsOf(fields: Record<string, string[]>): Problem[] {
  return Object.entries(fields)
    .filter(([key]) => key !== orders.ID_CARD_IMPORT_ERRORS_KEY)
    .map(([key, messages]) => {
      const m = /^rows\.(\d+)\.(\w+)$/.exec(key);
      return m
        ? { key, row: Number(m[1]), column: t(`orders.importColumns.${m[2]}`), messages }
        : { key, row: null, column: key === 'file' ? t('orders.wholeFile') : t(`orders.${key}`), messages };
    })
    .sort((a, b) => (a.row ?? 0) - (b.row ?? 0));
}

/**
 * Bulk ID-card mapping by template: download, upload the filled template or a .zip of
 * it with its images, and see either the counts or every row's errors (nothing is
 * written when any row is wrong). Agents may not add ID cards, so they do not see it.
 */
export function IdCardImport({ onDone }: { onDone: () => void }) {
  const { user } = useSession();
  const isCustomer = !!user?.customer;
  const isAgent = !!user?.roles.includes('agent');
  const [open, setOpen] = useState(false);
  const [customerId, setCustomerId] = useState<number>();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const [problems, setProblems] = useState<Problem[] | null>(null);
  /** The refused upload's workbook of failed rows (only its uploader and operators can fetch it). */
  const [errorFileId, setErrorFileId] = useState<number | null>(null);
  if (isAgent) return null;

  const send = async (file: File) => {
    setBusy(true);
    setResult(null);
    setProblems(null);
    setErrorFileId(null);
    try {
      setResult(await importIdCards(file, isCustomer ? undefined : customerId));
      onDone();
    } catch (e) {
      if (e instanceof ApiError && Object.keys(e.fieldErrors).length) {
        setProblems(problemsOf(e.fieldErrors));
        const id = Number(e.fieldErrors[orders.ID_CARD_IMPORT_ERRORS_KEY]?.[0]);
        setErrorFileId(Number.isInteger(id) && id > 0 ? id : null);
      } else void reportError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="id-card-bulk">
        {t('orders.bulkImport')}
      </Button>
      <Modal open={open} title={t('orders.bulkImport')} width={720} footer={null} onCancel={() => setOpen(false)}>
        <Space direction="vertical" style={{ width: '100%' }}>
          <Typography.Paragraph type="secondary">{t('orders.bulkImportHint')}</Typography.Paragraph>
          <Space wrap>
            {!isCustomer && (
              <CustomerSelect
                enabled={open && !!user && !isCustomer}
                style={{ width: 240 }}
                placeholder={t('orders.selectCustomer')}
                value={customerId}
                onChange={setCustomerId}
              />
            )}
            <Button onClick={idCardTemplate}>{t('orders.template')}</Button>
            <Upload accept=".xlsx,.zip" showUploadList={false} beforeUpload={(f) => (void send(f), false)}>
              <Button type="primary" loading={busy} disabled={!isCustomer && !customerId}>
                {t('orders.bulkUpload')}
              </Button>
            </Upload>
          </Space>
          {result && <Alert type="success" showIcon message={t('orders.bulkDone', result)} />}
          {problems && (
            <>
              <Alert
                type="error"
                showIcon
                message={t('orders.bulkFailed')}
                action={
                  errorFileId !== null && (
                    <Button
                      size="small"
                      // A failure was already shown by the client; nothing more to do here.
                      onClick={() => void downloadIdCardImportErrors(errorFileId).catch(() => undefined)}
                      data-testid="id-card-bulk-errors"
                    >
                      {t('orders.bulkErrorsDownload')}
                    </Button>
                  )
                }
              />
              <Table
                rowKey="key"
                size="small"
                pagination={{ pageSize: 20, hideOnSinglePage: true }}
                dataSource={problems}
                columns={[
                  { title: t('orders.row'), dataIndex: 'row', width: 70, render: (r: number | null) => r ?? '—' },
                  { title: t('orders.column'), dataIndex: 'column', width: 140 },
                  { title: t('orders.problem'), render: (_, p) => p.messages.join(' ') },
                ]}
              />
            </>
          )}
        </Space>
      </Modal>
    </>
  );
}

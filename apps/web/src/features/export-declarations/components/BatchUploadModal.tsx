import { Alert, App, Button, Modal, Space, Table, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { errorText, t } from '@/lib';
import { XlsxPicker } from '@/components/XlsxPicker.tsx';
import {
  declarationRunEnded,
  downloadDeclarationErrors,
  type Layout,
  uploadDeclarations,
} from '../api/exportDeclarations.ts';

type Preview = Awaited<ReturnType<typeof uploadDeclarations>>;
type PreviewRow = Preview['rows'][number];

/**
 * Declarations from an xlsx (either template): the file is checked first (preview, the bad rows
 * and their error workbook), and imported only when every row is correct, all in one go.
 */
export function BatchUploadModal(props: { layout: Layout | null; onClose: (imported: boolean) => void }) {
  const { message } = App.useApp();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const label = (k: string, p?: Record<string, string | number>) => t(`exportDeclarations.${k}`, p);
  const open = useRef(true);
  useEffect(() => {
    open.current = props.layout !== null;
  }, [props.layout]);
  const close = (imported: boolean) => {
    setFile(null);
    setPreview(null);
    setError(null);
    props.onClose(imported);
  };
  const run = async (commit: boolean) => {
    if (!file || !props.layout) return;
    setBusy(true);
    setError(null);
    try {
      const r = await uploadDeclarations(props.layout, file, commit);
      if (commit) {
        // The rows are written by a run on the server's job queue: the dialog waits for its end.
        if (r.runId !== null && !(await declarationRunEnded(r.runId, () => open.current))) return;
        void message.success(label('imported', { count: r.total }));
        close(true);
      } else setPreview(r);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  const bad = preview ? preview.total - preview.valid : 0;
  return (
    <Modal
      open={props.layout !== null}
      title={label(props.layout === 'waybillNo' ? 'upload2' : 'upload')}
      width={760}
      onCancel={() => close(false)}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={() => close(false)}>{label('cancel')}</Button>
          <Button
            disabled={!file || busy}
            loading={busy && !preview}
            onClick={() => void run(false)}
            data-testid="decl-batch-preview"
          >
            {label('preview')}
          </Button>
          <Button
            type="primary"
            disabled={!preview || bad > 0 || busy}
            loading={busy && !!preview}
            onClick={() => void run(true)}
            data-testid="decl-batch-confirm"
          >
            {label('confirm')}
          </Button>
        </Space>
      }
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{label('uploadHint')}</Typography.Text>
        <XlsxPicker
          testId="decl-batch-file"
          file={file}
          onWrongType={() => setError(label('onlyXlsx'))}
          onPick={(f) => (setError(null), setPreview(null), setFile(f))}
          onRemove={() => (setFile(null), setPreview(null))}
        >
          {label('chooseFile')}
        </XlsxPicker>
        {error && <Alert type="error" showIcon message={error} data-testid="decl-batch-error" />}
        {preview && (
          <div data-testid="decl-batch-result">
            <Typography.Paragraph>
              {label('rowsOk', { total: preview.total, valid: preview.valid })}
            </Typography.Paragraph>
            {bad > 0 && (
              <Alert
                type="warning"
                showIcon
                message={label('hasErrors')}
                action={
                  preview.errorFileId !== null && (
                    <Button
                      size="small"
                      onClick={() => void downloadDeclarationErrors(preview.errorFileId!)}
                      data-testid="decl-batch-errors"
                    >
                      {label('downloadErrors')}
                    </Button>
                  )
                }
              />
            )}
            <Table<PreviewRow>
              size="small"
              rowKey="row"
              pagination={{ pageSize: 10 }}
              dataSource={preview.rows}
              columns={[
                { key: 'row', title: label('row'), dataIndex: 'row', width: 60 },
                { key: 'key', title: label('key'), dataIndex: 'key' },
                { key: 'productName', title: label('productName'), dataIndex: 'productName' },
                { key: 'amountJpy', title: label('amountJpy'), dataIndex: 'amountJpy' },
                {
                  key: 'error',
                  title: label('error'),
                  render: (_: unknown, r: PreviewRow) => <Typography.Text type="danger">{r.error}</Typography.Text>,
                },
              ]}
            />
          </div>
        )}
      </Space>
    </Modal>
  );
}

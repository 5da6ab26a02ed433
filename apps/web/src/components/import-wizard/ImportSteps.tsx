import { type batches } from '@console/contract';
import { Progress, Table, Typography, Upload } from 'antd';
import type { ReactNode } from 'react';
import { t } from '@/lib';

/** A row the server refused: the batch's and the item import's issues have the same fields. */
type ImportIssue = batches.BatchProgress['errors'][number];

/** The upload step: one .xlsx dropped or chosen, handed to the page (`useImportJob().upload`), never listed. */
export function ImportDrop({
  onFile,
  disabled,
  testId,
  children,
}: {
  onFile: (file: File) => Promise<boolean>;
  disabled?: boolean;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Upload.Dragger
      accept=".xlsx"
      maxCount={1}
      multiple={false}
      showUploadList={false}
      beforeUpload={onFile}
      disabled={disabled}
      data-testid={testId}
    >
      <p>{children}</p>
    </Upload.Dragger>
  );
}

/** The progress step: what the server is doing, and how far. */
export function ImportProgress({
  testId,
  percent,
  children,
}: {
  testId: string;
  percent: number;
  children: ReactNode;
}) {
  return (
    <div data-testid={testId}>
      <Typography.Text>{children}</Typography.Text>
      <Progress percent={percent} />
    </div>
  );
}

/**
 * The preview's refused rows: how many, the first ones the server listed (the error workbook has
 * them all) with row, column and why. Labels under `<i18n>.`: errorsTitle, errorsFirst, row,
 * column, message; test ids `<testId>-title` and `<testId>-table`.
 */
export function ImportErrors({
  i18n,
  job: { errors, invalidRows },
  pageSize,
  columnWidth,
  testId,
}: {
  i18n: string;
  job: { errors: ImportIssue[]; invalidRows: number };
  pageSize: number;
  columnWidth: number;
  testId: string;
}) {
  if (errors.length === 0) return null;
  const listedRows = new Set(errors.map((e) => e.row)).size;
  return (
    <>
      <Typography.Text strong data-testid={`${testId}-title`}>
        {t(`${i18n}.errorsTitle`, { rows: invalidRows })}
        {listedRows < invalidRows && ` ${t(`${i18n}.errorsFirst`, { listed: listedRows })}`}
      </Typography.Text>
      <Table
        size="small"
        rowKey={(r) => `${r.row}-${r.column}-${r.message}`}
        dataSource={errors}
        pagination={{ pageSize }}
        data-testid={`${testId}-table`}
        columns={[
          { title: t(`${i18n}.row`), dataIndex: 'row', width: 70 },
          {
            title: t(`${i18n}.column`),
            render: (_, r) => (r.column ? `${r.column} ${r.columnTitle ?? ''}` : ''),
            width: columnWidth,
          },
          { title: t(`${i18n}.message`), dataIndex: 'message' },
        ]}
      />
    </>
  );
}

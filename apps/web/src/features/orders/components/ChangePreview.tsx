import { orders } from '@console/contract';
import { Alert, App, Button, Space, Table, Tag, Typography, Upload } from 'antd';
import { Form } from '@/components/form.tsx';
import { useState } from 'react';
import { CustomerSelect as CustomerPicker } from '@/components/CustomerSelect.tsx';
import { attempt } from '@/components/mutation.ts';
import { PAGE_SIZES } from '@/components/paged-table';
import { errorText, invalidateCall, t, useSession } from '@/lib';
import { applyPreview, type ChangeKind, downloadRefused, downloadTemplate, previewSheet } from '../api/changes.ts';

type BulkPreview = orders.BulkPreview;
type Row = BulkPreview['rows'][number];
const show = (v: string | null) =>
  v === null || v === '' ? <Typography.Text type="secondary">{t('orderPages.empty')}</Typography.Text> : v;

/** Agents and operators may name the customer (order numbers are unique per customer only). */
export function CustomerSelect({ value, onChange }: { value?: number; onChange: (v?: number) => void }) {
  const { user } = useSession();
  const isCustomer = !!user?.customer;
  if (isCustomer) return null;
  return (
    <Form.Item label={t('orderPages.customer')} extra={t('orderPages.customerHint')}>
      <CustomerPicker
        enabled={!!user && !isCustomer}
        allowClear
        style={{ width: 260 }}
        value={value}
        onChange={(v) => onChange(v ?? undefined)}
        data-testid="change-customer"
      />
    </Form.Item>
  );
}

/** Template download and the sheet upload that makes a preview. */
export function SheetUpload({
  kind,
  customerId,
  hint,
  onPreview,
}: {
  kind: ChangeKind;
  customerId?: number;
  hint: string;
  onPreview: (p: BulkPreview) => void;
}) {
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  return (
    <Space direction="vertical">
      <Space>
        <Button onClick={() => attempt(message, () => downloadTemplate(kind))} data-testid="change-template">
          {t('orderPages.template')}
        </Button>
        <Upload
          accept=".xlsx"
          maxCount={1}
          showUploadList={false}
          beforeUpload={(file) => {
            setBusy(true);
            previewSheet(kind, file, customerId)
              .then(onPreview, (e: unknown) => message.error(errorText(e)))
              .finally(() => setBusy(false));
            return false;
          }}
        >
          <Button type="primary" loading={busy} data-testid="change-upload">
            {t('orderPages.uploadSheet')}
          </Button>
        </Upload>
      </Space>
      <Typography.Text type="secondary">{hint}</Typography.Text>
    </Space>
  );
}

/**
 * A preview of changes to many orders: every order with its old and new value per field, or
 * why it will not change; then one apply of all of them (the server writes all or none).
 */
export function ChangePreview({
  kind,
  preview,
  onApplied,
}: {
  kind: ChangeKind;
  preview: BulkPreview;
  onApplied: () => void;
}) {
  const { message, modal } = App.useApp();
  const [applying, setApplying] = useState(false);
  const apply = () =>
    modal.confirm({
      title: t('orderPages.apply', { count: preview.changing }),
      content: t('orderPages.applyConfirm', { count: preview.changing }),
      okText: t('orders.continue'),
      cancelText: t('orders.cancel'),
      onOk: async () => {
        setApplying(true);
        const r = await attempt(message, () => applyPreview(kind, preview.previewId!));
        setApplying(false);
        if (!r) return;
        message.success(t('orderPages.applied', { count: r.updated }));
        await Promise.all([invalidateCall(orders.orderList), invalidateCall(orders.order)]);
        onApplied();
      },
    });
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="change-preview">
      <Alert
        type={preview.refused ? 'warning' : 'info'}
        showIcon
        message={t('orderPages.summary', {
          changing: preview.changing,
          unchanged: preview.unchanged,
          refused: preview.refused,
        })}
        data-testid="change-summary"
      />
      <Space>
        <Button
          type="primary"
          disabled={!preview.previewId}
          loading={applying}
          onClick={apply}
          data-testid="change-apply"
        >
          {preview.previewId ? t('orderPages.apply', { count: preview.changing }) : t('orderPages.nothingToApply')}
        </Button>
        {preview.errorFileId !== null && (
          <Button
            onClick={() => attempt(message, () => downloadRefused(kind, preview.errorFileId!))}
            data-testid="change-refused"
          >
            {t('orderPages.downloadRefused')}
          </Button>
        )}
      </Space>
      <Table<Row>
        size="small"
        rowKey={(r) => `${r.row ?? ''}-${r.orderNo}-${r.orderId ?? ''}`}
        dataSource={preview.rows}
        // The rows are all here (the preview is one answer): antd pages them itself, with the sizes of every list.
        pagination={{ defaultPageSize: 20, showSizeChanger: true, pageSizeOptions: PAGE_SIZES.map(String) }}
        data-testid="change-rows"
        scroll={{ x: 'max-content' }}
        onRow={(r) => ({ 'data-order': r.orderNo, 'data-refused': r.refusal ? 'yes' : 'no' }) as never}
        columns={[
          ...(preview.rows.some((r) => r.row !== null)
            ? [{ key: 'row', title: t('orderPages.row'), dataIndex: 'row' }]
            : []),
          { key: 'orderNo', title: t('orders.orderNo'), dataIndex: 'orderNo' },
          { key: 'customer', title: t('orders.customer'), dataIndex: 'customerCode' },
          {
            key: 'status',
            title: t('orders.status'),
            render: (_: unknown, r: Row) => (r.status ? t(`orders.kinds.${r.status}`) : ''),
          },
          {
            key: 'changes',
            title: `${t('orderPages.field')}: ${t('orderPages.oldValue')} → ${t('orderPages.newValue')}`,
            render: (_: unknown, r: Row) => (
              <Space direction="vertical" size={0}>
                {r.changes.map((c) => (
                  <span key={c.field} data-field={c.field}>
                    {t(`orderPages.fields.${c.field}`)}: <del>{show(c.old)}</del> → <strong>{show(c.new)}</strong>
                  </span>
                ))}
              </Space>
            ),
          },
          {
            key: 'result',
            title: t('orderPages.result'),
            render: (_: unknown, r: Row) =>
              r.refusal ? (
                <Typography.Text type="danger" data-testid="change-refusal">
                  {r.refusal}
                </Typography.Text>
              ) : r.changes.length ? (
                <Tag color="blue">{t('orderPages.willChange')}</Tag>
              ) : (
                <Tag>{t('orderPages.unchanged')}</Tag>
              ),
          },
        ]}
      />
    </Space>
  );
}

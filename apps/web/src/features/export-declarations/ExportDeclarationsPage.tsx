import { exportDeclarations as D } from '@console/contract';
import { Alert, App, Button, Input, Space, Tag, Tooltip, Typography, Upload, type TableColumnsType } from 'antd';
import { Form } from '@/components/form.tsx';
import { useState } from 'react';
import { FilterBar, PagedTable, rangeToDates, usePagedQuery } from '@/components/paged-table';
import { ApiError, errorText, formatTime, hasRoute, invalidateCall, t, useI18n, useSession } from '@/lib';
import {
  declarationListCall,
  type DeclarationFilters,
  downloadDeclarations,
  downloadPermit,
  type Layout,
  saveDeclaration,
  uploadPermit,
} from './api/exportDeclarations.ts';
import { BatchUploadModal } from './components/BatchUploadModal.tsx';
import './i18n.ts';
import { permitMailProblem, sentences } from './permit-mail.ts';
import { CopyNumber } from '@/components/CopyNumber.tsx';

type Row = D.ExportDeclarationRow;
type Filters = Omit<D.ExportDeclarationListRequest, 'offset' | 'limit' | 'order' | 'sort'>;
const SORTABLE = new Set(['orderCreatedAt', 'goodsJpy', 'updatedAt']);

/**
 * Japanese export declaration (menu route order.exportDeclarations): the caller's orders that
 * need or have a declaration, paged on the server; product name and amount edited in the row
 * (both or neither), or from a workbook (two templates); the declaration and customs downloads;
 * the export permit (operators upload it, the order's owner, agent and operators download it).
 */
export default function ExportDeclarationsPage() {
  useI18n();
  const { message } = App.useApp();
  const { user } = useSession();
  const isCustomer = !!user?.customer;
  const canUploadPermit = hasRoute('order.exportDeclarations.uploadPermit');
  const paged = usePagedQuery<typeof declarationListCall, Filters>(declarationListCall, { sort: 'orderCreatedAt' });
  const [editing, setEditing] = useState<{ orderId: number; productName: string; amountJpy: string } | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const [saving, setSaving] = useState(false);
  const [batch, setBatch] = useState<Layout | null>(null);
  const label = (k: string, p?: Record<string, string | number>) => t(`exportDeclarations.${k}`, p);
  const refresh = () => void invalidateCall(declarationListCall);
  const filters: DeclarationFilters = paged.state.filters as DeclarationFilters;

  const onSearch = (v: Record<string, any>) => {
    refresh();
    paged.setFilters({
      batchNo: v.batchNo?.trim() || undefined,
      orderNos: v.orderNos?.trim() || undefined,
      declared: v.declared,
      ...rangeToDates(v.range),
    });
  };

  const save = async () => {
    if (!editing) return;
    setSaving(true);
    try {
      const r = await saveDeclaration(editing.orderId, editing.productName, editing.amountJpy);
      void message.success(label(r.declared ? 'saved' : 'cleared'));
      setEditing(null);
      setFieldErrors({});
      refresh();
    } catch (e) {
      if (e instanceof ApiError && Object.keys(e.fieldErrors).length) setFieldErrors(e.fieldErrors);
      else void message.error(errorText(e));
    } finally {
      setSaving(false);
    }
  };

  const permitUpload = async (orderId: number, file: File) => {
    try {
      const r = await uploadPermit(orderId, file);
      const note = label(`mail_${r.mail}`);
      // Queued: a worker on the server sends it; the row's tag then says sent or failed.
      if (r.mail === 'sent' || r.mail === 'queued') void message.success(`${label('permitUploaded')}: ${note}`);
      else void message.warning(`${label('permitUploaded')}: ${note}`);
      refresh();
    } catch (e) {
      void message.error(errorText(e));
    }
  };

  const fieldError = (k: string) =>
    fieldErrors[k]?.length ? (
      <Typography.Text type="danger" style={{ display: 'block', fontSize: 12 }} data-testid={`decl-error-${k}`}>
        {fieldErrors[k]!.join(' ')}
      </Typography.Text>
    ) : null;

  const col = (k: keyof Row | 'customer', render: (r: Row) => React.ReactNode) => ({
    key: k,
    title: label(k === 'customerCode' ? 'customer' : k),
    sorter: SORTABLE.has(k),
    render: (_: unknown, r: Row) => render(r),
  });
  const isEditing = (r: Row) => editing?.orderId === r.orderId;
  const columns: TableColumnsType<Row> = [
    col('orderNo', (r) => <CopyNumber value={r.orderNo} />),
    col('waybillNo', (r) => <CopyNumber value={r.waybillNo} />),
    ...(isCustomer ? [] : [col('customerCode', (r) => r.customerCode)]),
    col('batchNo', (r) => r.batchNo),
    col('goodsJpy', (r) => (
      <Space size={4}>
        {Number(r.goodsJpy).toLocaleString('en-US')}
        {r.required && <Tag color="orange">{label('required')}</Tag>}
      </Space>
    )),
    col('exporter', (r) =>
      r.exporter ? (
        <span>
          {r.exporter.nameEn || r.exporter.nameJa}
          <br />
          <Typography.Text type="secondary">{r.exporter.corporateNumber}</Typography.Text>
        </span>
      ) : null,
    ),
    col('productName', (r) =>
      isEditing(r) ? (
        <>
          <Input
            size="small"
            maxLength={200}
            value={editing!.productName}
            onChange={(e) => setEditing({ ...editing!, productName: e.target.value })}
            data-testid="decl-edit-name"
          />
          {fieldError('productName')}
        </>
      ) : (
        r.productName
      ),
    ),
    col('amountJpy', (r) =>
      isEditing(r) ? (
        <>
          <Input
            size="small"
            inputMode="numeric"
            maxLength={12}
            value={editing!.amountJpy}
            onChange={(e) => setEditing({ ...editing!, amountJpy: e.target.value })}
            onPressEnter={() => void save()}
            data-testid="decl-edit-amount"
          />
          {fieldError('amountJpy')}
        </>
      ) : r.amountJpy === null ? null : (
        Number(r.amountJpy).toLocaleString('en-US')
      ),
    ),
    col('declared', (r) => <Tag color={r.declared ? 'green' : 'default'}>{label(r.declared ? 'yes' : 'no')}</Tag>),
    col('permit', (r) =>
      r.permit ? (
        <Space direction="vertical" size={0}>
          <span>{formatTime(r.permit.uploadedAt)}</span>
          {r.permit.emailedAt && <Tag color="blue">{label('emailed')}</Tag>}
          {mailProblem(r.permit)}
        </Space>
      ) : (
        <Typography.Text type="secondary">{label('noPermit')}</Typography.Text>
      ),
    ),
    col('orderCreatedAt', (r) => formatTime(r.orderCreatedAt)),
    {
      key: 'actions',
      title: label('actions'),
      fixed: 'right' as const,
      render: (_: unknown, r: Row) =>
        isEditing(r) ? (
          <Space size="small">
            <Button size="small" type="link" loading={saving} onClick={() => void save()} data-testid="decl-save">
              {label('save')}
            </Button>
            <Button size="small" type="link" onClick={() => (setEditing(null), setFieldErrors({}))}>
              {label('cancel')}
            </Button>
          </Space>
        ) : (
          <Space size="small">
            <Button
              size="small"
              type="link"
              onClick={() => {
                setFieldErrors({});
                setEditing({ orderId: r.orderId, productName: r.productName ?? '', amountJpy: r.amountJpy ?? '' });
              }}
              data-testid="decl-edit"
            >
              {label('edit')}
            </Button>
            {canUploadPermit && r.declared && (
              <Upload
                accept="application/pdf,.pdf"
                showUploadList={false}
                beforeUpload={(f) => {
                  if (!/\.pdf$/i.test(f.name)) {
                    void message.error(label('onlyPdf'));
                    return Upload.LIST_IGNORE;
                  }
                  void permitUpload(r.orderId, f);
                  return false;
                }}
              >
                <Button size="small" type="link" data-testid="decl-permit-upload">
                  {label('uploadPermit')}
                </Button>
              </Upload>
            )}
            {r.permit && (
              <Button
                size="small"
                type="link"
                onClick={() => void downloadPermit(r.orderId)}
                data-testid="decl-permit-download"
              >
                {label('downloadPermit')}
              </Button>
            )}
          </Space>
        ),
    },
  ];

  /** A mail that did not go: its tag (the reference in its tooltip), why and what to do under it. */
  const mailProblem = (permit: Row['permit']) => {
    const p = permitMailProblem(permit);
    if (!p) return null;
    return (
      <>
        <Tooltip title={sentences(p.reason, p.next, p.reference)}>
          <Tag color={p.color} data-testid="decl-mail-error">
            {p.tag}
          </Tag>
        </Tooltip>
        <Typography.Text
          type="secondary"
          style={{ display: 'block', fontSize: 12, maxWidth: 260 }}
          data-testid="decl-mail-reason"
        >
          {sentences(p.reason, p.next)}
        </Typography.Text>
      </>
    );
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Typography.Text type="secondary">{label('intro')}</Typography.Text>
      {paged.data && !paged.data.mailConfigured && (
        <Alert type="info" showIcon message={label('mailOff')} data-testid="decl-mail-off" />
      )}
      <FilterBar filters={paged.filters} i18n="exportDeclarations" onSearch={onSearch} searchTestId="decl-search">
        <FilterBar.Text name="batchNo" width={180} maxLength={64} />
        <Form.Item name="orderNos" label={label('orderNos')}>
          <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} style={{ width: 220 }} data-testid="decl-filter-nos" />
        </Form.Item>
        <FilterBar.Enum name="declared" width={140} values={['yes', 'no']} i18n="exportDeclarations" />
        <FilterBar.DateRange />
      </FilterBar>
      <Space wrap>
        <Button onClick={() => void downloadDeclarations('orderNo', filters)} data-testid="decl-download">
          {label('download')}
        </Button>
        <Button onClick={() => void downloadDeclarations('waybillNo', filters)} data-testid="decl-download2">
          {label('download2')}
        </Button>
        <Button onClick={() => void downloadDeclarations('customs', filters)} data-testid="decl-download-customs">
          {label('downloadCustoms')}
        </Button>
        <Button onClick={() => setBatch('orderNo')} data-testid="decl-upload">
          {label('upload')}
        </Button>
        <Button onClick={() => setBatch('waybillNo')} data-testid="decl-upload2">
          {label('upload2')}
        </Button>
      </Space>
      <PagedTable<Row>
        rowKey="orderId"
        size="small"
        paged={paged}
        columns={columns}
        scroll={{ x: 'max-content' }}
        data-testid="decl-table"
        onRow={(r) => ({ 'data-order-no': r.orderNo }) as never}
      />
      <BatchUploadModal
        layout={batch}
        onClose={(imported) => {
          setBatch(null);
          if (imported) refresh();
        }}
      />
    </Space>
  );
}

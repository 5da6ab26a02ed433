import { admin, type CallResponse } from '@console/contract';
import { Button, DatePicker, Input, Select, Space, type TableColumnsType } from 'antd';
import { Form } from '@/components/form.tsx';
import type { Dayjs } from 'dayjs';
import { PagedTable, rangeToDates, useFilterForm, usePagedQuery } from '@/components/paged-table';
import { formatTime, t, useI18n } from '@/lib';
import { auditCall } from './api/admin.ts';
import { auditActionOptions, auditActionText, auditDetailText } from './audit-words.ts';
import './i18n.ts';

type Row = CallResponse<typeof admin.auditList>['list'][number];
type Filters = { userName?: string; action?: string; target?: string; dateFrom?: string; dateTo?: string };

/** System → Audit Log (issue 17): who changed what, and who read what is sensitive. */
export default function AuditPage() {
  useI18n();
  const [form] = Form.useForm();
  const paged = usePagedQuery<typeof auditCall, Filters>(auditCall);
  useFilterForm(form, paged.filters);
  const columns: TableColumnsType<Row> = [
    { title: t('admin.at'), dataIndex: 'at', render: (v: string) => formatTime(v) },
    { title: t('admin.who'), dataIndex: 'userName' },
    { title: t('admin.action'), dataIndex: 'action', render: (v: string) => auditActionText(v) },
    { title: t('admin.target'), dataIndex: 'target' },
    {
      title: t('admin.detail'),
      dataIndex: 'detail',
      ellipsis: { showTitle: false },
      // The whole detail on hover, in words too: the cell is cut at the column's width.
      render: (v: string) => <span title={auditDetailText(v)}>{auditDetailText(v)}</span>,
    },
    { title: t('admin.ip'), dataIndex: 'ip' },
  ];
  const search = (v: { userName?: string; action?: string; target?: string; range?: [Dayjs, Dayjs] | null }) =>
    paged.setFilters({
      userName: v.userName?.trim() || undefined,
      action: v.action?.trim() || undefined,
      target: v.target?.trim() || undefined,
      ...rangeToDates(v.range),
    });
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="admin-audit">
      <Form form={form} layout="inline" onFinish={search}>
        <Form.Item name="userName" label={t('admin.who')}>
          <Input allowClear style={{ width: 140 }} />
        </Form.Item>
        <Form.Item name="action" label={t('admin.action')}>
          <Select
            allowClear
            showSearch
            optionFilterProp="label"
            style={{ width: 220 }}
            options={auditActionOptions(admin.auditActions)}
          />
        </Form.Item>
        <Form.Item name="target" label={t('admin.target')}>
          <Input allowClear style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name="range" label={t('admin.dates')}>
          <DatePicker.RangePicker />
        </Form.Item>
        <Button type="primary" htmlType="submit">
          {t('admin.search')}
        </Button>
      </Form>
      <PagedTable<Row> rowKey="id" size="small" paged={paged} columns={columns} />
    </Space>
  );
}

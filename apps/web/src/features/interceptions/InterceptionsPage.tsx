import { interceptions, reference } from '@console/contract';
import { Alert, App, Button, Input, List, Modal, Select, Space, Tag, Typography, type TableColumnsType } from 'antd';
import { Form, showSaveError, validateForSubmit } from '@/components/form.tsx';
import { useState } from 'react';
import { FilterBar, PagedTable, rangeToDates, usePagedQuery } from '@/components/paged-table';
import { formatTime, invalidateCall, localized, t, useCall, useI18n, useSession } from '@/lib';
import { cancelInterception, createInterception, interceptionsCall } from './api/interceptions.ts';
import './i18n.ts';
import { CopyNumber } from '@/components/CopyNumber.tsx';

type Row = interceptions.InterceptionRow;
type Filters = Omit<interceptions.InterceptionListRequest, 'offset' | 'limit' | 'order' | 'sort'>;
type Results = interceptions.CreateInterceptionResponse;

/** The number kinds an interception takes: the server's noTypes list (issue 28 #17), less batch numbers. */
const NO_TYPES: readonly string[] = interceptions.interceptNoType.options;
const SORTABLE = new Set(['createdAt', 'orderNo', 'cancelledAt']);
const OUTCOME_COLOR = { intercepted: 'green', notFound: 'default', refused: 'orange' } as const;

/**
 * Order interception (spec §2 "interceptions list and create"): the interceptions of the
 * caller's orders with server-side filters, sort and paging; orders are intercepted from a
 * form (one kind of number, several numbers, a reason), each number answered; an active
 * interception is cancelled after confirming, with a reason.
 */
export default function InterceptionsPage() {
  useI18n();
  const { message } = App.useApp();
  const [createForm] = Form.useForm();
  const noTypes = useCall(reference.noTypes, {});
  const [cancelForm] = Form.useForm();
  const { user } = useSession();
  const isCustomer = !!user?.customer;
  const paged = usePagedQuery<typeof interceptionsCall, Filters>(interceptionsCall, { sort: 'createdAt' });
  const [creating, setCreating] = useState(false);
  const [results, setResults] = useState<Results | null>(null);
  const [cancelling, setCancelling] = useState<Row | null>(null);
  const [busy, setBusy] = useState(false);

  const refresh = () => invalidateCall(interceptions.interceptionList);
  const onSearch = (v: Record<string, any>) => {
    void refresh();
    paged.setFilters({
      number: v.number?.trim() || undefined,
      status: v.status,
      customerId: v.customerId,
      ...rangeToDates(v.range),
    });
  };

  const submitCreate = async () => {
    const v = await validateForSubmit(createForm);
    setBusy(true);
    try {
      const r = await createInterception({ noType: v.noType, numbers: v.numbers, reason: v.reason.trim() });
      setResults(r);
      await refresh();
    } catch (e) {
      showSaveError(createForm, e);
    } finally {
      setBusy(false);
    }
  };
  const submitCancel = async () => {
    const { cancelReason } = await validateForSubmit(cancelForm);
    setBusy(true);
    try {
      await cancelInterception(cancelling!.id, cancelReason.trim());
      message.success(t('interceptions.cancelled'));
      setCancelling(null);
      await refresh();
    } catch (e) {
      showSaveError(cancelForm, e);
    } finally {
      setBusy(false);
    }
  };

  const keys = [
    'orderNo',
    'waybillNo',
    ...(isCustomer ? [] : ['customerCode']),
    'noType',
    'number',
    'status',
    'orderStatus',
    'reason',
    'createdBy',
    'createdAt',
    'cancelReason',
    'cancelledBy',
    'cancelledAt',
  ];
  const cell = (k: string, r: Row): React.ReactNode => {
    switch (k) {
      case 'status':
        return (
          <Tag color={r.status === 'active' ? 'red' : 'default'} data-testid="interception-status">
            {t(`interceptions.statuses.${r.status}`)}
          </Tag>
        );
      case 'noType':
        return t(`interceptions.noTypes.${r.noType}`);
      case 'orderStatus':
        return r.orderStatus ? t(`interceptions.orderStatuses.${r.orderStatus}`) : '';
      case 'orderNo':
      case 'waybillNo':
        return <CopyNumber value={r[k]} />;
      case 'createdAt':
      case 'cancelledAt':
        return r[k] ? formatTime(r[k]) : '';
      default:
        return (r as any)[k] as React.ReactNode;
    }
  };
  const columns: TableColumnsType<Row> = [
    ...keys.map((k) => ({
      key: k,
      title: t(`interceptions.${k === 'customerCode' ? 'customer' : k === 'number' ? 'numbers' : k}`),
      sorter: SORTABLE.has(k),
      render: (_: unknown, r: Row) => cell(k, r),
    })),
    {
      key: 'actions',
      title: t('interceptions.actions'),
      fixed: 'right' as const,
      render: (_: unknown, r: Row) =>
        r.status === 'active' ? (
          <Button
            size="small"
            type="link"
            danger
            onClick={() => (cancelForm.resetFields(), setCancelling(r))}
            data-testid="interception-cancel"
          >
            {t('interceptions.cancel')}
          </Button>
        ) : null,
    },
  ];

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <FilterBar
        filters={paged.filters}
        i18n="interceptions"
        onSearch={onSearch}
        searchTestId="interception-search"
        extra={
          <Button
            onClick={() => (createForm.resetFields(), setResults(null), setCreating(true))}
            data-testid="interception-create"
          >
            {t('interceptions.create')}
          </Button>
        }
      >
        <FilterBar.Text
          name="number"
          width={200}
          maxLength={64}
          placeholder={t('interceptions.numberHint')}
          data-testid="interception-filter-number"
        />
        <FilterBar.Enum
          name="status"
          width={130}
          values={interceptions.interceptionStatus.options}
          i18n="interceptions.statuses"
          data-testid="interception-filter-status"
        />
        <FilterBar.Customer />
        <FilterBar.DateRange />
      </FilterBar>
      <PagedTable<Row>
        rowKey="id"
        size="small"
        paged={paged}
        columns={columns}
        scroll={{ x: 'max-content' }}
        data-testid="interception-table"
        onRow={(r) => ({ 'data-order-no': r.orderNo }) as never}
      />

      <Modal
        open={creating}
        title={t('interceptions.createTitle')}
        onCancel={() => setCreating(false)}
        onOk={results ? () => setCreating(false) : submitCreate}
        okText={results ? t('interceptions.close') : t('interceptions.submit')}
        okButtonProps={{ loading: busy, 'data-testid': 'interception-submit' } as never}
        cancelButtonProps={{ style: results ? { display: 'none' } : undefined }}
        destroyOnHidden
      >
        {results ? (
          <div data-testid="interception-results">
            <Typography.Paragraph strong>
              {t('interceptions.resultSummary', { count: results.intercepted })}
            </Typography.Paragraph>
            <List
              size="small"
              dataSource={results.results}
              renderItem={(r) => (
                <List.Item>
                  <Space wrap>
                    <Tag color={OUTCOME_COLOR[r.outcome]}>{t(`interceptions.outcomes.${r.outcome}`)}</Tag>
                    <span>{r.number}</span>
                    {r.orderNo && r.orderNo !== r.number && (
                      <Typography.Text type="secondary">{r.orderNo}</Typography.Text>
                    )}
                    {r.message && <Typography.Text type="secondary">{r.message}</Typography.Text>}
                  </Space>
                </List.Item>
              )}
            />
          </div>
        ) : (
          <Form form={createForm} layout="vertical" initialValues={{ noType: 'waybillNo' }}>
            <Form.Item name="noType" label={t('interceptions.noType')} rules={[{ required: true }]}>
              <Select
                loading={noTypes.isLoading}
                options={(noTypes.data ?? [])
                  .filter((k) => NO_TYPES.includes(k.code))
                  .map((k) => ({ value: k.code, label: localized(k.name) }))}
                data-testid="interception-no-type"
              />
            </Form.Item>
            <Form.Item
              name="numbers"
              label={t('interceptions.numbers')}
              extra={t('interceptions.numbersHint')}
              rules={[{ required: true, whitespace: true, message: t('interceptions.numbersRequired') }]}
            >
              <Input.TextArea rows={4} autoFocus data-testid="interception-numbers" />
            </Form.Item>
            <Form.Item
              name="reason"
              label={t('interceptions.reason')}
              rules={[{ required: true, whitespace: true, message: t('interceptions.reasonRequired') }]}
            >
              <Input
                maxLength={200}
                showCount
                onPressEnter={() => void submitCreate()}
                data-testid="interception-reason"
              />
            </Form.Item>
          </Form>
        )}
      </Modal>

      <Modal
        open={cancelling !== null}
        title={t('interceptions.cancelTitle', { orderNo: cancelling?.orderNo ?? '' })}
        onCancel={() => setCancelling(null)}
        onOk={submitCancel}
        okText={t('interceptions.cancel')}
        okButtonProps={{ danger: true, loading: busy, 'data-testid': 'interception-cancel-confirm' } as never}
        destroyOnHidden
      >
        <Alert type="warning" showIcon message={t('interceptions.cancelWarning')} description={cancelling?.reason} />
        <Form form={cancelForm} layout="vertical" style={{ marginTop: 12 }} onFinish={submitCancel}>
          <Form.Item
            name="cancelReason"
            label={t('interceptions.cancelReason')}
            rules={[{ required: true, whitespace: true, message: t('interceptions.cancelReasonRequired') }]}
          >
            <Input.TextArea rows={3} maxLength={200} showCount autoFocus data-testid="interception-cancel-reason" />
          </Form.Item>
        </Form>
      </Modal>
    </Space>
  );
}

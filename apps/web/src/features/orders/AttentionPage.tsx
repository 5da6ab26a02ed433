import { orders, reference } from '@console/contract';
import { Alert, App, Button, Input, Modal, Popover, Space, Table, Tooltip } from 'antd';
import { Form, formErrors, showSaveError, validateForSubmit } from '@/components/form.tsx';
import { useState } from 'react';
import { attempt } from '@/components/mutation.ts';
import { useFilterText, usePagedQuery, useRowSelection } from '@/components/paged-table';
import { ApiError, call, errorText, invalidateCall, localized, t, useCall, useI18n, useSession } from '@/lib';
import { clearErrors, fixError, recheckErrors, resolveAbnormal, useAbnormalRules } from './api/orders.ts';
import { BoxFixModal } from './components/BoxFixModal.tsx';
import { withConfirmations } from './components/confirm.ts';
import { RecipientFields } from './components/OrderForm.tsx';
import { OrderTable, reasonColumn } from './components/OrderTable.tsx';
import './i18n.ts';

type Row = orders.OrderRow;
type Recipient = { name?: string; idCard?: string } & Record<string, unknown>;

/**
 * Whether the server can apply a fix to this order: received, released and cancelled orders
 * and intercepted ones are locked (409), so Fix is not offered there. A shipped order refused
 * by clearance is fixable (its recipient's name, ID number, phone and address only).
 */
export const fixable = (r: Pick<Row, 'status' | 'intercepted'>) =>
  !r.intercepted && (r.status === 'created' || r.status === 'printed' || r.status === 'shipped');

/** The recipient fields a clearance refusal can name (identity, phone, address). */
const CLEARANCE_FIELDS = ['name', 'idCard', 'phone', 'province', 'city', 'district', 'street', 'address', 'postcode'];
/**
 * An error reason names recipient fields: before shipping, the name and ID number (they do not
 * match); a shipped order's clearance refusal, its identity, phone or address. A fix that changes
 * none of them would clear nothing.
 */
export const fixChangesNamedField = (
  before: Recipient | null,
  now: Recipient | undefined,
  fields: readonly string[] = ['name', 'idCard'],
) => !!before && !!now && fields.some((k) => String(now[k] ?? '').trim() !== String(before[k] ?? '').trim());

/** Error and abnormal order lists (their counts drive the header badges). */
export function AttentionPage({ kind }: { kind: 'error' | 'abnormal' }) {
  useI18n();
  const { message, modal } = App.useApp();
  const { user } = useSession();
  const paged = usePagedQuery<typeof orders.errorOrders, { keyword?: string }>(
    kind === 'error' ? orders.errorOrders : orders.abnormalOrders,
  );
  const [keyword, setKeyword] = useFilterText(paged.state.filters.keyword);
  const selection = useRowSelection<Row>(paged, {
    // Recheck of a locked error order is refused (409) as a whole: only fixable rows can be chosen.
    getCheckboxProps: (r) => ({ disabled: kind === 'error' && !fixable(r) }),
  });
  const selected = selection.keys as number[];
  const [fixing, setFixing] = useState<number | null>(null);
  // What the user is asked to fix, said in the dialog too (issue 36 #23): it showed only the form.
  const [fixReason, setFixReason] = useState<string | null>(null);
  const [before, setBefore] = useState<Recipient | null>(null);
  const [form] = Form.useForm();
  const [clearing, setClearing] = useState<Row | null>(null);
  const [clearForm] = Form.useForm<{ note: string }>();
  const recipientNow = Form.useWatch('recipient', form) as Recipient | undefined;
  const [fixingShipped, setFixingShipped] = useState(false);
  const named = fixingShipped ? CLEARANCE_FIELDS : undefined;
  const changed = fixChangesNamedField(before, recipientNow, named);
  const rules = useAbnormalRules();
  // Channels with boxes offer the box-C fix (the server refuses it on the others).
  const channels = useCall(reference.channels, {}, { enabled: kind === 'error' });
  const boxed = new Set((channels.data ?? []).filter((c) => c.hasBoxes).map((c) => c.code));
  const [boxFixing, setBoxFixing] = useState<Parameters<typeof BoxFixModal>[0]['order']>(null);
  const openBoxFix = async (r: Row) => {
    const d = await attempt(message, () => call(orders.order, { id: r.id }));
    if (d)
      setBoxFixing({
        id: r.id,
        orderNo: r.orderNo,
        boxNo: d.boxNo,
        splitWaybillNo: d.splitWaybillNo,
        reason: r.errorReason,
      });
  };
  const operator = !!user?.roles.some((r) => r === 'operator' || r === 'admin-none');
  const refresh = async () => {
    selection.clear();
    await Promise.all([
      invalidateCall(orders.errorOrders),
      invalidateCall(orders.abnormalOrders),
      invalidateCall(orders.orderStats),
    ]);
  };
  const openFix = async (id: number, reason: string | null) => {
    const d = await attempt(message, () => call(orders.order, { id }));
    if (!d) return;
    setFixReason(reason);
    form.setFieldsValue({ recipient: d.recipient });
    setBefore({ ...d.recipient });
    setFixingShipped(d.status === 'shipped');
    setFixing(id);
  };
  const saveFix = async () => {
    const v = await validateForSubmit(form);
    if (!fixChangesNamedField(before, v.recipient, named)) return;
    try {
      const r = await withConfirmations(modal, (confirm) => fixError({ id: fixing!, recipient: v.recipient, confirm }));
      if (!r) return;
      // Saved either way; the error stands when the change does not touch what its reason names.
      if (r.cleared) message.success(t('orders.fixed'));
      else message.warning(t('orders.savedStillError'));
      setFixing(null);
      await refresh();
    } catch (e) {
      // Field errors go on their fields, and are said too: some (the items) have no field here.
      const fields = formErrors(e);
      if (fields) form.setFields(fields);
      if (fields || !(e instanceof ApiError)) message.error(errorText(e));
    }
  };
  /** An operator clears an error as it is (no change): the server records the reason with the order. */
  const saveClear = async () => {
    const { note } = await validateForSubmit(clearForm);
    try {
      await clearErrors([clearing!.id], note.trim());
    } catch (e) {
      showSaveError(clearForm, e);
      return;
    }
    message.success(t('orders.errorClearedMsg', { orderNo: clearing!.orderNo }));
    setClearing(null);
    await refresh();
  };
  const act = async (send: () => Promise<unknown>) => {
    if ((await attempt(message, send)) !== undefined) await refresh();
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space>
        <Input.Search
          allowClear
          placeholder={`${t('orders.orderNo')} / ${t('orders.waybillNo')}`}
          data-testid={`${kind}-search`}
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          onSearch={(k) => paged.setFilters({ keyword: k.trim() || undefined })}
        />
        {kind === 'error' && (
          <Button
            disabled={!selected.length}
            data-testid="error-recheck"
            onClick={async () => {
              const r = await attempt(message, () => recheckErrors(selected));
              if (!r) return;
              message.info(`${t('orders.fixed')}: ${r.cleared.length} / ${selected.length}`);
              await refresh();
            }}
          >
            {t('orders.recheck')}
          </Button>
        )}
        {kind === 'abnormal' && operator && (
          <>
            <Button
              disabled={!selected.length}
              onClick={() => act(() => resolveAbnormal({ ids: selected, action: 'resolve' }))}
              data-testid="abnormal-resolve"
            >
              {t('orders.resolveAbnormal')}
            </Button>
            <Button
              disabled={!selected.length}
              onClick={() => act(() => resolveAbnormal({ ids: selected, action: 'release' }))}
              data-testid="abnormal-release"
            >
              {t('orders.release')}
            </Button>
          </>
        )}
        {kind === 'abnormal' && (
          <Popover
            content={
              <Table
                size="small"
                rowKey="code"
                pagination={false}
                dataSource={rules.data ?? []}
                data-testid="abnormal-rules-table"
                columns={[
                  { title: t('orders.ruleName'), render: (_, r) => localized(r.name) },
                  { title: t('orders.ruleDescription'), render: (_, r) => localized(r.description) },
                ]}
              />
            }
          >
            <Button data-testid="abnormal-rules">{t('orders.rules')}</Button>
          </Popover>
        )}
      </Space>
      {selection.bar}
      <OrderTable
        data-testid={`${kind}-table`}
        paged={paged}
        visible={['orderNo', 'waybillNo', 'channel', 'customerCode', 'status', 'recipientName', 'createdAt']}
        rowSelection={selection.rowSelection}
        extra={[
          reasonColumn(kind === 'error' ? 'errorReason' : 'abnormalReason'),
          ...(kind === 'error'
            ? [
                {
                  key: 'fix',
                  title: t('orders.actions'),
                  render: (_: unknown, r: Row) =>
                    fixable(r) ? (
                      <Space size={4}>
                        <Button
                          size="small"
                          onClick={() => openFix(r.id, kind === 'error' ? r.errorReason : r.abnormalReason)}
                          data-testid={`fix-${r.orderNo}`}
                        >
                          {t('orders.fix')}
                        </Button>
                        {boxed.has(r.channel) && r.status !== 'shipped' && (
                          <Button size="small" onClick={() => openBoxFix(r)} data-testid={`box-fix-${r.orderNo}`}>
                            {t('orders.fixBox')}
                          </Button>
                        )}
                        {operator && (
                          <Button
                            size="small"
                            danger
                            onClick={() => (clearForm.resetFields(), setClearing(r))}
                            data-testid={`clear-${r.orderNo}`}
                          >
                            {t('orders.clearError')}
                          </Button>
                        )}
                      </Space>
                    ) : (
                      <Tooltip
                        title={t('orders.fixLocked', {
                          status: r.intercepted ? t('orders.intercepted') : t(`orders.kinds.${r.status}`),
                        })}
                      >
                        <span data-testid={`fix-locked-${r.orderNo}`}>—</span>
                      </Tooltip>
                    ),
                },
              ]
            : []),
        ]}
      />
      <BoxFixModal
        order={boxFixing}
        onClose={(saved) => {
          setBoxFixing(null);
          if (saved) void refresh();
        }}
      />
      <Modal
        open={clearing !== null}
        title={t('orders.clearErrorTitle', { orderNo: clearing?.orderNo ?? '' })}
        onCancel={() => setClearing(null)}
        onOk={saveClear}
        okText={t('orders.clearError')}
        okButtonProps={{ danger: true, 'data-testid': 'clear-confirm' } as never}
        destroyOnHidden
      >
        <Alert type="warning" showIcon message={t('orders.clearErrorWarning')} description={clearing?.errorReason} />
        <Form form={clearForm} layout="vertical" style={{ marginTop: 12 }}>
          <Form.Item
            name="note"
            label={t('orders.clearErrorReason')}
            rules={[{ required: true, whitespace: true, message: t('orders.clearErrorReasonRequired') }]}
          >
            <Input.TextArea rows={3} maxLength={200} showCount data-testid="clear-note" />
          </Form.Item>
        </Form>
      </Modal>
      <Modal
        open={fixing !== null}
        width={900}
        title={t('orders.fix')}
        onCancel={() => setFixing(null)}
        onOk={saveFix}
        okButtonProps={{ 'data-testid': 'fix-save', disabled: !changed } as never}
      >
        {fixReason && (
          <Alert
            type="error"
            showIcon
            message={t('orders.fixReason')}
            description={fixReason}
            data-testid="fix-reason"
            style={{ marginBottom: 8 }}
          />
        )}
        {!changed && <Alert type="info" showIcon message={t('orders.fixNeedsChange')} data-testid="fix-hint" />}
        {fixingShipped && <Alert type="warning" showIcon message={t('orders.fixShipped')} data-testid="fix-shipped" />}
        <Form form={form} layout="vertical" style={{ marginTop: 12 }}>
          <RecipientFields />
        </Form>
      </Modal>
    </Space>
  );
}

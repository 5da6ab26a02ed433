import { App, Button, Form, Input, Modal, Popover, Space, Table } from 'antd';
import { useState } from 'react';
import { invalidateCall, localized, t, useI18n, useSession } from '@/lib';
import { orders } from '@console/contract';
import { fixError, recheckErrors, resolveAbnormal, useAbnormalRules, useAttention } from './api/orders.ts';
import { formErrors, withConfirmations } from './components/confirm.ts';
import { RecipientFields } from './components/OrderForm.tsx';
import { OrderTable, reasonColumn } from './components/OrderTable.tsx';
import './i18n.ts';

/** Error and abnormal order lists (their counts drive the header badges). */
export function AttentionPage({ kind }: { kind: 'error' | 'abnormal' }) {
  useI18n();
  const { message, modal } = App.useApp();
  const { user } = useSession();
  const [req, setReq] = useState({
    offset: 0,
    limit: 20,
    order: 'desc' as const,
    keyword: undefined as string | undefined,
  });
  const [selected, setSelected] = useState<number[]>([]);
  const [fixing, setFixing] = useState<number | null>(null);
  const [form] = Form.useForm();
  const q = useAttention(kind, req);
  const rules = useAbnormalRules();
  const operator = !!user?.roles.some((r) => r === 'operator' || r === 'admin-none');
  const refresh = async () => {
    setSelected([]);
    await Promise.all([
      invalidateCall(orders.errorOrders),
      invalidateCall(orders.abnormalOrders),
      invalidateCall(orders.orderStats),
    ]);
  };
  const openFix = async (id: number) => {
    const { call } = await import('@/lib');
    const d = await call(orders.order, { id });
    form.setFieldsValue({ recipient: d.recipient });
    setFixing(id);
  };
  const saveFix = async () => {
    const v = await form.validateFields();
    try {
      const r = await withConfirmations(modal, (confirm) => fixError({ id: fixing!, recipient: v.recipient, confirm }));
      if (!r) return;
      message.success(t('orders.fixed'));
      setFixing(null);
      await refresh();
    } catch (e) {
      const fields = formErrors(e);
      if (fields) form.setFields(fields);
      else message.error((e as Error).message);
    }
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space>
        <Input.Search
          allowClear
          placeholder={`${t('orders.orderNo')} / ${t('orders.waybillNo')}`}
          data-testid={`${kind}-search`}
          onSearch={(k) => setReq({ ...req, offset: 0, keyword: k || undefined })}
        />
        {kind === 'error' && (
          <Button
            disabled={!selected.length}
            onClick={async () => {
              const r = await recheckErrors(selected);
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
              onClick={async () => (await resolveAbnormal({ ids: selected, action: 'resolve' }), refresh())}
              data-testid="abnormal-resolve"
            >
              {t('orders.resolveAbnormal')}
            </Button>
            <Button
              disabled={!selected.length}
              onClick={async () => (await resolveAbnormal({ ids: selected, action: 'release' }), refresh())}
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
                columns={[
                  { title: t('orders.ruleName'), render: (_, r) => localized(r.name) },
                  { title: t('orders.ruleDescription'), render: (_, r) => localized(r.description) },
                ]}
              />
            }
          >
            <Button>{t('orders.rules')}</Button>
          </Popover>
        )}
      </Space>
      <OrderTable
        data-testid={`${kind}-table`}
        loading={q.isFetching}
        dataSource={q.data?.list ?? []}
        visible={['orderNo', 'waybillNo', 'channel', 'customerCode', 'status', 'recipientName', 'createdAt']}
        rowSelection={{ selectedRowKeys: selected, onChange: (k) => setSelected(k as number[]) }}
        extra={[
          reasonColumn(kind === 'error' ? 'errorReason' : 'abnormalReason'),
          ...(kind === 'error'
            ? [
                {
                  key: 'fix',
                  title: t('orders.actions'),
                  render: (_: unknown, r: { id: number; orderNo: string }) => (
                    <Button size="small" onClick={() => openFix(r.id)} data-testid={`fix-${r.orderNo}`}>
                      {t('orders.fix')}
                    </Button>
                  ),
                },
              ]
            : []),
        ]}
        pagination={{
          total: q.data?.total ?? 0,
          current: req.offset / req.limit + 1,
          pageSize: req.limit,
          onChange: (p, s) => setReq({ ...req, offset: (p - 1) * s, limit: s }),
        }}
      />
      <Modal
        open={fixing !== null}
        width={900}
        title={t('orders.fix')}
        onCancel={() => setFixing(null)}
        onOk={saveFix}
        okButtonProps={{ 'data-testid': 'fix-save' } as never}
      >
        <Form form={form} layout="vertical">
          <RecipientFields />
        </Form>
      </Modal>
    </Space>
  );
}

import type { orders } from '@console/contract';

type BulkPreview = orders.BulkPreview;
import { Button, Card, Input, Space, Tabs } from 'antd';
import { Form, showSaveError } from '@/components/form.tsx';
import { useEffect, useState } from 'react';
import { t, useI18n, useSession } from '@/lib';
import { getSendAddress } from './api/orders.ts';
import { previewSender } from './api/changes.ts';
import { ChangePreview, CustomerSelect, SheetUpload } from './components/ChangePreview.tsx';
import { SenderFields } from './components/OrderForm.tsx';
import { useCreateFormDirty } from '@/components/useTabDirty.ts';
import './i18n.ts';
import './pages-i18n.ts';

/**
 * Batch sender (spec "order: batch sender"): set the sender of many orders at once, the same
 * saved sender on pasted order numbers or a sender per order from a sheet; a preview lists each
 * order with its old and new sender, and refusals by status; one apply changes all or none.
 */
export default function BatchSenderPage() {
  useI18n();
  const { user } = useSession();
  const isCustomer = !!user?.customer;
  const [form] = Form.useForm();
  // Typed order numbers and a sender are unsaved until the preview is applied.
  const draft = useCreateFormDirty();
  const [customerId, setCustomerId] = useState<number>();
  const [preview, setPreview] = useState<BulkPreview | null>(null);
  const [busy, setBusy] = useState(false);

  const fillSaved = async () => {
    try {
      form.setFieldsValue({ sender: await getSendAddress(isCustomer ? undefined : customerId) });
    } catch {
      /* the client has said why (a customer must be chosen first) */
    }
  };
  // A customer's saved sender is there from the start; others choose the customer first.
  useEffect(() => {
    if (isCustomer) void fillSaved();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [isCustomer]);

  const submit = async (v: { orderNos: string; sender: { name?: string; address?: string; phone?: string } }) => {
    setBusy(true);
    try {
      setPreview(
        await previewSender({
          orderNos: v.orderNos,
          sender: { name: v.sender?.name || null, address: v.sender?.address || null, phone: v.sender?.phone || null },
          customerId,
        }),
      );
    } catch (e) {
      showSaveError(form, e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="batch-sender">
      <Card size="small">
        <CustomerSelect value={customerId} onChange={setCustomerId} />
        <Tabs
          onChange={() => setPreview(null)}
          items={[
            {
              key: 'saved',
              label: t('orderPages.fromSaved'),
              children: (
                <Form form={form} layout="vertical" onFinish={submit} onValuesChange={draft.touched}>
                  <Form.Item name="orderNos" label={t('orderPages.orderNos')} rules={[{ required: true }]}>
                    <Input.TextArea rows={5} data-testid="sender-order-nos" />
                  </Form.Item>
                  <SenderFields />
                  <Space>
                    <Button onClick={fillSaved} disabled={!isCustomer && !customerId} data-testid="sender-saved">
                      {t('orderPages.useSaved')}
                    </Button>
                    <Button type="primary" htmlType="submit" loading={busy} data-testid="sender-preview">
                      {t('orderPages.preview')}
                    </Button>
                  </Space>
                </Form>
              ),
            },
            {
              key: 'sheet',
              label: t('orderPages.fromSheet'),
              children: (
                <SheetUpload
                  kind="batchSender"
                  customerId={customerId}
                  hint={t('orderPages.senderSheetHint')}
                  onPreview={setPreview}
                />
              ),
            },
          ]}
        />
      </Card>
      {preview && (
        <ChangePreview
          kind="batchSender"
          preview={preview}
          onApplied={() => {
            draft.created();
            setPreview(null);
          }}
        />
      )}
    </Space>
  );
}

import type { items } from '@console/contract';
import { App, Button, Input, Modal, Popconfirm, Space } from 'antd';
import { Form, formErrors } from '@/components/form.tsx';
import { useState } from 'react';
import { attempt } from '@/components/mutation.ts';
import { errorText, t } from '@/lib';
import { adjustItem } from '../api/adjustItem.ts';
import { approveItem } from '../api/approveItem.ts';
import { failItem } from '../api/failItem.ts';
import { fromItem, ItemFields, toItemInput } from './ItemForm.tsx';

/**
 * Operators' review of one item: approve, fail with a reason, or adjust its clearance data
 * (the customer then adopts or rejects). Shown only to operators; the server refuses others (403).
 */
export function ReviewActions({
  item,
  onDone,
  size = 'small',
}: {
  item: items.ItemRow;
  onDone: () => unknown;
  size?: 'small' | 'middle';
}) {
  const { message } = App.useApp();
  const [failing, setFailing] = useState(false);
  const [adjusting, setAdjusting] = useState(false);
  const pending = item.status === 'pending';
  return (
    <Space size={4}>
      {pending && (
        <Popconfirm
          title={t('items.approveConfirm')}
          okText={t('items.confirm')}
          cancelText={t('items.cancel')}
          okButtonProps={{ 'data-testid': 'approve-ok' }}
          onConfirm={async () => {
            if ((await attempt(message, () => approveItem(item.id))) === undefined) return;
            message.success(t('items.approved'));
            await onDone();
          }}
        >
          <Button size={size} type="link" data-testid={`approve-${item.id}`}>
            {t('items.approve')}
          </Button>
        </Popconfirm>
      )}
      {pending && (
        <Button size={size} type="link" danger onClick={() => setFailing(true)} data-testid={`fail-${item.id}`}>
          {t('items.fail')}
        </Button>
      )}
      <Button size={size} type="link" onClick={() => setAdjusting(true)} data-testid={`adjust-${item.id}`}>
        {t('items.adjust')}
      </Button>
      {failing && (
        <FailDialog
          item={item}
          onClose={() => setFailing(false)}
          onDone={async () => {
            setFailing(false);
            await onDone();
          }}
        />
      )}
      {adjusting && (
        <AdjustDialog
          item={item}
          onClose={() => setAdjusting(false)}
          onDone={async () => {
            setAdjusting(false);
            await onDone();
          }}
        />
      )}
    </Space>
  );
}

function FailDialog({ item, onClose, onDone }: { item: items.ItemRow; onClose: () => void; onDone: () => unknown }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<{ reason: string }>();
  const [busy, setBusy] = useState(false);
  const submit = async ({ reason }: { reason: string }) => {
    setBusy(true);
    try {
      await failItem(item.id, reason.trim());
      message.success(t('items.failed'));
      await onDone();
    } catch (e) {
      const fields = formErrors(e);
      if (fields) form.setFields(fields.map((f) => ({ ...f, name: ['reason'] })));
      else message.error(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={`${t('items.failTitle')} · ${item.jan}`}
      okText={t('items.fail')}
      cancelText={t('items.cancel')}
      okButtonProps={{ danger: true, loading: busy, 'data-testid': 'fail-ok' }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item
          name="reason"
          label={t('items.failReason')}
          rules={[{ required: true, whitespace: true, message: t('items.failReasonRequired') }]}
        >
          <Input.TextArea autoFocus autoSize={{ minRows: 3 }} maxLength={500} data-testid="fail-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Only the fields the operator changed are sent (the server refuses an adjustment that changes nothing). */
function AdjustDialog({ item, onClose, onDone }: { item: items.ItemRow; onClose: () => void; onDone: () => unknown }) {
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const [busy, setBusy] = useState(false);
  const initial = fromItem(item);
  const submit = async (v: Record<string, any>) => {
    const before = toItemInput(initial);
    const after = toItemInput({ ...initial, ...v });
    const changes: Record<string, unknown> = {};
    for (const k of Object.keys(after) as (keyof typeof after)[]) {
      if (k === 'jan' || k === 'imageId' || k === 'group') continue;
      if (JSON.stringify(after[k]) !== JSON.stringify(before[k])) changes[k] = after[k];
    }
    if (!Object.keys(changes).length) return void message.warning(t('items.noChange'));
    setBusy(true);
    try {
      await adjustItem({ id: item.id, changes: changes as never, note: v.note?.trim() || undefined });
      message.success(t('items.adjusted'));
      await onDone();
    } catch (e) {
      const fields = formErrors(e);
      if (fields)
        form.setFields(fields.map((f) => ({ ...f, name: f.name[0] === 'changes' ? f.name.slice(1) : f.name })));
      else message.error(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      width={760}
      title={`${t('items.adjustTitle')} · ${item.jan}`}
      okText={t('items.adjust')}
      cancelText={t('items.cancel')}
      okButtonProps={{ loading: busy, 'data-testid': 'adjust-ok' }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={initial} onFinish={submit} data-testid="adjust-form">
        <ItemFields adjust />
        <Form.Item name="note" label={t('items.adjustNote')}>
          <Input.TextArea autoSize={{ minRows: 2 }} maxLength={500} data-testid="adjust-note" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

import { selfSends as S } from '@console/contract';
import { Alert, Button, Card, DatePicker, Input, InputNumber, Select } from 'antd';
import { Form } from '@/components/form.tsx';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { CustomerSelect } from '@/components/CustomerSelect.tsx';
import { ApiError, call, invalidateCall, t, useI18n, useSession } from '@/lib';
import { useCreateFormDirty } from '@/components/useTabDirty.ts';
import { useFormDraft } from '@/components/useFormDraft.tsx';
import './i18n.ts';
import { useOneAtATime } from '@/lib/one-at-a-time.ts';

/**
 * Declare a self-send (spec §2 selfSendTake.create): the parcels the customer sends to the
 * warehouse itself. Inbound storage matches their tracking numbers; the list shows arrivals.
 */
export default function SelfSendCreatePage() {
  useI18n();
  const navigate = useNavigate();
  const [form] = Form.useForm();
  const draft = useCreateFormDirty();
  useFormDraft(form, draft);
  const { user } = useSession();
  const isCustomer = !!user?.customer;
  const company = Form.useWatch('expressCompany', form);
  const [saved, setSaved] = useState<number | null>(null);
  const l = (k: string, p?: Record<string, string | number>) => t(`selfSends.${k}`, p);

  // One save at a time: a double click or a second Enter declared the parcels twice (issue 36 #22).
  const [submit, busy] = useOneAtATime(async (v: Record<string, any>) => {
    setSaved(null);
    try {
      const trackingNos = String(v.trackingNos ?? '')
        .split(/[\s,]+/)
        .map((x) => x.trim())
        .filter(Boolean);
      const r = await call(
        S.saveSelfSend,
        {
          customerId: v.customerId,
          expressCompany: v.expressCompany,
          expressName: v.expressName,
          trackingNos,
          expectedPieces: v.expectedPieces,
          sendDate: v.sendDate.format('YYYY-MM-DD'),
          remark: v.remark,
        },
        { silent: true },
      );
      draft.created();
      setSaved(r.parcels.length);
      form.resetFields(['trackingNos', 'remark']);
      void invalidateCall(S.selfSendList);
    } catch (e) {
      if (e instanceof ApiError && e.code === 422) {
        form.setFields(
          Object.entries(e.fieldErrors).map(([name, errors]) => ({
            name: name.startsWith('trackingNos') ? 'trackingNos' : name,
            errors,
          })),
        );
      } else throw e;
    }
  });

  return (
    <Card data-testid="self-send-create-page">
      <Form
        form={form}
        layout="vertical"
        style={{ maxWidth: 560 }}
        initialValues={{ expressCompany: 'yamato', expectedPieces: 1, sendDate: dayjs() }}
        onFinish={(v) => void submit(v)}
        onValuesChange={draft.touched}
      >
        {!isCustomer && (
          <Form.Item name="customerId" label={l('customer')} rules={[{ required: true }]}>
            <CustomerSelect />
          </Form.Item>
        )}
        <Form.Item name="expressCompany" label={l('expressCompany')} rules={[{ required: true }]}>
          <Select
            data-testid="self-send-company"
            options={S.expressCompany.options.map((c) => ({ value: c, label: l(`companies.${c}`) }))}
          />
        </Form.Item>
        {company === 'other' && (
          <Form.Item name="expressName" label={l('expressName')} rules={[{ required: true }]}>
            <Input maxLength={64} />
          </Form.Item>
        )}
        <Form.Item name="trackingNos" label={l('trackingNos')} extra={l('trackingHint')} rules={[{ required: true }]}>
          <Input.TextArea rows={4} data-testid="self-send-tracking" />
        </Form.Item>
        <Form.Item name="expectedPieces" label={l('expectedPieces')} rules={[{ required: true }]}>
          <InputNumber min={1} max={9999} precision={0} data-testid="self-send-pieces" />
        </Form.Item>
        <Form.Item name="sendDate" label={l('sendDate')} rules={[{ required: true }]}>
          <DatePicker />
        </Form.Item>
        <Form.Item name="remark" label={l('remark')}>
          <Input.TextArea rows={2} maxLength={500} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy} data-testid="self-send-save">
          {l('save')}
        </Button>{' '}
        <Button onClick={() => navigate('/selfSendTake/list')}>{t('selfSends.search')}</Button>
      </Form>
      {saved !== null && (
        <Alert
          style={{ marginTop: 16 }}
          type="success"
          showIcon
          message={l('saved', { count: saved })}
          data-testid="self-send-saved"
        />
      )}
    </Card>
  );
}

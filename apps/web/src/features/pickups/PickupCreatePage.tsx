import { pickups as P } from '@console/contract';
import { Alert, App, Button, Card, Space } from 'antd';
import { Form } from '@/components/form.tsx';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { CustomerSelect } from '@/components/CustomerSelect.tsx';
import { ApiError, errorText, t, useI18n, useSession } from '@/lib';
import { bookPickup, downloadSlip, refreshPickups } from './api/pickups.ts';
import { bookingOf, PickupFields } from './components/PickupFields.tsx';
import { useCreateFormDirty } from '@/components/useTabDirty.ts';
import { useFormDraft } from '@/components/useFormDraft.tsx';
import './i18n.ts';
import { useOneAtATime } from '@/lib/one-at-a-time.ts';

/**
 * Book a pickup (spec §2 subscribeTake.create): region, then a date the server says is open
 * (Sundays, Japanese holidays and days past the same-day cutoff are greyed out), then a slot
 * with its places left; the shop abbreviation is suggested from the Chinese shop name (pinyin
 * initials, by the server) and may be edited. Agents and operators choose the customer.
 */
export default function PickupCreatePage() {
  useI18n();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const { user } = useSession();
  const isCustomer = !!user?.customer;
  const [form] = Form.useForm();
  const draft = useCreateFormDirty();
  useFormDraft(form, draft);
  const [done, setDone] = useState<P.PickupRow | null>(null);
  const [submit, submitting] = useOneAtATime(async (v: Record<string, any>) => {
    try {
      const row = await bookPickup({ customerId: isCustomer ? undefined : v.customerId, ...bookingOf(v) });
      draft.created();
      setDone(row);
      void message.success(t('pickups.booked', { no: row.pickupNo }));
      await refreshPickups();
      form.resetFields(['slot', 'boxNo', 'shopName', 'shopAbbr', 'bigCartons', 'smallParcels', 'markerPrefix']);
    } catch (e) {
      if (e instanceof ApiError && e.code === 422) {
        form.setFields(Object.entries(e.fieldErrors).map(([name, errors]) => ({ name, errors })));
      } else {
        void message.error(errorText(e));
        void refreshPickups();
      }
    }
  });

  const required = [{ required: true, message: t('pickups.required') }];
  return (
    <Card title={t('pickups.create')} data-testid="pickup-create">
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16, maxWidth: 900 }}
        message={t('pickups.cutoffHint', { hour: P.PICKUP_CUTOFF_HOUR })}
      />
      {done && (
        <Alert
          type="success"
          showIcon
          style={{ marginBottom: 16, maxWidth: 900 }}
          data-testid="pickup-done"
          message={t('pickups.booked', { no: done.pickupNo })}
          action={
            <Space>
              <Button size="small" onClick={() => void downloadSlip(done.id)} data-testid="pickup-done-slip">
                {t('pickups.downloadSlip')}
              </Button>
              <Button size="small" onClick={() => navigate('/subscribeTake/list')}>
                {t('pickups.list')}
              </Button>
            </Space>
          }
        />
      )}
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        onValuesChange={draft.touched}
        initialValues={{ region: 'tokyo', bigCartons: 1, smallParcels: 0 }}
        style={{ maxWidth: 900 }}
      >
        {!isCustomer && (
          <Form.Item name="customerId" label={t('pickups.customer')} rules={required} style={{ maxWidth: 360 }}>
            <CustomerSelect placeholder={t('pickups.selectCustomer')} data-testid="pickup-customer" />
          </Form.Item>
        )}
        <PickupFields form={form} />
        <Button type="primary" htmlType="submit" loading={submitting} data-testid="pickup-submit">
          {t('pickups.submit')}
        </Button>
      </Form>
    </Card>
  );
}

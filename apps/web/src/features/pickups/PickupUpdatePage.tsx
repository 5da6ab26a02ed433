import { pickups as P } from '@console/contract';
import { Alert, App, Button, Card, Descriptions, Empty, Space, Spin } from 'antd';
import { Form } from '@/components/form.tsx';
import dayjs from 'dayjs';
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useTabRecord } from '@/components/useTabRecord.ts';
import { ApiError, errorText, formatTime, t, useCall, useI18n } from '@/lib';
import { pickupInfoCall, updatePickup } from './api/pickups.ts';
import { bookingOf, PickupFields } from './components/PickupFields.tsx';
import './i18n.ts';
import { useOneAtATime } from '@/lib/one-at-a-time.ts';

/**
 * Change a booked pickup (spec §2 subscribeTake.update, call subscribe/take/piece/update; issue 28
 * #16): the booking's fields as on the create page, until the date's cutoff. Its own slot stays
 * choosable; a new slot is taken as in booking (409 when it filled meanwhile) and the old place
 * is given back, by the server.
 */
export default function PickupUpdatePage() {
  useI18n();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = Number(params.get('id') ?? 0);
  const info = useCall(pickupInfoCall, { id }, { enabled: id > 0 });
  const row = info.data;
  useTabRecord(row?.pickupNo);
  const [form] = Form.useForm();
  useEffect(() => {
    if (row)
      form.setFieldsValue({
        region: row.region,
        date: dayjs(row.pickupDate),
        slot: row.slot,
        boxNo: row.boxNo,
        shopAbbr: row.shopAbbr,
        bigCartons: row.bigCartons,
        smallParcels: row.smallParcels,
        markerPrefix: row.markerPrefix,
      });
  }, [row, form]);
  const [submit, submitting] = useOneAtATime(async (v: Record<string, any>) => {
    try {
      const r = await updatePickup({ id, ...bookingOf(v) });
      void message.success(t('pickups.updated', { no: r.pickupNo }));
      navigate('/subscribeTake/list');
    } catch (e) {
      if (e instanceof ApiError && e.code === 422)
        form.setFields(Object.entries(e.fieldErrors).map(([name, errors]) => ({ name, errors })));
      else void message.error(errorText(e));
    }
  });

  if (!id) return <Empty description={t('pickups.notFound')} />;
  if (info.isError) return <Empty description={errorText(info.error)} />;
  if (!row) return <Spin />;

  return (
    <Card title={t('pickups.updateTitle', { no: row.pickupNo })} data-testid="pickup-update">
      <Descriptions size="small" column={3} style={{ marginBottom: 16, maxWidth: 900 }}>
        <Descriptions.Item label={t('pickups.customer')}>{row.customerCode}</Descriptions.Item>
        <Descriptions.Item label={t('pickups.status')}>{t(`pickups.statuses.${row.status}`)}</Descriptions.Item>
        <Descriptions.Item label={t('pickups.cutoffAt')}>{formatTime(row.cutoffAt)}</Descriptions.Item>
      </Descriptions>
      {!row.cancellable && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16, maxWidth: 900 }}
          message={t('pickups.notChangeable')}
          data-testid="pickup-not-changeable"
        />
      )}
      <Form form={form} layout="vertical" onFinish={submit} style={{ maxWidth: 900 }} disabled={!row.cancellable}>
        <PickupFields form={form} own={{ region: row.region, date: row.pickupDate, slot: row.slot as P.PickupSlot }} />
        <Space>
          <Button type="primary" htmlType="submit" loading={submitting} data-testid="pickup-save">
            {t('pickups.saveChanges')}
          </Button>
          <Button disabled={false} onClick={() => navigate('/subscribeTake/list')}>
            {t('pickups.list')}
          </Button>
        </Space>
      </Form>
    </Card>
  );
}

import { type pickups as P } from '@console/contract';
import { Alert, App, Button, Card, DatePicker, Form, Input, InputNumber, Radio, Space } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { CustomerSelect } from '@/components/CustomerSelect.tsx';
import { ApiError, errorText, t, useCall, useI18n, useSession } from '@/lib';
import { bookPickup, downloadSlip, refreshPickups, slotsCall, suggestAbbr } from './api/pickups.ts';
import './i18n.ts';

/** The date picker's value (a dayjs object; only its formatting is used). */
type Dayjs = { format(f: string): string };

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
  const region: P.PickupRegion = Form.useWatch('region', form) ?? 'tokyo';
  const date: Dayjs | undefined = Form.useWatch('date', form);
  const slots = useCall(slotsCall, { region, days: 62 });
  const days = slots.data?.days ?? [];
  const day = date ? days.find((d) => d.date === date.format('YYYY-MM-DD')) : undefined;
  const [done, setDone] = useState<P.PickupRow | null>(null);

  const suggest = async (name: string) => {
    if (!name.trim()) return;
    try {
      const { abbr } = await suggestAbbr(name.trim());
      if (abbr) form.setFieldsValue({ shopAbbr: abbr });
    } catch {
      // A suggestion that fails leaves the field for the user to type.
    }
  };

  const submit = async (v: Record<string, any>) => {
    try {
      const row = await bookPickup({
        customerId: isCustomer ? undefined : v.customerId,
        region: v.region,
        date: (v.date as Dayjs).format('YYYY-MM-DD'),
        slot: v.slot,
        boxNo: v.boxNo,
        shopAbbr: v.shopAbbr,
        bigCartons: v.bigCartons ?? 0,
        smallParcels: v.smallParcels ?? 0,
        markerPrefix: v.markerPrefix,
      });
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
  };

  const required = [{ required: true, message: t('pickups.required') }];
  return (
    <Card title={t('pickups.create')} data-testid="pickup-create">
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16, maxWidth: 900 }}
        message={t('pickups.cutoffHint', { hour: slots.data?.cutoffHour ?? 9 })}
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
        initialValues={{ region: 'tokyo', bigCartons: 1, smallParcels: 0 }}
        style={{ maxWidth: 900 }}
      >
        {!isCustomer && (
          <Form.Item name="customerId" label={t('pickups.customer')} rules={required} style={{ maxWidth: 360 }}>
            <CustomerSelect placeholder={t('pickups.selectCustomer')} data-testid="pickup-customer" />
          </Form.Item>
        )}
        <Form.Item name="region" label={t('pickups.region')} rules={required}>
          <Radio.Group
            onChange={() => form.resetFields(['date', 'slot'])}
            options={(['tokyo', 'osaka'] as const).map((r) => ({ value: r, label: t(`pickups.regions.${r}`) }))}
            data-testid="pickup-region"
          />
        </Form.Item>
        <Form.Item name="date" label={t('pickups.date')} rules={required}>
          <DatePicker
            data-testid="pickup-date"
            onChange={() => form.resetFields(['slot'])}
            disabledDate={(d) => !days.find((x) => x.date === d.format('YYYY-MM-DD'))?.open}
            cellRender={(current, info) => {
              if (info.type !== 'date') return info.originNode;
              const x = days.find((dd) => dd.date === (current as Dayjs).format('YYYY-MM-DD'));
              const title =
                x && !x.open && x.closedReason
                  ? t(`pickups.closed.${x.closedReason}`, { name: x.holiday ?? '' })
                  : undefined;
              return (
                <div title={title} data-date={x?.date}>
                  {info.originNode}
                </div>
              );
            }}
          />
        </Form.Item>
        <Form.Item name="slot" label={t('pickups.slot')} rules={required}>
          <Radio.Group data-testid="pickup-slot">
            {(day?.slots ?? []).map((s) => (
              <Radio.Button key={s.slot} value={s.slot} disabled={s.left <= 0} data-slot={s.slot}>
                {s.slot} ({s.left > 0 ? t('pickups.left', { n: s.left }) : t('pickups.full')})
              </Radio.Button>
            ))}
          </Radio.Group>
        </Form.Item>
        <Space wrap align="start">
          <Form.Item name="shopName" label={t('pickups.shopName')} tooltip={t('pickups.shopNameHint')}>
            <Input
              style={{ width: 240 }}
              maxLength={100}
              onBlur={(e) => void suggest(e.target.value)}
              data-testid="pickup-shop-name"
            />
          </Form.Item>
          <Form.Item name="shopAbbr" label={t('pickups.shopAbbr')} rules={required}>
            <Input style={{ width: 180 }} maxLength={20} data-testid="pickup-shop-abbr" />
          </Form.Item>
          <Form.Item name="boxNo" label={t('pickups.boxNo')} rules={required}>
            <Input style={{ width: 200 }} maxLength={32} data-testid="pickup-box-no" />
          </Form.Item>
        </Space>
        <Space wrap align="start">
          <Form.Item name="bigCartons" label={t('pickups.bigCartons')}>
            <InputNumber min={0} max={500} precision={0} data-testid="pickup-big" />
          </Form.Item>
          <Form.Item name="smallParcels" label={t('pickups.smallParcels')}>
            <InputNumber min={0} max={500} precision={0} data-testid="pickup-small" />
          </Form.Item>
          <Form.Item name="markerPrefix" label={t('pickups.markerPrefix')} rules={required}>
            <Input style={{ width: 180 }} maxLength={12} data-testid="pickup-marker" />
          </Form.Item>
        </Space>
        <Button type="primary" htmlType="submit" data-testid="pickup-submit">
          {t('pickups.submit')}
        </Button>
      </Form>
    </Card>
  );
}

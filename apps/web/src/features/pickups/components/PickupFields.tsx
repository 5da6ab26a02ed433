import { type pickups as P } from '@console/contract';
import { DatePicker, Input, InputNumber, Radio, Space, type FormInstance } from 'antd';
import { Form } from '@/components/form.tsx';
import { t, useCall } from '@/lib';
import { slotsCall, suggestAbbr } from '../api/pickups.ts';

/** The date picker's value (a dayjs object; only its formatting is used). */
export type Dayjs = { format(f: string): string };

/** The booking's own place: its slot stays choosable on its date though the slot shows full. */
export type OwnPlace = { region: P.PickupRegion; date: string; slot: P.PickupSlot };

/**
 * The fields of a pickup booking, shared by the create and update pages: region, then a date the
 * server says is open (Sundays, Japanese holidays and days past the same-day cutoff are greyed out),
 * then a slot with its places left; the shop abbreviation suggested from the Chinese shop name.
 */
export function PickupFields({ form, own }: { form: FormInstance; own?: OwnPlace }) {
  const region: P.PickupRegion = Form.useWatch('region', form) ?? own?.region ?? 'tokyo';
  const date: Dayjs | undefined = Form.useWatch('date', form);
  const slots = useCall(slotsCall, { region, days: 62 });
  const days = slots.data?.days ?? [];
  const dateText = date?.format('YYYY-MM-DD');
  const day = dateText ? days.find((d) => d.date === dateText) : undefined;
  const isOwn = (slot: string) => own?.region === region && own.date === dateText && own.slot === slot;

  const suggest = async (name: string) => {
    if (!name.trim()) return;
    try {
      const { abbr } = await suggestAbbr(name.trim());
      if (abbr) form.setFieldsValue({ shopAbbr: abbr });
    } catch {
      // A suggestion that fails leaves the field for the user to type.
    }
  };
  const required = [{ required: true, message: t('pickups.required') }];
  return (
    <>
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
            <Radio.Button key={s.slot} value={s.slot} disabled={s.left <= 0 && !isOwn(s.slot)} data-slot={s.slot}>
              {s.slot} (
              {isOwn(s.slot) ? t('pickups.ownSlot') : s.left > 0 ? t('pickups.left', { n: s.left }) : t('pickups.full')}
              )
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
    </>
  );
}

/** The booking fields of a form's values, as the book and update calls take them. */
export const bookingOf = (v: Record<string, any>) => ({
  region: v.region as P.PickupRegion,
  date: (v.date as Dayjs).format('YYYY-MM-DD'),
  slot: v.slot as P.PickupSlot,
  boxNo: v.boxNo as string,
  shopAbbr: v.shopAbbr as string,
  bigCartons: (v.bigCartons as number | undefined) ?? 0,
  smallParcels: (v.smallParcels as number | undefined) ?? 0,
  markerPrefix: v.markerPrefix as string,
});

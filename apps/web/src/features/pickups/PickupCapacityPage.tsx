import { pickups as P } from '@console/contract';
import { App, Alert, Button, Card, InputNumber, Space, Table } from 'antd';
import { useState } from 'react';
import { invalidateCall, t, useCall, useI18n } from '@/lib';
import { capacitiesCall, setCapacity, slotsCall } from './api/pickups.ts';
import './i18n.ts';

/**
 * Slot capacity (operators): the places of each slot per region, the same every bookable day.
 * Lowering it below what a day has booked keeps those bookings and takes no more.
 */
export default function PickupCapacityPage() {
  useI18n();
  const { message } = App.useApp();
  const q = useCall(capacitiesCall, {});
  const [edits, setEdits] = useState<Record<string, number>>({});
  const key = (region: string, slot: string) => `${region} ${slot}`;
  const valueOf = (region: P.PickupRegion, slot: P.PickupSlot) =>
    edits[key(region, slot)] ?? q.data?.find((c) => c.region === region && c.slot === slot)?.capacity ?? 0;
  const save = async (region: P.PickupRegion, slot: P.PickupSlot) => {
    await setCapacity({ region, slot, capacity: valueOf(region, slot) });
    void message.success(t('pickups.saved'));
    await Promise.all([invalidateCall(capacitiesCall), invalidateCall(slotsCall)]);
  };
  const cell = (region: P.PickupRegion) => (_: unknown, r: { slot: P.PickupSlot }) => (
    <Space>
      <InputNumber
        min={0}
        max={10000}
        precision={0}
        value={valueOf(region, r.slot)}
        onChange={(v) => setEdits((e) => ({ ...e, [key(region, r.slot)]: Number(v ?? 0) }))}
        data-testid={`capacity-${region}-${r.slot}`}
        // The column header and the slot name are its label; a screen reader hears both.
        aria-label={`${t(`pickups.regions.${region}`)} ${r.slot}`}
      />
      <Button size="small" onClick={() => void save(region, r.slot)}>
        {t('pickups.save')}
      </Button>
    </Space>
  );
  return (
    <Card title={t('pickups.capacity')} data-testid="pickup-capacity">
      <Alert type="info" showIcon style={{ marginBottom: 16 }} message={t('pickups.capacityHint')} />
      <Table
        rowKey="slot"
        size="small"
        pagination={false}
        loading={q.isLoading}
        dataSource={P.PICKUP_SLOTS.map((slot) => ({ slot }))}
        columns={[
          { key: 'slot', title: t('pickups.slot'), dataIndex: 'slot' },
          { key: 'tokyo', title: t('pickups.regions.tokyo'), render: cell('tokyo') },
          { key: 'osaka', title: t('pickups.regions.osaka'), render: cell('osaka') },
        ]}
      />
    </Card>
  );
}

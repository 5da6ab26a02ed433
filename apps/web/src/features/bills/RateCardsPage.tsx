import { type bills as B, reference } from '@console/contract';
import {
  App,
  Button,
  DatePicker,
  InputNumber,
  Modal,
  Select,
  Space,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import { Form, validateForSubmit } from '@/components/form.tsx';
import dayjs from 'dayjs';
import { useState } from 'react';
import { CustomerSelect } from '@/components/CustomerSelect.tsx';
import { FilterBar, PagedTable, usePagedQuery } from '@/components/paged-table';
import { ApiError, errorText, formatTime, t, useCall, useI18n } from '@/lib';
import { rateCardsCall, saveRateCard } from './api/bills.ts';
import './i18n.ts';

type Row = B.RateCardRow;
type Filters = { channelCode?: string; customerId?: number };
type Values = Omit<B.RateRules, never> & {
  channelCode: string;
  customerId?: number | null;
  effectiveFrom: dayjs.Dayjs;
};

const FEES = ['minimum', 'remoteFee', 'interceptionFee', 'relabelFee', 'storagePerDay'] as const;

/**
 * System → Rate cards (issue 17): the cards charges are priced by, per channel and per customer
 * (a customer's card overrides its channel's). A card is never edited: "New version" saves the
 * same rules (changed) from a later date, and a charge uses the card in force on its day.
 */
export default function RateCardsPage() {
  const { localized } = useI18n();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const paged = usePagedQuery<typeof rateCardsCall, Filters>(rateCardsCall);
  const channels = useCall(reference.channels, {});
  const [editing, setEditing] = useState<Row | 'new' | null>(null);
  const [saving, setSaving] = useState(false);
  const channelValue = Form.useWatch('channelCode', form);
  const currency = channels.data?.find((c) => c.code === channelValue)?.currency ?? '';

  const open = (r: Row | 'new') => {
    form.resetFields();
    if (r !== 'new')
      form.setFieldsValue({
        ...r.rules,
        channelCode: r.channelCode,
        customerId: r.customerId,
        // A new version takes effect tomorrow at the earliest: today's charges keep today's card.
        effectiveFrom: dayjs().add(1, 'day'),
      });
    setEditing(r);
  };
  const save = async () => {
    const v = await validateForSubmit(form);
    setSaving(true);
    try {
      const { channelCode, customerId, effectiveFrom, ...rules } = v;
      await saveRateCard({
        channelCode,
        customerId: customerId ?? null,
        effectiveFrom: effectiveFrom.format('YYYY-MM-DD'),
        rules: { ...rules, brackets: rules.brackets ?? [], remoteProvinces: rules.remoteProvinces ?? [] },
      });
      void message.success(t('bills.cards.saved'));
      setEditing(null);
    } catch (e) {
      if (e instanceof ApiError && e.code === 422)
        form.setFields(
          Object.entries(e.fieldErrors).map(([name, errors]) => ({
            // `rules.firstPrice` → the form's `firstPrice`; `rules.brackets.0.price` → ['brackets', 0, 'price'].
            name: name
              .replace(/^rules\./, '')
              .split('.')
              .map((p) => (/^\d+$/.test(p) ? Number(p) : p)) as never,
            errors,
          })),
        );
      else void message.error(errorText(e));
    } finally {
      setSaving(false);
    }
  };

  const currencies = useCall(reference.currencies, {});
  /** A card's amounts are minor units: 1200 in USD reads "USD 12.00" (digits from `currencies`). */
  const money = (n: number, cur: string) => {
    const d = currencies.data?.find((c) => c.code === cur)?.decimals ?? 0;
    const whole = Math.trunc(n / 10 ** d).toLocaleString();
    return d ? `${cur} ${whole}.${String(n % 10 ** d).padStart(d, '0')}` : `${cur} ${whole}`;
  };
  const columns: TableColumnsType<Row> = [
    { key: 'channel', title: t('bills.cards.channel'), render: (_, r) => r.channelCode },
    {
      key: 'customer',
      title: t('bills.cards.customer'),
      render: (_, r) => (r.customerCode ? r.customerCode : <Tag>{t('bills.cards.channelCard')}</Tag>),
    },
    { key: 'effectiveFrom', title: t('bills.cards.effectiveFrom'), dataIndex: 'effectiveFrom' },
    {
      key: 'first',
      title: t('bills.cards.first'),
      render: (_, r) => `${r.rules.firstWeightG} g · ${money(r.rules.firstPrice, r.currency)}`,
    },
    {
      key: 'brackets',
      title: t('bills.cards.brackets'),
      render: (_, r) =>
        r.rules.brackets.map((b, i) => (
          <div key={i}>
            {t('bills.cards.bracketText', {
              upTo: b.upToG === null ? '∞' : `${b.upToG} g`,
              step: b.stepG,
              price: money(b.price, r.currency),
            })}
          </div>
        )),
    },
    { key: 'minimum', title: t('bills.cards.minimum'), render: (_, r) => money(r.rules.minimum, r.currency) },
    {
      key: 'fees',
      title: t('bills.cards.fees'),
      render: (_, r) => (
        <Typography.Text type="secondary">
          {t('bills.cards.feesText', {
            remote: money(r.rules.remoteFee, r.currency),
            interception: money(r.rules.interceptionFee, r.currency),
            relabel: money(r.rules.relabelFee, r.currency),
            free: r.rules.storageFreeDays,
            perDay: money(r.rules.storagePerDay, r.currency),
          })}
        </Typography.Text>
      ),
    },
    { key: 'createdAt', title: t('bills.cards.createdAt'), render: (_, r) => formatTime(r.createdAt) },
    {
      key: 'actions',
      title: t('bills.actions'),
      render: (_, r) => (
        <a onClick={() => open(r)} data-testid={`card-version-${r.id}`}>
          {t('bills.cards.newVersion')}
        </a>
      ),
    },
  ];

  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="rate-cards">
      <FilterBar
        filters={paged.filters}
        i18n="bills"
        onSearch={(v: Filters) => paged.setFilters({ channelCode: v.channelCode, customerId: v.customerId })}
        searchTestId="cards-search"
        // This bar never had the row gap of the list pages; kept as it was.
        style={{}}
        extra={
          <Button onClick={() => open('new')} data-testid="card-new">
            {t('bills.cards.new')}
          </Button>
        }
      >
        <Form.Item name="channelCode" label={t('bills.cards.channel')}>
          <Select
            allowClear
            style={{ width: 200 }}
            data-testid="cards-channel"
            options={(channels.data ?? []).map((c) => ({ value: c.code, label: `${c.code} ${localized(c.name)}` }))}
          />
        </Form.Item>
        {/* Only operators open rate cards (bill.manage), so the filter is always there. */}
        <FilterBar.Customer label={t('bills.cards.customer')} width={220} />
      </FilterBar>
      <PagedTable<Row>
        rowKey="id"
        size="small"
        paged={paged}
        columns={columns}
        scroll={{ x: 'max-content' }}
        data-testid="cards-table"
      />
      <Modal
        open={editing !== null}
        title={editing === 'new' ? t('bills.cards.new') : t('bills.cards.newVersion')}
        onCancel={() => setEditing(null)}
        onOk={() => void save()}
        okButtonProps={{ loading: saving, 'data-testid': 'card-save' } as never}
        width={720}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" autoComplete="off" initialValues={{ brackets: [], remoteProvinces: [] }}>
          <Space wrap align="start">
            <Form.Item name="channelCode" label={t('bills.cards.channel')} rules={[{ required: true }]}>
              <Select
                style={{ width: 200 }}
                data-testid="card-channel"
                disabled={editing !== 'new'}
                options={(channels.data ?? []).map((c) => ({ value: c.code, label: `${c.code} ${localized(c.name)}` }))}
              />
            </Form.Item>
            <Form.Item name="customerId" label={t('bills.cards.customer')} extra={t('bills.cards.customerHelp')}>
              <CustomerSelect allowClear style={{ width: 220 }} disabled={editing !== 'new'} />
            </Form.Item>
            <Form.Item name="effectiveFrom" label={t('bills.cards.effectiveFrom')} rules={[{ required: true }]}>
              <DatePicker data-testid="card-effective" />
            </Form.Item>
          </Space>
          <Typography.Paragraph type="secondary">{t('bills.cards.unitHelp', { currency })}</Typography.Paragraph>
          <Space wrap align="start">
            <Form.Item name="firstWeightG" label={t('bills.cards.firstWeightG')} rules={[{ required: true }]}>
              <InputNumber min={1} precision={0} data-testid="card-first-weight" />
            </Form.Item>
            <Form.Item name="firstPrice" label={t('bills.cards.firstPrice')} rules={[{ required: true }]}>
              <InputNumber min={0} precision={0} data-testid="card-first-price" />
            </Form.Item>
            {FEES.map((f) => (
              <Form.Item key={f} name={f} label={t(`bills.cards.${f}`)} initialValue={0}>
                <InputNumber min={0} precision={0} data-testid={`card-${f}`} />
              </Form.Item>
            ))}
            <Form.Item name="storageFreeDays" label={t('bills.cards.storageFreeDays')} initialValue={0}>
              <InputNumber min={0} precision={0} />
            </Form.Item>
          </Space>
          <Form.Item name="remoteProvinces" label={t('bills.cards.remoteProvinces')}>
            <Select mode="tags" tokenSeparators={[',', '，']} />
          </Form.Item>
          <Form.List name="brackets">
            {(fields, { add, remove }) => (
              <>
                <Typography.Text strong>{t('bills.cards.brackets')}</Typography.Text>
                {fields.map((f) => (
                  <Space key={f.key} align="baseline" style={{ display: 'flex' }}>
                    <Form.Item name={[f.name, 'upToG']} label={t('bills.cards.upToG')}>
                      <InputNumber min={1} precision={0} placeholder="∞" />
                    </Form.Item>
                    <Form.Item name={[f.name, 'stepG']} label={t('bills.cards.stepG')} rules={[{ required: true }]}>
                      <InputNumber min={1} precision={0} />
                    </Form.Item>
                    <Form.Item name={[f.name, 'price']} label={t('bills.cards.stepPrice')} rules={[{ required: true }]}>
                      <InputNumber min={0} precision={0} />
                    </Form.Item>
                    <a onClick={() => remove(f.name)}>{t('bills.cards.removeBracket')}</a>
                  </Space>
                ))}
                <div>
                  <Button size="small" onClick={() => add({ upToG: null })}>
                    {t('bills.cards.addBracket')}
                  </Button>
                </div>
              </>
            )}
          </Form.List>
        </Form>
      </Modal>
    </Space>
  );
}

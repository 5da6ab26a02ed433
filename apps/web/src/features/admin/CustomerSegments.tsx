import { admin, type CallResponse, reference } from '@console/contract';
import {
  App,
  Button,
  Input,
  InputNumber,
  Popconfirm,
  Select,
  Space,
  Table,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import { Form } from '@/components/form.tsx';
import { useState } from 'react';
import { ApiError, errorText, t, useCall } from '@/lib';
import { createSegment, customerSegmentsCall, retireSegment } from './api/admin.ts';
import './i18n.ts';

type Segment = CallResponse<typeof admin.customerSegments>[number];
type Values = {
  channelCode: string;
  name: string;
  scheme: admin.SegmentScheme;
  prefix: string;
  suffix?: string;
  firstSeq: number;
  lastSeq: number;
};

const n = (v: number) => v.toLocaleString('en-US');

/**
 * A customer's own waybill number segments (issue 17): what each has used and has left, retire
 * with a confirmation, and a form to add one (Enter adds). The server refuses a range that
 * overlaps any segment of the same number shape, and says so on the first number.
 */
export function CustomerSegments({ customerId }: { customerId: number }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const segments = useCall(customerSegmentsCall, { customerId });
  const channels = useCall(reference.channels, {});
  const [adding, setAdding] = useState(false);
  const scheme = Form.useWatch('scheme', form) ?? 'plain';

  const add = async (v: Values) => {
    setAdding(true);
    try {
      await createSegment({ ...v, suffix: v.suffix ?? '', customerId });
      void message.success(t('admin.segmentAdded'));
      form.resetFields();
    } catch (e) {
      if (e instanceof ApiError && e.code === 422)
        form.setFields(Object.entries(e.fieldErrors).map(([name, errors]) => ({ name: name as never, errors })));
      else void message.error(errorText(e));
    } finally {
      setAdding(false);
    }
  };
  const retire = async (id: number) => {
    try {
      await retireSegment(id);
    } catch (e) {
      void message.error(errorText(e));
    }
  };

  const columns: TableColumnsType<Segment> = [
    { title: t('admin.channel'), dataIndex: 'channelCode', width: 70 },
    { title: t('admin.segmentName'), dataIndex: 'name' },
    {
      title: t('admin.range'),
      key: 'range',
      render: (_, s) => (
        <Typography.Text code>
          {s.firstNumber} – {s.lastNumber}
        </Typography.Text>
      ),
    },
    { title: t('admin.used'), dataIndex: 'used', align: 'right', render: n },
    {
      title: t('admin.remaining'),
      dataIndex: 'remaining',
      align: 'right',
      render: (v: number) => (v === 0 ? <Tag>{t('admin.retired')}</Tag> : n(v)),
    },
    {
      title: t('admin.actions'),
      key: 'actions',
      render: (_, s) =>
        s.remaining > 0 && (
          <Popconfirm
            title={t('admin.confirmRetire')}
            onConfirm={() => retire(s.id)}
            okText={t('admin.retire')}
            cancelText={t('admin.cancel')}
          >
            <Button size="small" danger data-testid={`segment-retire-${s.name}`}>
              {t('admin.retire')}
            </Button>
          </Popconfirm>
        ),
    },
  ];

  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="customer-segments">
      <Typography.Text strong>{t('admin.segments')}</Typography.Text>
      <Typography.Text type="secondary">{t('admin.segmentsHelp')}</Typography.Text>
      <Table<Segment>
        rowKey="id"
        size="small"
        pagination={false}
        loading={segments.isFetching}
        dataSource={segments.data ?? []}
        columns={columns}
        locale={{ emptyText: t('admin.noSegments') }}
        data-testid="segment-table"
      />
      <Form<Values>
        form={form}
        layout="inline"
        autoComplete="off"
        onFinish={(v) => void add(v)}
        initialValues={{ scheme: 'plain' }}
        data-testid="segment-form"
        style={{ rowGap: 8 }}
      >
        <Form.Item name="channelCode" label={t('admin.channel')} rules={[{ required: true }]}>
          <Select
            style={{ width: 110 }}
            showSearch
            data-testid="segment-channel"
            options={(channels.data ?? []).map((c) => ({ value: c.code, label: c.code }))}
          />
        </Form.Item>
        <Form.Item name="name" label={t('admin.segmentName')} rules={[{ required: true, max: 100 }]}>
          <Input style={{ width: 160 }} data-testid="segment-name" />
        </Form.Item>
        <Form.Item name="scheme" label={t('admin.scheme')} rules={[{ required: true }]}>
          <Select
            style={{ width: 230 }}
            data-testid="segment-scheme"
            options={admin.segmentSchemes.map((s) => ({ value: s, label: t(`admin.schemes.${s}`) }))}
          />
        </Form.Item>
        <Form.Item
          name="prefix"
          label={t('admin.prefix')}
          normalize={(v: string) => v?.toUpperCase()}
          rules={[
            { required: true },
            scheme === 's10'
              ? { pattern: /^[A-Z]{2}$/, message: 'AA' }
              : { pattern: /^[A-Z0-9]{1,10}$/, message: 'A–Z 0–9 (1–10)' },
          ]}
        >
          <Input style={{ width: 120 }} data-testid="segment-prefix" />
        </Form.Item>
        <Form.Item
          name="suffix"
          label={t('admin.suffix')}
          normalize={(v: string) => v?.toUpperCase()}
          rules={scheme === 's10' ? [{ required: true, pattern: /^[A-Z]{2}$/, message: 'JP' }] : []}
        >
          <Input style={{ width: 80 }} data-testid="segment-suffix" />
        </Form.Item>
        <Form.Item name="firstSeq" label={t('admin.firstSeq')} rules={[{ required: true }]}>
          <InputNumber
            min={1}
            max={admin.segmentMaxSeq[scheme]}
            precision={0}
            style={{ width: 150 }}
            data-testid="segment-first"
          />
        </Form.Item>
        <Form.Item name="lastSeq" label={t('admin.lastSeq')} rules={[{ required: true }]}>
          <InputNumber
            min={1}
            max={admin.segmentMaxSeq[scheme]}
            precision={0}
            style={{ width: 150 }}
            data-testid="segment-last"
          />
        </Form.Item>
        <Form.Item>
          <Button type="primary" ghost htmlType="submit" loading={adding} data-testid="segment-add">
            {t('admin.addSegment')}
          </Button>
        </Form.Item>
      </Form>
    </Space>
  );
}

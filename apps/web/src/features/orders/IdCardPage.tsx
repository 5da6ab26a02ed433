import { orders, type CallResponse } from '@console/contract';
import { App, Button, Image, Input, Modal, Select, Space, Tag, Upload } from 'antd';
import { Form } from '@/components/form.tsx';
import { useState } from 'react';
import { attempt } from '@/components/mutation.ts';
import { PagedTable, useFilterText, usePagedQuery } from '@/components/paged-table';
import { ApiError, errorText, formatTime, t, useI18n } from '@/lib';
import { idCardImage, idCardTemplate, uploadIdCard } from './api/orders.ts';
import { IdCardImport } from './components/IdCardImport.tsx';
import './i18n.ts';

type IdCardRow = CallResponse<typeof orders.idCards>['list'][number];

/** Promise Letter ID Card: upload front and back (jpg/png, checked on the server), bulk import by template, view own images. */
export default function IdCardPage() {
  useI18n();
  const { message } = App.useApp();
  const paged = usePagedQuery<typeof orders.idCards, { keyword?: string }>(orders.idCards);
  const [keyword, setKeyword] = useFilterText(paged.state.filters.keyword);
  const q = paged.query;
  const [form] = Form.useForm();
  const [preview, setPreview] = useState<string | null>(null);
  const show = async (id: number, side: 'front' | 'back') => {
    const r = await attempt(message, () => idCardImage(id, side));
    if (r) setPreview(URL.createObjectURL(r.blob));
  };
  const send = async (file: File) => {
    const v = form.getFieldsValue();
    try {
      await uploadIdCard(
        { side: v.side, orderNo: v.orderNo?.trim() || undefined, name: v.name, idCard: v.idCard },
        file,
      );
    } catch (e) {
      // The client toasts coded errors itself but leaves 422 field errors (a file refused by
      // content, a bad ID number) to the page.
      if (e instanceof ApiError && Object.keys(e.fieldErrors).length) message.error(errorText(e));
      return;
    }
    message.success(t('orders.saved'));
    await q.refetch();
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Form form={form} layout="inline" initialValues={{ side: 'front' }}>
        <Form.Item name="side" label={t('orders.side')}>
          <Select
            style={{ width: 90 }}
            options={[
              { value: 'front', label: t('orders.front') },
              { value: 'back', label: t('orders.back') },
            ]}
          />
        </Form.Item>
        {/* Any number the screens show (order, waybill, reference): the internal id is shown nowhere. */}
        <Form.Item name="orderNo" label={t('orders.idCardOrderNumber')}>
          <Input style={{ width: 190 }} placeholder={t('orders.idCardOrderNumberHint')} data-testid="idcard-order-no" />
        </Form.Item>
        <Form.Item name="name" label={t('orders.recipient')}>
          <Input style={{ width: 110 }} />
        </Form.Item>
        <Form.Item name="idCard" label={t('orders.idCard')}>
          <Input style={{ width: 190 }} />
        </Form.Item>
        <Upload
          accept=".jpg,.jpeg,.png"
          showUploadList={false}
          beforeUpload={(f) => (void send(f), false)}
          data-testid="idcard-upload"
        >
          <Button type="primary">{t('orders.uploadImage')}</Button>
        </Upload>
        <Button onClick={() => attempt(message, idCardTemplate)} data-testid="idcard-template">
          {t('orders.template')}
        </Button>
        <IdCardImport onDone={() => void q.refetch()} />
      </Form>
      <Input.Search
        allowClear
        style={{ width: 300 }}
        placeholder={t('orders.idCardSearch')}
        data-testid="idcard-search"
        value={keyword}
        onChange={(e) => setKeyword(e.target.value)}
        onSearch={(k) => paged.setFilters({ keyword: k.trim() || undefined })}
      />
      <PagedTable<IdCardRow>
        rowKey="id"
        size="small"
        paged={paged}
        data-testid="idcard-table"
        columns={[
          { title: t('orders.orderNo'), dataIndex: 'orderNo' },
          { title: t('orders.recipient'), dataIndex: 'name' },
          { title: t('orders.idCard'), dataIndex: 'idCard' },
          {
            title: t('orders.front'),
            render: (_, r) =>
              r.hasFront ? (
                <Button size="small" onClick={() => show(r.id, 'front')}>
                  {t('orders.view')}
                </Button>
              ) : (
                <Tag>—</Tag>
              ),
          },
          {
            title: t('orders.back'),
            render: (_, r) =>
              r.hasBack ? (
                <Button size="small" onClick={() => show(r.id, 'back')}>
                  {t('orders.view')}
                </Button>
              ) : (
                <Tag>—</Tag>
              ),
          },
          { title: t('orders.createdAt'), render: (_, r) => formatTime(r.createdAt) },
        ]}
      />
      <Modal open={!!preview} footer={null} onCancel={() => (URL.revokeObjectURL(preview!), setPreview(null))}>
        {preview && <Image src={preview} preview={false} />}
      </Modal>
    </Space>
  );
}

import { App, Button, Card, Empty, Space, Tag } from 'antd';
import { Form, showSaveError } from '@/components/form.tsx';
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useTabRecord } from '@/components/useTabRecord.ts';
import { t, useI18n } from '@/lib';
import { refreshJd, updateJd, useJdAuthorization } from './api/jdAuthorize.ts';
import { JdFields, toFields } from './components/JdFields.tsx';
import './i18n.ts';
import { useOneAtATime } from '@/lib/one-at-a-time.ts';

/** Edit JD Authorization (spec §2 order.jdAuthorize update): the secret is never shown, only kept or replaced. */
export default function JdAuthorizeUpdatePage() {
  useI18n();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = Number(params.get('id') ?? 0);
  const q = useJdAuthorization(id);
  useTabRecord(q.data?.appKey);
  const [form] = Form.useForm();
  useEffect(() => {
    if (q.data) form.setFieldsValue({ ...q.data, appSecret: '' });
  }, [q.data, form]);
  const [save, submitting] = useOneAtATime(async (v: Record<string, any>) => {
    try {
      await updateJd({ ...toFields(v), id });
      void message.success(t('jdAuthorize.saved'));
      await refreshJd();
      navigate('/order/jdAuthorize');
    } catch (e) {
      showSaveError(form, e);
    }
  });

  if (!id) return <Empty />;
  if (q.isError) return <Empty description={q.error.message} />;
  return (
    <Card
      loading={!q.data}
      title={t('jdAuthorize.edit')}
      extra={q.data && <Tag>{q.data.ownerCode}</Tag>}
      data-testid="jd-update"
    >
      <Form form={form} layout="vertical" onFinish={save} scrollToFirstError style={{ maxWidth: 900 }}>
        <JdFields savedSecretMask={q.data?.appSecretMasked ?? ''} />
        <Space>
          <Button type="primary" htmlType="submit" loading={submitting} data-testid="jd-submit">
            {t('jdAuthorize.save')}
          </Button>
          <Button onClick={() => navigate('/order/jdAuthorize')}>{t('jdAuthorize.cancel')}</Button>
        </Space>
      </Form>
    </Card>
  );
}

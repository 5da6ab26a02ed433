import { App, Button, Card, Descriptions, Empty, Input, Space } from 'antd';
import { Form, showSaveError } from '@/components/form.tsx';
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useTabRecord } from '@/components/useTabRecord.ts';
import { t, useI18n } from '@/lib';
import { refreshNominations, updateReceiveEmail, useNomination } from './api/exportNominations.ts';
import { emailRule } from './components/NominationFields.tsx';
import './i18n.ts';

/**
 * Change Receive Email (spec §2 exports.updateReceiveEmail, `user/updateReceiveEmail`): only the
 * address that receives the nomination's export documents, checked as an email.
 */
export default function ExportNominationReceiveEmailPage() {
  useI18n();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = Number(params.get('id') ?? 0);
  const q = useNomination(id);
  useTabRecord(q.data?.nameEn);
  const [form] = Form.useForm();
  useEffect(() => {
    if (q.data) form.setFieldsValue({ receiveEmail: q.data.receiveEmail });
  }, [q.data, form]);
  if (!id) return <Empty />;
  if (q.isError) return <Empty description={q.error.message} />;
  const save = async (v: { receiveEmail?: string }) => {
    try {
      await updateReceiveEmail(id, (v.receiveEmail ?? '').trim());
      void message.success(t('exportNominations.saved'));
      await refreshNominations();
      navigate('/exports/list');
    } catch (e) {
      showSaveError(form, e);
    }
  };
  return (
    <Card loading={!q.data} title={t('exportNominations.editReceiveEmail')} data-testid="nomination-email-page">
      {q.data && (
        <Descriptions size="small" column={1} style={{ marginBottom: 16, maxWidth: 600 }}>
          <Descriptions.Item label={t('exportNominations.customer')}>{q.data.customerCode}</Descriptions.Item>
          <Descriptions.Item label={t('exportNominations.nameJa')}>{q.data.nameJa}</Descriptions.Item>
          <Descriptions.Item label={t('exportNominations.nameEn')}>{q.data.nameEn}</Descriptions.Item>
          <Descriptions.Item label={t('exportNominations.currentEmail')}>
            {q.data.receiveEmail || t('exportNominations.none')}
          </Descriptions.Item>
        </Descriptions>
      )}
      <Form form={form} layout="vertical" onFinish={save} style={{ maxWidth: 480 }}>
        <Form.Item
          name="receiveEmail"
          label={t('exportNominations.receiveEmail')}
          extra={t('exportNominations.receiveEmailHint')}
          rules={[
            {
              required: true,
              whitespace: true,
              message: t('exportNominations.required', { label: t('exportNominations.receiveEmail') }),
            },
            emailRule,
          ]}
        >
          <Input
            inputMode="email"
            maxLength={254}
            autoComplete="email"
            autoFocus
            data-testid="nomination-receiveEmail"
          />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" data-testid="nomination-submit">
            {t('exportNominations.save')}
          </Button>
          <Button onClick={() => navigate('/exports/list')}>{t('exportNominations.cancel')}</Button>
        </Space>
      </Form>
    </Card>
  );
}

/** /notice/manage (System → Publish announcement): operators write a notice in both languages and publish it. */
import { App, Button, Card, Checkbox, Input, Space } from 'antd';
import { Form, validateForSubmit } from '@/components/form.tsx';
import { useState } from 'react';
import { ApiError, errorText, t, useI18n } from '@/lib';
import { publishNotice } from './api/publishNotice.ts';
import './i18n.ts';

type Values = { title: { zh: string; en: string }; content: { zh: string; en: string }; mustAgree: boolean };

export default function NoticeManagePage() {
  useI18n();
  const { message, modal } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);

  const publish = async () => {
    const v = await validateForSubmit(form);
    // Published is published: every customer sees it (and must agree to it, when asked), so ask first.
    const ok = await modal.confirm({
      title: t('notices.manage.confirmTitle'),
      content: v.mustAgree ? t('notices.manage.confirmMustAgree') : t('notices.manage.confirmBody'),
      okText: t('notices.manage.publish'),
    });
    if (!ok) return;
    setBusy(true);
    try {
      await publishNotice(v);
      void message.success(t('notices.manage.published'));
      form.resetFields();
    } catch (e) {
      if (e instanceof ApiError && e.code === 422)
        form.setFields(
          Object.entries(e.fieldErrors).map(([name, errors]) => ({ name: name.split('.') as never, errors })),
        );
      else void message.error(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title={t('notices.manage.title')} data-testid="notice-manage">
      <Form form={form} layout="vertical" initialValues={{ mustAgree: false }} style={{ maxWidth: 900 }}>
        <Space align="start" wrap style={{ width: '100%' }} styles={{ item: { flex: 1, minWidth: 320 } }}>
          <Form.Item name={['title', 'zh']} label={t('notices.manage.titleZh')} rules={[{ required: true, max: 200 }]}>
            <Input data-testid="notice-title-zh" maxLength={200} showCount />
          </Form.Item>
          <Form.Item name={['title', 'en']} label={t('notices.manage.titleEn')} rules={[{ required: true, max: 200 }]}>
            <Input data-testid="notice-title-en" maxLength={200} showCount />
          </Form.Item>
        </Space>
        <Space align="start" wrap style={{ width: '100%' }} styles={{ item: { flex: 1, minWidth: 320 } }}>
          <Form.Item
            name={['content', 'zh']}
            label={t('notices.manage.contentZh')}
            rules={[{ required: true, max: 20_000 }]}
          >
            <Input.TextArea data-testid="notice-content-zh" rows={8} maxLength={20_000} />
          </Form.Item>
          <Form.Item
            name={['content', 'en']}
            label={t('notices.manage.contentEn')}
            rules={[{ required: true, max: 20_000 }]}
          >
            <Input.TextArea data-testid="notice-content-en" rows={8} maxLength={20_000} />
          </Form.Item>
        </Space>
        <Form.Item name="mustAgree" valuePropName="checked" extra={t('notices.manage.mustAgreeHelp')}>
          <Checkbox data-testid="notice-must-agree">{t('notices.mustAgree')}</Checkbox>
        </Form.Item>
        <Button type="primary" loading={busy} onClick={() => void publish()} data-testid="notice-publish">
          {t('notices.manage.publish')}
        </Button>
      </Form>
    </Card>
  );
}

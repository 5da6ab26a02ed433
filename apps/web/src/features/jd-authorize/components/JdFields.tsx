import type { jdAuthorize } from '@console/contract';
import { Col, Input, Row } from 'antd';
import { Form } from '@/components/form.tsx';
import { t } from '@/lib';

const required = (key: string) => ({
  required: true,
  whitespace: true,
  message: t('jdAuthorize.required', { label: t(`jdAuthorize.${key}`) }),
});

/**
 * The fields of a JD app. On edit the secret may stay empty (the saved one is kept; it is
 * never sent back to the console, only its mask).
 */
export function JdFields({ savedSecretMask }: { savedSecretMask?: string }) {
  const editing = savedSecretMask !== undefined;
  return (
    <Row gutter={16}>
      <Col xs={24} md={12}>
        <Form.Item
          name="appKey"
          label={t('jdAuthorize.appKey')}
          rules={[required('appKey')]}
          extra={editing ? t('jdAuthorize.appSecretChangeWarn') : undefined}
        >
          <Input maxLength={64} autoComplete="off" data-testid="jd-appKey" />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item
          name="appSecret"
          label={t('jdAuthorize.appSecret')}
          rules={editing ? [] : [required('appSecret')]}
          extra={editing ? t('jdAuthorize.appSecretKeep', { masked: savedSecretMask }) : undefined}
        >
          <Input.Password maxLength={128} autoComplete="new-password" data-testid="jd-appSecret" />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name="customerCode" label={t('jdAuthorize.customerCode')} rules={[required('customerCode')]}>
          <Input maxLength={64} data-testid="jd-customerCode" />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name="isvSource" label={t('jdAuthorize.isvSource')}>
          <Input maxLength={64} data-testid="jd-isvSource" />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name="deptNo" label={t('jdAuthorize.deptNo')}>
          <Input maxLength={64} data-testid="jd-deptNo" />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name="platformId" label={t('jdAuthorize.platformId')}>
          <Input maxLength={64} data-testid="jd-platformId" />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name="platformName" label={t('jdAuthorize.platformName')}>
          <Input maxLength={100} data-testid="jd-platformName" />
        </Form.Item>
      </Col>
    </Row>
  );
}

/** The form's values → the call's fields (trimmed; the secret as typed, empty = keep on edit). */
export function toFields(v: Record<string, string | undefined>): Required<jdAuthorize.JdAuthorizeFields> & {
  appSecret: string;
} {
  const s = (k: string) => (v[k] ?? '').trim();
  return {
    appKey: s('appKey'),
    appSecret: v.appSecret ?? '',
    customerCode: s('customerCode'),
    isvSource: s('isvSource'),
    deptNo: s('deptNo'),
    platformId: s('platformId'),
    platformName: s('platformName'),
  };
}

import { corporateNumberCheckDigit, corporateNumberProblem, exportNominations } from '@console/contract';
import { Col, Input, Row } from 'antd';
import { Form } from '@/components/form.tsx';
import { t } from '@/lib';

/**
 * What is wrong with a corporate number as it is typed, by the contract's rule (the server
 * checks the same), so the form says "the check digit should be 7" before the server is asked;
 * null when it is valid or still empty.
 */
export function corporateNumberMessage(raw: string | undefined | null): string | null {
  const s = (raw ?? '').trim();
  if (!s) return null;
  switch (corporateNumberProblem(s)) {
    case null:
      return null;
    case 'digits':
      return t('exportNominations.corporateDigits');
    case 'length':
      return t('exportNominations.corporateLength', { n: s.length });
    case 'checkDigit':
      return t('exportNominations.corporateCheckDigit', { d: corporateNumberCheckDigit(s.slice(1)) });
  }
}

export const emailRule = {
  validator: (_: unknown, v?: string) =>
    !v?.trim() || exportNominations.EMAIL_PATTERN.test(v.trim())
      ? Promise.resolve()
      : Promise.reject(new Error(t('exportNominations.emailInvalid'))),
};

const required = (key: string) => ({
  required: true,
  whitespace: true,
  message: t('exportNominations.required', { label: t(`exportNominations.${key}`) }),
});

/** The fields of spec §3 Export nomination, for create and update. */
export function NominationFields() {
  return (
    <Row gutter={16}>
      <Col xs={24} md={12}>
        <Form.Item name="nameJa" label={t('exportNominations.nameJa')} rules={[required('nameJa')]}>
          <Input maxLength={200} data-testid="nomination-nameJa" />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name="nameEn" label={t('exportNominations.nameEn')} rules={[required('nameEn')]}>
          <Input maxLength={200} data-testid="nomination-nameEn" />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item
          name="corporateNumber"
          label={t('exportNominations.corporateNumber')}
          extra={t('exportNominations.corporateNumberHint')}
          validateFirst
          rules={[
            required('corporateNumber'),
            {
              validator: (_, v?: string) => {
                const m = corporateNumberMessage(v);
                return m ? Promise.reject(new Error(m)) : Promise.resolve();
              },
            },
          ]}
        >
          <Input inputMode="numeric" maxLength={13} autoComplete="off" data-testid="nomination-corporateNumber" />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name="tel" label={t('exportNominations.tel')} rules={[required('tel')]}>
          <Input maxLength={32} inputMode="tel" data-testid="nomination-tel" />
        </Form.Item>
      </Col>
      <Col xs={24}>
        <Form.Item name="addressEn" label={t('exportNominations.addressEn')} rules={[required('addressEn')]}>
          <Input maxLength={500} data-testid="nomination-addressEn" />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name="idMark" label={t('exportNominations.idMark')}>
          <Input maxLength={64} data-testid="nomination-idMark" />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item
          name="receiveEmail"
          label={t('exportNominations.receiveEmail')}
          extra={t('exportNominations.receiveEmailHint')}
          rules={[emailRule]}
        >
          <Input inputMode="email" maxLength={254} autoComplete="email" data-testid="nomination-receiveEmail" />
        </Form.Item>
      </Col>
    </Row>
  );
}

type Fields = exportNominations.ExportNominationFields;

/** The form's values → the call's fields (trimmed; empty optional fields as ''). */
export function toFields(v: Record<string, string | undefined>): Required<Fields> {
  const s = (k: string) => (v[k] ?? '').trim();
  return {
    nameJa: s('nameJa'),
    nameEn: s('nameEn'),
    corporateNumber: s('corporateNumber'),
    addressEn: s('addressEn'),
    tel: s('tel'),
    idMark: s('idMark'),
    receiveEmail: s('receiveEmail'),
  };
}

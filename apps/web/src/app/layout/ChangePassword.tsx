/**
 * Change password (spec §5): checked on blur with the four messages; changing the new
 * password re-checks the confirmation; a server 422 puts the first message of each field
 * under old_password and password.
 *
 * The password policy is the contract's (password.ts), the server's own: its rules are
 * listed before the user types and each is ticked or crossed as they type. The common-
 * password list (380 KB) is loaded only when the dialog opens.
 */
import {
  auth,
  type CallRequest,
  type PasswordProblem,
  passwordMessages,
  passwordProblems,
  passwordRuleList,
} from '@console/contract';
import { App, Input, Modal } from 'antd';
import { Form, validateForSubmit } from '@/components/form.tsx';
import { useEffect, useState } from 'react';
import { ApiError, call } from '@/lib/http.ts';
import { apiLanguage, useI18n } from '@/lib/i18n.ts';
import { useSession } from '@/lib/session.ts';

type IsCommon = (password: string) => boolean;

/** The policy's rules, each pending (nothing typed), met or broken. */
function PasswordRules({ password, problems }: { password: string; problems: PasswordProblem[] }) {
  const { t } = useI18n();
  const lang = apiLanguage();
  return (
    <div data-testid="password-rules" style={{ marginBottom: 16, fontSize: 13 }}>
      <div style={{ color: 'var(--ant-color-text-secondary)' }}>{t('frame.password.rules')}</div>
      <ul style={{ margin: '4px 0 0', paddingInlineStart: 4, listStyle: 'none' }}>
        {passwordRuleList.map(({ rule, text }) => {
          // Length covers both ends: too short and too long are one rule on screen.
          const broken = problems.includes(rule) || (rule === 'tooShort' && problems.includes('tooLong'));
          const state = !password ? 'pending' : broken ? 'broken' : 'met';
          const color =
            state === 'met'
              ? 'var(--ant-color-success)'
              : state === 'broken'
                ? 'var(--ant-color-error)'
                : 'var(--ant-color-text-secondary)';
          return (
            <li key={rule} data-rule={rule} data-state={state} style={{ color }}>
              <span aria-hidden style={{ display: 'inline-block', width: 18 }}>
                {state === 'met' ? '✓' : state === 'broken' ? '✗' : '•'}
              </span>
              {text[lang]}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

type Values = CallRequest<typeof auth.updatePassWord> & { confirm: string };

/**
 * `forced`: the account still has its one-time password (issue 17); the server answers nothing
 * else until it is changed, so the dialog cannot be dismissed.
 */
export default function ChangePassword({
  open,
  onClose,
  forced = false,
}: {
  open: boolean;
  onClose: () => void;
  forced?: boolean;
}) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const userName = useSession().user?.name;
  const [isCommon, setIsCommon] = useState<IsCommon>();
  const password = Form.useWatch('password', form) ?? '';

  useEffect(() => {
    if (!open || isCommon) return;
    let live = true;
    void import('@console/contract/common-passwords').then((m) => {
      if (!live) return;
      setIsCommon(() => m.isCommonPassword);
      // A password typed before the list came is checked against it now.
      if (form.getFieldValue('password')) void form.validateFields(['password']).catch(() => undefined);
    });
    return () => {
      live = false;
    };
  }, [open, isCommon, form]);

  const problems = password ? passwordProblems(password, { userName, isCommon }) : [];

  const submit = async () => {
    const values = await validateForSubmit(form);
    setSaving(true);
    try {
      await call(auth.updatePassWord, { old_password: values.old_password, password: values.password });
      form.resetFields();
      onClose();
      // The forced dialog is shown by the guard, outside antd's <App>: no message API there.
      void message?.success?.(t('frame.password.success'));
    } catch (err) {
      if (err instanceof ApiError && err.code === 422) {
        const fields = err.fieldErrors;
        form.setFields(
          (['old_password', 'password'] as const)
            .filter((f) => fields[f]?.length)
            .map((f) => ({ name: f, errors: [fields[f][0]] })),
        );
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t(forced ? 'frame.password.forcedTitle' : 'frame.password.title')}
      onCancel={forced ? undefined : onClose}
      closable={!forced}
      mask={{ closable: !forced }}
      keyboard={!forced}
      cancelButtonProps={forced ? { style: { display: 'none' } } : undefined}
      onOk={() => void submit().catch(() => undefined)}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      destroyOnHidden
      data-testid="change-password"
    >
      {forced && <p>{t('frame.password.forcedHint')}</p>}
      <Form form={form} layout="vertical" validateTrigger="onBlur" autoComplete="off">
        <Form.Item
          name="old_password"
          label={t('frame.password.old')}
          rules={[{ required: true, message: t('frame.password.oldEmpty') }]}
        >
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <PasswordRules password={password} problems={problems} />
        <Form.Item
          name="password"
          label={t('frame.password.new')}
          validateTrigger={['onChange', 'onBlur']}
          rules={[
            { required: true, message: t('frame.password.newEmpty') },
            {
              validator: (_rule, value: string | undefined) => {
                const first = value ? passwordProblems(value, { userName, isCommon })[0] : undefined;
                return first
                  ? Promise.reject(new Error(passwordMessages[`password_${first}`][apiLanguage()]))
                  : Promise.resolve();
              },
            },
          ]}
        >
          <Input.Password
            autoComplete="new-password"
            onChange={() => {
              if (form.isFieldTouched('confirm')) void form.validateFields(['confirm']).catch(() => undefined);
            }}
          />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('frame.password.confirm')}
          dependencies={['password']}
          rules={[
            { required: true, message: t('frame.password.confirmEmpty') },
            ({ getFieldValue }) => ({
              validator: (_rule, value: string | undefined) =>
                !value || value === getFieldValue('password')
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('frame.password.mismatch'))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

import { CopyOutlined } from '@ant-design/icons';
import { Alert, App, Button, Modal, Space, Typography } from 'antd';
import { copyText } from '@/components/CopyNumber.tsx';
import { t } from '@/lib';
import './i18n.ts';

/**
 * A secret the server gives once (an API key, a webhook signing secret): shown with a warning
 * and a copy button. The modal closes only by its button (no mask click, no Esc): closing it by
 * accident would lose the secret for good.
 */
export function SecretOnce({
  title,
  warning,
  secret,
  onClose,
}: {
  title: string;
  warning: string;
  secret: string | null;
  onClose: () => void;
}) {
  const { message } = App.useApp();
  const copy = async () => {
    if (await copyText(secret ?? '')) void message.success(t('dev.copied'));
    else void message.error(t('dev.copyFailed'));
  };
  return (
    <Modal
      open={secret !== null}
      title={title}
      closable={false}
      maskClosable={false}
      keyboard={false}
      // Gone from the page once closed: the secret is not left in a hidden dialog.
      destroyOnHidden
      footer={
        <Button type="primary" onClick={onClose} data-testid="secret-done">
          {t('dev.done')}
        </Button>
      }
      data-testid="secret-once"
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Alert type="warning" showIcon message={warning} />
        <Space.Compact style={{ width: '100%' }}>
          <Typography.Text code style={{ wordBreak: 'break-all', flex: 1 }} data-testid="secret-value">
            {secret}
          </Typography.Text>
          <Button icon={<CopyOutlined />} onClick={() => void copy()} data-testid="secret-copy">
            {t('dev.copy')}
          </Button>
        </Space.Compact>
      </Space>
    </Modal>
  );
}

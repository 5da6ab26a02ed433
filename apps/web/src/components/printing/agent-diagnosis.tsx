/**
 * Why the console cannot reach the print agent, in words and with what to do: shown by the
 * agent bar of the print pages and by every print button when the agent is not there.
 */
import { Alert, Button, Space, Typography } from 'antd';
import { t } from '@/lib';
import { PrintError } from './client.ts';
import './i18n.ts';

/** What the user is told for a print-client failure (spec §8 texts, then the agent's own words). */
export function printErrorText(e: unknown): string {
  if (e instanceof PrintError) {
    if (e.kind === 'unreachable') return t('printing.serviceFailed');
    if (e.kind === 'refused') return t('printing.originRefusedShort', { origin: e.message });
    return `${t('printing.callFailed')}: ${e.message}`;
  }
  return `${t('printing.printFailed')}: ${e instanceof Error ? e.message : String(e)}`;
}

/**
 * Why the console cannot print, and what to do: the agent is not running (the command to start
 * it), it runs but refuses this console's address (the setting to change, with this address),
 * or a call failed (the agent's words).
 */
export function HowToStart({
  error,
  address,
  onRetry,
}: {
  error: unknown;
  address: string;
  /** Absent in a dialog, where the user prints again instead. */
  onRetry?: () => void;
}) {
  const retry = onRetry && (
    <Button onClick={onRetry} data-testid="agent-retry">
      {t('printing.reconnect')}
    </Button>
  );
  if (error instanceof PrintError && error.kind === 'refused') {
    return (
      <Alert
        type="warning"
        showIcon
        data-testid="agent-refused"
        message={t('printing.originRefusedTitle')}
        description={
          <Space direction="vertical">
            <span>{t('printing.originRefused', { address, origin: error.message })}</span>
            <Typography.Text code copyable>
              {`PRINT_AGENT_ORIGINS=${error.message} npm run print-agent`}
            </Typography.Text>
          </Space>
        }
        action={retry}
      />
    );
  }
  if (!(error instanceof PrintError) || error.kind !== 'unreachable') {
    return <Alert type="error" showIcon data-testid="agent-failed" message={printErrorText(error)} action={retry} />;
  }
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="agent-missing"
      message={t('printing.serviceFailed')}
      description={
        <Space direction="vertical">
          <span>{t('printing.howToStart', { address })}</span>
          <Typography.Text code copyable>
            npm run print-agent
          </Typography.Text>
          <span>
            {t('printing.howToStartLink')}: <Typography.Text code>apps/print-agent/README.md#start-it</Typography.Text>
            {' · '}
            <a href="https://qz.io/download/" target="_blank" rel="noreferrer">
              QZ Tray
            </a>
          </span>
        </Space>
      }
      action={retry}
    />
  );
}

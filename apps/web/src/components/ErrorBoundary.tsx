import { Button, Result } from 'antd';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { t } from '@/lib/i18n.ts';
import { addLog } from '@/lib/log.ts';

/** Keeps a page's render error inside its tab and records it in the frontend log. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    addLog('render', error.message, `${error.stack ?? ''}\n${info.componentStack ?? ''}`);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <Result
        status="error"
        title={t('frame.renderError.title')}
        subTitle={`${t('frame.renderError.body')} ${this.state.error.message}`}
        extra={
          <Button type="primary" onClick={() => this.setState({ error: null })}>
            {t('common.reload')}
          </Button>
        }
      />
    );
  }
}

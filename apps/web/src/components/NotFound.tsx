import { Button, Result } from 'antd';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { useI18n } from '@/lib/i18n.ts';

export function NotFound() {
  const { t } = useI18n();
  useEffect(() => {
    document.title = `${t('frame.titlePrefix')} - 404`;
  }, [t]);
  return (
    <div className="not-found" data-testid="not-found">
      <Result
        status="404"
        title={t('frame.notFound.title')}
        subTitle={t('frame.notFound.body')}
        extra={
          <Link to="/index">
            <Button type="primary">{t('frame.notFound.back')}</Button>
          </Link>
        }
      />
    </div>
  );
}

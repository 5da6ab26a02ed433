/**
 * What the frame shows in its content area when the address is not a page the user may
 * open: 403 for a page that exists but the user's role does not hold (a customer opening
 * scan receiving), 404 for an address no page has. Header and menu stay, so the user can
 * go on from where they are instead of facing a bare full-screen error.
 */
import { Button, Result } from 'antd';
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { useI18n } from '@/lib/i18n.ts';

export function Unavailable({ kind }: { kind: 403 | 404 }) {
  const { t } = useI18n();
  const key = kind === 403 ? 'frame.forbidden' : 'frame.notFound';
  // Which address it answers: a test (or a user's screenshot) tells one 403 from the one before.
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = `${t('frame.titlePrefix')} - ${t(`${key}.title`)}`;
  }, [t, key]);
  return (
    <div className="frame-unavailable" data-testid={kind === 403 ? 'forbidden' : 'not-found'} data-path={pathname}>
      <Result
        status={kind === 403 ? '403' : '404'}
        title={t(`${key}.title`)}
        subTitle={t(`${key}.body`)}
        extra={
          <Link to="/index">
            <Button type="primary">{t('frame.notFound.back')}</Button>
          </Link>
        }
      />
    </div>
  );
}

import { useNavigate } from 'react-router';
import { routeCatalogue } from '@console/contract';
import { feedback } from '@/lib/feedback.ts';
import { t } from '@/lib/i18n.ts';
import { getSession } from '@/lib/session.ts';
import { isExternal, staticRoutes } from './menu.ts';

/** Spec §2: empty path warns 'temporary menu', http links open a new tab, others navigate. */
export function useOpenRoute() {
  const navigate = useNavigate();
  return (name: string) => {
    const route =
      getSession().routes.find((r) => r.name === name) ??
      staticRoutes.find((r) => r.name === name) ??
      routeCatalogue.find((r) => r.name === name);
    if (!route) return;
    if (!route.path) {
      void feedback().then(({ message }) => message.warning(t('frame.header.temporaryMenu')));
      return;
    }
    if (isExternal(route.path)) {
      window.open(route.path, '_blank', 'noopener,noreferrer');
      return;
    }
    void navigate(route.path);
  };
}

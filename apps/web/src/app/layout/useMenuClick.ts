import { useNavigate } from 'react-router';
import { routeCatalogue } from '@console/contract';
import { feedback } from '@/lib/feedback.ts';
import { t } from '@/lib/i18n.ts';
import { getSession } from '@/lib/session.ts';
import { isExternal, staticRoutes } from './menu.ts';
import { lastPathOf } from './tabs/store.ts';

/**
 * Spec §2: empty path warns 'temporary menu', http links open a new tab, others navigate.
 * `lastParams`: the menus open a page at its last address (a list with the filters it was left
 * with, see `lastPathOf`); a badge or a button that means "the list as such" opens it bare.
 */
export function useOpenRoute({ lastParams = false } = {}) {
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
    void navigate(lastParams && !route.path.includes('?') ? lastPathOf(route.path) : route.path);
  };
}

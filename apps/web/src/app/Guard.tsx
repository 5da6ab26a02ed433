/**
 * Route guard (spec §4): no token → login with redirect; token without user → load `me`,
 * build routes and the user's settings, then render; failure → clear the token, say
 * 'Has Error' (or the user-info message) and go to login. No answer at all keeps the session and
 * offers to try again.
 */
import { Button, Result } from 'antd';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { feedback } from '@/lib/feedback.ts';
import { t } from '@/lib/i18n.ts';
import { SessionError, isNoAnswer, loadUser, logout, useSession } from '@/lib/session.ts';
import { getToken } from '@/lib/storage.ts';
import { PageSpinner } from './PageSpinner.tsx';
import { loginPath } from './paths.ts';
import { loadTabsFor } from './layout/tabs/store.ts';
import { prefetchCalls, prefetchShell } from './prefetch.ts';
import { loadAppearanceFor } from './theme/appearance.ts';
import { fetchServerSettings, pickUserSetting } from './userSettings.ts';

const ChangePassword = lazy(() => import('./layout/ChangePassword.tsx'));

let loading: Promise<void> | null = null;

// A page being left (a reload, an address typed, a bookmark) cuts off its own loading: no failure
// of the session. Taken for one, it logged the user out and revoked the token the next page was
// about to load with. `beforeunload` fires as the navigation starts, before the calls are cut.
let leaving = false;
if (typeof window !== 'undefined') {
  window.addEventListener('beforeunload', () => (leaving = true));
  // Back from the back-forward cache: the page lives again.
  window.addEventListener('pageshow', () => (leaving = false));
}

/**
 * Loads the user and their settings once, however many renders ask. `me`, the settings and
 * the frame's and page's chunks are asked for at the same time, not one after the other.
 */
export function bootstrapSession(path?: string): Promise<void> {
  loading ??= (async () => {
    try {
      prefetchShell(path);
      const user = loadUser();
      prefetchCalls(path, user);
      const [me, server] = await Promise.all([user, fetchServerSettings()]);
      loadAppearanceFor(me.name, pickUserSetting(me.name, 'appearance', server.appearance));
      loadTabsFor(
        me.name,
        pickUserSetting(me.name, 'tabs', server.tabs),
        pickUserSetting(me.name, 'tabLabels', server.tabLabels),
      );
    } finally {
      loading = null;
    }
  })();
  return loading;
}

export function Guard({ children }: { children: ReactNode }) {
  const location = useLocation();
  const navigate = useNavigate();
  const { user } = useSession();
  const token = getToken();
  const [ready, setReady] = useState(Boolean(user) && !loading);
  // The server did not answer the loading (issue 36 #23): the session is kept, and the user asks
  // again once the network is back. Taken for a failed session, it logged the user out.
  const [unanswered, setUnanswered] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    // While the session loads, `me` sets the user before the settings may have come: the frame
    // waits for them. Drawn at once, it opened the addressed page's tab, and the tabs restored a
    // moment later replaced it (a blank page with no active tab, when they did not hold it).
    if (!token || (user && !loading)) {
      setReady(Boolean(user));
      return;
    }
    let cancelled = false;
    bootstrapSession(location.pathname).then(
      () => !cancelled && setReady(true),
      async (err: unknown) => {
        if (cancelled || leaving) return;
        if (isNoAnswer(err)) {
          setUnanswered(true);
          return;
        }
        const text = err instanceof SessionError ? err.message : t('session.hasError');
        await logout();
        const { message } = await feedback();
        void message.error({ content: text, duration: 5 });
        void navigate(loginPath(location.pathname + location.search), { replace: true });
      },
    );
    return () => {
      cancelled = true;
    };
    // Only a new token or user restarts loading, not every navigation.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token, user, attempt]);

  if (!token) return <Navigate to={loginPath(location.pathname + location.search)} replace />;
  if (unanswered)
    return (
      <Result
        status="warning"
        title={t('http.unreachableTitle')}
        subTitle={t('http.unreachable')}
        extra={
          <Button
            type="primary"
            data-testid="guard-retry"
            onClick={() => {
              setUnanswered(false);
              setAttempt((n) => n + 1);
            }}
          >
            {t('http.retry')}
          </Button>
        }
      />
    );
  if (!user || !ready) return <PageSpinner />;
  // A one-time password (issue 17): nothing else until it is changed; then `me` again.
  if (user.mustChangePassword)
    return (
      <Suspense fallback={<PageSpinner />}>
        <ChangePassword open forced onClose={() => void loadUser().catch(() => undefined)} />
      </Suspense>
    );
  return children;
}

import { Suspense, lazy, useEffect } from 'react';
import { BrowserRouter, Route, Routes, useLocation, useNavigate } from 'react-router';
import '@/lib/messages.ts';
import { sessionEvents } from '@/lib/events.ts';
import { resetSession } from '@/lib/session.ts';
import { IS_LOGIN_KEY } from '@/lib/storage.ts';
import { Guard } from './Guard.tsx';
import './i18n.ts';
import { loginPath } from './paths.ts';
import { PageSpinner } from './PageSpinner.tsx';
import { FrameVars } from './theme/FrameVars.tsx';
import { forgetAppearanceUser } from './theme/appearance.ts';
import { loadShell } from './prefetch.ts';
import { lazyLoaded, withChunkTimeout } from './routes/lazyPage.tsx';

// The login route must stay small (no antd, no React Query): the shell is its own chunk.
const LoginPage = lazy(() => withChunkTimeout(() => import('./login/LoginPage.tsx')));
// Usually preloaded on the login page: then it renders without a spinner pass.
const Shell = lazyLoaded(loadShell);
// Public (no login): the logistics-trajectory button opens it in a new window.
const TrackingPage = lazy(() => withChunkTimeout(() => import('@/features/orders/TrackingPage.tsx')));

/** Session-wide reactions: refresh failed → login; another tab logged out → login. */
function SessionWatcher() {
  const navigate = useNavigate();
  const location = useLocation();
  useEffect(() => {
    const toLogin = (withRedirect: boolean) => {
      resetSession();
      forgetAppearanceUser();
      if (location.pathname === '/login') return;
      void navigate(withRedirect ? loginPath(location.pathname + location.search) : '/login', { replace: true });
    };
    const off = sessionEvents.on((e) => {
      if (e.type === 'expired') toLogin(true);
    });
    const onStorage = (e: StorageEvent) => {
      if (e.key === IS_LOGIN_KEY && e.newValue === 'false') toLogin(false);
    };
    window.addEventListener('storage', onStorage);
    return () => {
      off();
      window.removeEventListener('storage', onStorage);
    };
  }, [navigate, location]);
  return null;
}

export function App() {
  return (
    <>
      <FrameVars />
      <BrowserRouter basename="/home">
        <SessionWatcher />
        <Suspense fallback={<PageSpinner />}>
          <Routes>
            <Route path="/login" element={<LoginPage />} />
            <Route path="/tracking" element={<TrackingPage />} />
            <Route
              path="*"
              element={
                <Guard>
                  <Shell />
                </Guard>
              }
            />
          </Routes>
        </Suspense>
      </BrowserRouter>
    </>
  );
}
